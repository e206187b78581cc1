//! SVG rendered to PNG by resvg, with DejaVu Sans Bold compiled in (assets/fonts, its licence
//! beside it), so nothing needs installing and every machine draws the same picture.

use std::sync::{Arc, OnceLock};

/// The font every picture is written in.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// How SVG is read: in the font compiled in.
pub(super) fn options() -> &'static resvg::usvg::Options<'static> {
    static OPTIONS: OnceLock<resvg::usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = resvg::usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        let mut options = resvg::usvg::Options {
            font_family: "DejaVu Sans".to_string(),
            ..Default::default()
        };
        options.fontdb = Arc::new(fonts);
        options
    })
}

/// The SVG document `svg` as PNG bytes, `scale` times its size; `None` if it is no SVG.
pub fn render_png(svg: &str, scale: f32) -> Option<Vec<u8>> {
    encode(&render(svg, scale)?)
}

/// The SVG document `svg` painted, `scale` times its size; `None` if it is no SVG.
pub fn render(svg: &str, scale: f32) -> Option<resvg::tiny_skia::Pixmap> {
    let tree = resvg::usvg::Tree::from_str(svg, options()).ok()?;
    let size = tree.size().to_int_size().scale_by(scale)?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Some(pixmap)
}

/// The most colours a picture keeps: a PNG palette.
const PALETTE: usize = 256;

/// The pixels as an indexed PNG, compressed fast: the picture is flat colours (sea, land, the
/// powers', black and white) and their anti-aliased edges, so its most frequent 256 colours
/// keep every flat area exact, and each rarer edge colour takes the nearest of them. Fewer
/// bytes than an RGBA PNG (about 196 kB for the standard board), and faster to compress. (The pictures are opaque: each colour
/// is taken off its premultiplied alpha.)
pub fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Option<Vec<u8>> {
    type HashMap<K, V> = std::collections::HashMap<K, V, BuildColourHasher>;
    // The picture is mostly long runs of one colour: it is read once into runs of equal
    // pixels, each run naming its pixel value by a slot (one look-up a run, none when it is
    // the value of the run before last, as on either side of a thin line), and the rest
    // works on the slots (a few thousand: the flat colours and their anti-aliased edges).
    // Each pixel as its four bytes (red, green, blue, alpha: premultiplied), compared as one.
    let (pixels, _) = pixmap.data().as_chunks::<4>();
    let mut slot_of: HashMap<u32, u32> = HashMap::default();
    let mut values: Vec<[u8; 4]> = Vec::with_capacity(4096);
    let mut runs: Vec<(u32, u32)> = Vec::with_capacity(128 * 1024);
    // The two values seen last and their slots (none yet: no slot is `u32::MAX`).
    let mut recent = [([0u8; 4], u32::MAX); 2];
    let mut at = 0;
    while at < pixels.len() {
        let value = pixels[at];
        let mut next = at + 1;
        // The run's end, sixteen pixels at a time while they all match (compared without
        // stopping early, so that the compiler compares them side by side).
        while next + 16 <= pixels.len()
            && pixels[next..next + 16]
                .iter()
                .fold(true, |same, p| same & (*p == value))
        {
            next += 16;
        }
        while next < pixels.len() && pixels[next] == value {
            next += 1;
        }
        let slot = match recent.iter().find(|(v, s)| *v == value && *s != u32::MAX) {
            Some((_, slot)) => *slot,
            None => {
                let slot = *slot_of.entry(u32::from_ne_bytes(value)).or_insert_with(|| {
                    values.push(value);
                    values.len() as u32 - 1
                });
                recent = [recent[1], (value, slot)];
                slot
            }
        };
        runs.push((slot, (next - at) as u32));
        at = next;
    }
    // Each slot's colour, taken off its premultiplied alpha (several values may be one
    // colour), and how many pixels each colour covers.
    let colour_of: Vec<u32> = values
        .iter()
        .map(|&[r, g, b, a]| {
            let c = resvg::tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, a)
                .unwrap_or(resvg::tiny_skia::PremultipliedColorU8::TRANSPARENT)
                .demultiply();
            u32::from(c.red()) << 16 | u32::from(c.green()) << 8 | u32::from(c.blue())
        })
        .collect();
    let mut counts: HashMap<u32, u32> = HashMap::default();
    let mut slot_counts = vec![0u32; values.len()];
    for (slot, length) in &runs {
        slot_counts[*slot as usize] += length;
    }
    for (slot, count) in slot_counts.iter().enumerate() {
        *counts.entry(colour_of[slot]).or_insert(0) += count;
    }
    let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_count.iter().take(PALETTE).map(|(c, _)| *c).collect();
    let mut index: HashMap<u32, u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    let channels = |c: u32| [(c >> 16) as u8, (c >> 8) as u8, c as u8];
    // The palette's channels side by side, so that the distance to every entry is computed
    // in one pass the compiler vectorises. Entries past the palette's end stand far from
    // every colour (a distance of three million, where two colours are 195,075 apart at most).
    let mut planes = [[1000i32; PALETTE]; 3];
    for (i, c) in palette.iter().enumerate() {
        for (plane, value) in planes.iter_mut().zip(channels(*c)) {
            plane[i] = i32::from(value);
        }
    }
    // The nearest entry, the first of the nearest: each distance (under 2^22) carries its
    // entry's number in its low eight bits, so that the least of them names it.
    let nearest = |colour: u32| {
        let [r, g, b] = channels(colour).map(i32::from);
        let [reds, greens, blues] = &planes;
        let least = (0..PALETTE as i32)
            .zip(reds.iter().zip(greens).zip(blues))
            .map(|(i, ((pr, pg), pb))| {
                let (dr, dg, db) = (pr - r, pg - g, pb - b);
                (dr * dr + dg * dg + db * db) << 8 | i
            })
            .fold(i32::MAX, i32::min);
        (least & 0xff) as u8
    };
    let slot_index: Vec<u8> = colour_of
        .iter()
        .map(|c| *index.entry(*c).or_insert_with(|| nearest(*c)))
        .collect();
    let mut indexed: Vec<u8> = Vec::with_capacity(pixels.len());
    for (slot, length) in &runs {
        indexed.resize(indexed.len() + *length as usize, slot_index[*slot as usize]);
    }
    let mut out = Vec::with_capacity(256 * 1024);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(
        palette
            .iter()
            .flat_map(|c| channels(*c))
            .collect::<Vec<u8>>(),
    );
    encoder.set_compression(png::Compression::Fast);
    // Each row filtered by Paeth's predictor alone rather than by the best of five: a
    // tenth of the picture's time less for 3.5% more bytes (196 kB for the standard board).
    encoder.set_filter(png::Filter::Paeth);
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(&indexed).ok()?;
    writer.finish().ok()?;
    Some(out)
}

/// Hashes a colour (a 24-bit number) by one multiplication: the tables of `encode` hold a few
/// hundred colours and are looked up once per run of pixels, where SipHash's cost showed.
#[derive(Default)]
struct ColourHasher(u64);

impl std::hash::Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        // The high bits, which every bit of the colour reaches, folded into the low ones
        // that pick the table's slot.
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u32(u32::from(*b));
        }
    }

    fn write_u32(&mut self, colour: u32) {
        self.0 = (self.0 ^ u64::from(colour)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type BuildColourHasher = std::hash::BuildHasherDefault<ColourHasher>;
