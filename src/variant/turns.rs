//! How a variant's turns and phases are named in messages, in each reader's words: the
//! variant's seasons and era by the catalog's `calendar` names where it has them (`Spring of
//! 1901`, `весна 240 до н. э.`), and a phase by the catalog's `phase` names (`Movement for
//! Spring of 1901`, `весна 1901 (ходы)`). Letters, pictures and the archive all name them so.

use crate::diplomacy::turn::{PhaseKind, Season, Turn};
use crate::msg;
use crate::report::Message;

use super::Variant;

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
