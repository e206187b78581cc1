//! The picture of a game's board that letters carry, as `map.png`: after each phase the new
//! position with the orders just played and the retreats they left (results letters, unless
//! the master said `SET GAME MAP OFF` or the player `SET MAP OFF`), and the board as it
//! stands for `GET MAP game`. Drawing is `crate::drawing`; this says what to draw.

use crate::diplomacy::adjudicate::{Resolution, Submitted};
use crate::diplomacy::position::Position;
use crate::drawing::{self, Scene, board::drawn_orders};
use crate::letter::Attachment;
use crate::report::messages::Words;
use crate::store::GameRow;
use crate::tr;
use crate::variant::Variant;

/// The file name a picture is sent as.
pub const FILE_NAME: &str = "map.png";

fn attachment(svg: &str) -> Option<Attachment> {
    png_attachment(drawing::png::render_png(svg, 1.0)?)
}

fn png_attachment(bytes: Vec<u8>) -> Option<Attachment> {
    Some(Attachment {
        name: FILE_NAME.to_string(),
        media_type: "image/png".to_string(),
        bytes,
    })
}

/// The picture of `next`, the board after a phase: the phase's orders drawn from where they
/// were given, failed ones marked, and the units dislodged with their retreats. `None` when
/// the variant has no map.
pub fn results_picture(
    words: Words,
    variant: &Variant,
    game: &GameRow,
    before: &Position,
    submitted: &[Submitted],
    resolution: &Resolution,
    next: &Position,
) -> Option<Attachment> {
    let layout = variant.layout.as_deref()?;
    let orders = drawn_orders(words, &variant.map, before, submitted, &resolution.outcomes);
    let title = tr!(
        words,
        "map.title_result",
        game = game.name,
        played = drawing::phase_in(words, variant, before),
        next = drawing::phase_in(words, variant, next)
    );
    png_attachment(drawing::layers::board_png(
        &Scene {
            map: &variant.map,
            layout,
            position: next,
            title,
            orders,
            retreats: resolution.dislodged.clone(),
        },
        words,
    )?)
}

/// The picture of the board as it stands (no orders: those of the phase being played are
/// secret).
pub fn board_picture(
    words: Words,
    variant: &Variant,
    game: &GameRow,
    position: &Position,
) -> Option<Attachment> {
    let layout = variant.layout.as_deref()?;
    let title = tr!(
        words,
        "map.title_game",
        game = game.name,
        phase = drawing::phase_in(words, variant, position)
    );
    png_attachment(drawing::layers::board_png(
        &Scene::board(&variant.map, layout, position, title),
        words,
    )?)
}

/// A variant's starting board, for `GET MAP <variant>`.
pub fn variant_picture(words: Words, variant: &Variant) -> Option<Attachment> {
    png_attachment(drawing::variant_png(variant, false, words).ok()?)
}

/// A Here I Stand board as a picture (the move under way as an arrow).
pub fn his_picture(svg: &str) -> Option<Attachment> {
    attachment(svg)
}
