//! A game's phases by name (`Movement for Spring of 1901` in each reader's words, the variant's
//! seasons and era) and the deadline of a phase by the game's settings and zone.

use chrono::{DateTime, Utc};

use crate::diplomacy::position::Position;
use crate::diplomacy::turn::{PhaseKind, Season, Turn};
use crate::game::settings::deadline_after;
use crate::msg;
use crate::report::{Message, Words};
use crate::store::GameRow;
use crate::variant::Variant;

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

/// `Movement for Fall of 1902`, any turn of the variant's calendar, for readers of any language.
pub fn phase_of_turn_message(variant: &Variant, turn: Turn) -> Message {
    let kind = turn.kind;
    let turn = turn_message(variant, turn);
    match kind {
        PhaseKind::Movement => msg!("phase.movement", turn = turn),
        PhaseKind::Retreat => msg!("phase.retreats", turn = turn),
        PhaseKind::Adjustment => msg!("phase.adjustments", turn = turn),
    }
}

/// `Spring 1901`, `Autumn 240 BC`: a turn in each reader's words (the season and era by the
/// catalog's `calendar` names, where it has the variant's; else as the variant writes them).
pub fn turn_message(variant: &Variant, turn: Turn) -> Message {
    let (season, era) = calendar_messages(variant, turn);
    msg!(
        "calendar.turn",
        season = season,
        year = turn.year,
        era = era
    )
}

/// The season of `turn` and the variant's era, as messages.
pub fn calendar_messages(variant: &Variant, turn: Turn) -> (Message, Message) {
    let calendar = &variant.calendar;
    let season = match (turn.season, turn.kind) {
        (_, PhaseKind::Adjustment) | (Season::Winter, _) => &calendar.winter,
        (Season::Spring, _) => &calendar.spring,
        (Season::Fall, _) => &calendar.fall,
    };
    let season = match season.to_lowercase().as_str() {
        "spring" => msg!("calendar.spring"),
        "summer" => msg!("calendar.summer"),
        "fall" => msg!("calendar.fall"),
        "autumn" => msg!("calendar.autumn"),
        "winter" => msg!("calendar.winter"),
        _ => msg!("calendar.named", name = season),
    };
    let era = match calendar.era.trim().to_lowercase().as_str() {
        "" => msg!("calendar.no_era"),
        "bc" => msg!("calendar.bc"),
        "ad" => msg!("calendar.ad"),
        _ => msg!("calendar.named", name = calendar.era),
    };
    (season, era)
}

/// The deadline of a phase of `kind` starting at `now`, by the game's settings and zone.
pub fn next_deadline(game: &GameRow, kind: PhaseKind, now: DateTime<Utc>) -> DateTime<Utc> {
    let settings = game.settings.clone();
    let tz = game.time_zone.parse().unwrap_or(chrono_tz::UTC);
    deadline_after(settings.timing(kind), tz, now)
}
