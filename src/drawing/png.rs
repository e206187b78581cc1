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
/// bytes than an RGBA PNG (190 kB for the standard board), and faster to compress. (The pictures are opaque: each colour
/// is taken off its premultiplied alpha.)
pub fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Option<Vec<u8>> {
    type HashMap<K, V> = std::collections::HashMap<K, V, BuildColourHasher>;
    // The picture is mostly long runs of one colour: it is read once into runs of equal
    // pixels (each pixel's four bytes as one number), and the rest works on the runs.
    let mut runs: Vec<(u32, u32)> = Vec::with_capacity(64 * 1024);
    let mut pixels = pixmap
        .data()
        .chunks_exact(4)
        .map(|p| u32::from_ne_bytes([p[0], p[1], p[2], p[3]]));
    if let Some(first) = pixels.next() {
        let (mut last, mut length) = (first, 1u32);
        for pixel in pixels {
            if pixel == last {
                length += 1;
            } else {
                runs.push((last, length));
                (last, length) = (pixel, 1);
            }
        }
        runs.push((last, length));
    }
    // A colour as one number, taken off its premultiplied alpha.
    let colour = |raw: u32| {
        let [r, g, b, a] = raw.to_ne_bytes();
        let c = resvg::tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, a)
            .map(|c| c.demultiply())
            .unwrap_or(resvg::tiny_skia::ColorU8::from_rgba(r, g, b, 255));
        u32::from(c.red()) << 16 | u32::from(c.green()) << 8 | u32::from(c.blue())
    };
    let mut colours: HashMap<u32, u32> = HashMap::default();
    let mut counts: HashMap<u32, u32> = HashMap::default();
    for (raw, length) in &runs {
        let c = *colours.entry(*raw).or_insert_with(|| colour(*raw));
        *counts.entry(c).or_insert(0) += length;
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
    let nearest = |colour: u32| {
        let colour = channels(colour);
        let d = |p: u32| {
            let p = channels(p);
            (0..3)
                .map(|k| (p[k] as i32 - colour[k] as i32).pow(2))
                .sum::<i32>()
        };
        (0..palette.len())
            .min_by_key(|i| d(palette[*i]))
            .unwrap_or(0) as u8
    };
    let mut indexed: Vec<u8> = Vec::with_capacity(pixmap.data().len() / 4);
    for (raw, length) in &runs {
        let c = colours[raw];
        let i = *index.entry(c).or_insert_with(|| nearest(c));
        indexed.resize(indexed.len() + *length as usize, i);
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
