//! Maps: pictures of a variant's board drawn from real geography, pure (data in, SVG or PNG
//! bytes out).
//!
//! The map's shapes come from `atlas` (a variant's layout, the land, the `Sheet`); `check`
//! compares them with the rules;
//! `scene` is what a picture shows and where things go; `board` draws a Diplomacy position,
//! `orders` its orders, `legend` the legend beneath, `his` a Here I Stand board; `png`
//! renders SVG with resvg and the font shipped in the binary; `layers` paints a board's PNG
//! from its unchanging layers, painted once per map. docs/maps.md says more.

pub mod board;
pub mod check;
pub mod his;
pub mod layers;
pub mod legend;
pub mod orders;
pub mod palette;
pub mod png;
pub mod scene;
pub mod svg;

pub use board::draw;
pub use check::{Mismatch, check_map};
pub use scene::{DrawnOrder, Scene};

use crate::diplomacy::position::Position;
use crate::report::messages::Words;
use crate::tr;
use crate::variant::Variant;

/// The variant's starting board (or, `empty`, its map alone), after checking the picture
/// against the rules: each mismatch named, if any.
pub fn draw_variant(variant: &Variant, empty: bool, words: Words) -> Result<String, String> {
    with_variant_scene(variant, empty, words, |scene| draw(scene, words))
}

/// `draw_variant` as a PNG, painted over the map's kept layers (`layers`), as letters carry it.
pub fn variant_png(variant: &Variant, empty: bool, words: Words) -> Result<Vec<u8>, String> {
    with_variant_scene(variant, empty, words, |scene| {
        layers::board_png(scene, words)
    })?
    .ok_or_else(|| format!("variant '{}': the picture could not be painted", variant.id))
}

/// What `make` makes of the variant's starting board (or, `empty`, its map alone), after
/// checking the picture against the rules.
fn with_variant_scene<T>(
    variant: &Variant,
    empty: bool,
    words: Words,
    make: impl FnOnce(&Scene) -> T,
) -> Result<T, String> {
    let layout = variant
        .layout
        .as_ref()
        .ok_or_else(|| format!("variant '{}' has no [map] table", variant.id))?;
    let mismatches = check_map(&variant.map, layout);
    if !mismatches.is_empty() && std::env::var_os("STRATEGOS_MAP_ANYWAY").is_none() {
        let list: Vec<String> = mismatches.iter().map(|m| m.to_string()).collect();
        return Err(list.join("\n"));
    }
    let empty_board;
    let position = if empty {
        empty_board = Position::empty(&variant.map, variant.start.turn);
        &empty_board
    } else {
        &variant.start
    };
    let title = tr!(
        words,
        "map.title_variant",
        variant = variant.name,
        phase = phase_in(words, variant, position)
    );
    Ok(make(&Scene::board(&variant.map, layout, position, title)))
}

/// `Movement for Spring of 1901` in the reader's words (as the judge's reports name phases).
pub fn phase_in(words: Words, variant: &Variant, position: &Position) -> String {
    words.message(&crate::variant::turns::phase_of_turn_message(
        variant,
        position.turn,
    ))
}
