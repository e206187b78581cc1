//! A game's phases by name (`Movement for Spring of 1901` in each reader's words, the variant's
//! seasons and era) and the deadline of a phase by the game's settings and zone.

use chrono::{DateTime, Utc};

use crate::diplomacy::position::Position;
use crate::diplomacy::turn::PhaseKind;
use crate::game::settings::deadline_after;
use crate::report::{Message, Words};
use crate::store::GameRow;
use crate::variant::Variant;
pub use crate::variant::turns::{calendar_messages, phase_of_turn_message, turn_message};

/// `Movement for Spring of 1901`, in English: the name phases are stored and asked for by.
pub fn phase_name(variant: &Variant, position: &Position) -> String {
    phase_name_in(Words::english(), variant, position)
}

/// `Movement for Spring of 1901` in the reader's words (the season and year as the variant says).
pub fn phase_name_in(words: Words, variant: &Variant, position: &Position) -> String {
    words.message(&phase_message(variant, position))
}

/// `Movement for Spring of 1901`, to put in a message for readers of any language.
pub fn phase_message(variant: &Variant, position: &Position) -> Message {
    phase_of_turn_message(variant, position.turn)
}

/// The deadline of a phase of `kind` starting at `now`, by the game's settings and zone.
pub fn next_deadline(game: &GameRow, kind: PhaseKind, now: DateTime<Utc>) -> DateTime<Utc> {
    let settings = game.settings.clone();
    let tz = game.time_zone.parse().unwrap_or(chrono_tz::UTC);
    deadline_after(settings.timing(kind), tz, now)
}
