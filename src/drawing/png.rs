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
    pixmap.encode_png().ok()
}
