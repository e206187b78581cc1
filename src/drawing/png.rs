//! SVG rendered to PNG by resvg, with DejaVu Sans Bold compiled in (assets/fonts, its licence
//! beside it), so nothing needs installing and every machine draws the same picture.

use std::sync::{Arc, OnceLock};

/// The font every picture is written in.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

fn options() -> &'static resvg::usvg::Options<'static> {
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
    let tree = resvg::usvg::Tree::from_str(svg, options()).ok()?;
    let size = tree.size().to_int_size().scale_by(scale)?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
}

/// The most colours a picture keeps: a PNG palette.
const PALETTE: usize = 256;

/// The pixels as an indexed PNG, compressed fast: the picture is flat colours (sea, land, the
/// powers', black and white) and their anti-aliased edges, so its most frequent 256 colours
/// keep every flat area exact, and each rarer edge colour takes the nearest of them. Fewer
/// bytes than an RGBA PNG (190 kB for the standard board), and faster to compress. (The pictures are opaque: each colour
/// is taken off its premultiplied alpha.)
fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Option<Vec<u8>> {
    use std::collections::HashMap;
    // A colour as one number, taken off its premultiplied alpha.
    let colour = |pixel: &resvg::tiny_skia::PremultipliedColorU8| {
        let c = pixel.demultiply();
        u32::from(c.red()) << 16 | u32::from(c.green()) << 8 | u32::from(c.blue())
    };
    let pixels = pixmap.pixels();
    // Counted run by run of equal pixels (the picture is mostly long runs of one colour), a
    // run's colour taken off its alpha once.
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let mut run: Option<(&resvg::tiny_skia::PremultipliedColorU8, u32)> = None;
    for pixel in pixels {
        run = match run {
            Some((last, n)) if last == pixel => Some((last, n + 1)),
            Some((last, n)) => {
                *counts.entry(colour(last)).or_insert(0) += n;
                Some((pixel, 1))
            }
            None => Some((pixel, 1)),
        };
    }
    if let Some((last, n)) = run {
        *counts.entry(colour(last)).or_insert(0) += n;
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
    let mut indexed = Vec::with_capacity(pixels.len());
    let mut last: Option<(&resvg::tiny_skia::PremultipliedColorU8, u8)> = None;
    for pixel in pixels {
        let i = match last {
            Some((l, i)) if l == pixel => i,
            _ => {
                let c = colour(pixel);
                *index.entry(c).or_insert_with(|| nearest(c))
            }
        };
        last = Some((pixel, i));
        indexed.push(i);
    }
    let mut out = Vec::new();
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
