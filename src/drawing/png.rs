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
/// keep every flat area exact, and each rarer edge colour takes the nearest of them. A third
/// of the bytes of an RGB PNG, and faster to compress. (The pictures are opaque: each colour
/// is taken off its premultiplied alpha.)
fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Option<Vec<u8>> {
    use std::collections::HashMap;
    let rgb: Vec<[u8; 3]> = pixmap
        .pixels()
        .iter()
        .map(|pixel| {
            let c = pixel.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for colour in &rgb {
        *counts.entry(*colour).or_insert(0) += 1;
    }
    let mut by_count: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = by_count.iter().take(PALETTE).map(|(c, _)| *c).collect();
    let mut index: HashMap<[u8; 3], u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    let nearest = |colour: [u8; 3]| {
        let d = |p: &[u8; 3]| {
            (0..3)
                .map(|k| (p[k] as i32 - colour[k] as i32).pow(2))
                .sum::<i32>()
        };
        (0..palette.len())
            .min_by_key(|i| d(&palette[*i]))
            .unwrap_or(0) as u8
    };
    let mut pixels = Vec::with_capacity(rgb.len());
    for colour in rgb {
        let i = match index.get(&colour) {
            Some(i) => *i,
            None => {
                let i = nearest(colour);
                index.insert(colour, i);
                i
            }
        };
        pixels.push(i);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(&pixels).ok()?;
    writer.finish().ok()?;
    Some(out)
}
