//! The phrases of `SET` lines: each setting this judge offers, spelt with or without the
//! spaces between its words (`SET NOWAIT`, `SET NO WAIT`, `SETNOWAIT`), the longest phrase a
//! line spells winning; and the words of the classic judges' settings, to name an unknown one.

use super::line::{self, Word};
use super::setting::{PhaseSetting, PressMode, Setting};
use super::unsupported;

/// What a setting's phrase leads to: a setting that takes nothing, or what reads its words.
#[derive(Clone, Debug)]
pub(super) enum Name {
    Flag(Setting),
    Address,
    Absence,
    Draw,
    Concede,
    Preference,
    Language,
    GameLanguage,
    Map,
    GameMap,
    ShowAddress,
    Deadline(PhaseSetting),
    Zone,
    Observer,
    Allow,
    Deny,
    MaxAbsence,
    DeadlineAt,
    GraceAt,
    StartAt,
    Delay,
    Centres,
    Variant,
}

use Name::Flag;

/// Each setting's phrases, `SET` included (spaces between the words optional). Where one
/// phrase begins another (`SET GRACE`, `SET GRACE PRESS`), the longer one the line spells wins.
const SETTINGS: &[(&[&str], Name)] = &[
    (&["SET", "ADDRESS"], Name::Address),
    (&["SET", "WAIT"], Flag(Setting::Wait(true))),
    (&["SET", "NO", "WAIT"], Flag(Setting::Wait(false))),
    (&["SET", "ABSENCE"], Name::Absence),
    (&["SET", "HOLIDAY"], Name::Absence),
    (&["SET", "HOLIDAYS"], Name::Absence),
    (&["SET", "VACATION"], Name::Absence),
    (&["SET", "VACATIONS"], Name::Absence),
    (&["SET", "NO", "ABSENCE"], Flag(Setting::NoAbsence)),
    (&["SET", "NO", "HOLIDAY"], Flag(Setting::NoAbsence)),
    (&["SET", "NO", "HOLIDAYS"], Flag(Setting::NoAbsence)),
    (&["SET", "NO", "VACATION"], Flag(Setting::NoAbsence)),
    (&["SET", "NO", "VACATIONS"], Flag(Setting::NoAbsence)),
    (&["SET", "DRAW"], Name::Draw),
    (&["SET", "NO", "DRAW"], Flag(Setting::NoDraw)),
    (&["SET", "CONCEDE"], Name::Concede),
    (&["SET", "CONC"], Name::Concede),
    (&["SET", "NO", "CONCEDE"], Flag(Setting::NoConcede)),
    (&["SET", "NO", "CONC"], Flag(Setting::NoConcede)),
    (&["SET", "PREFERENCE"], Name::Preference),
    (&["SET", "LANGUAGE"], Name::Language),
    (&["SET", "GAME", "LANGUAGE"], Name::GameLanguage),
    (&["SET", "MAP"], Name::Map),
    (&["SET", "NO", "MAP"], Flag(Setting::Map(false))),
    (&["SET", "GAME", "MAP"], Name::GameMap),
    (&["SET", "MOVE"], Name::Deadline(PhaseSetting::Movement)),
    (&["SET", "MOVES"], Name::Deadline(PhaseSetting::Movement)),
    (&["SET", "MOVEMENT"], Name::Deadline(PhaseSetting::Movement)),
    (&["SET", "RETREAT"], Name::Deadline(PhaseSetting::Retreat)),
    (&["SET", "RETREATS"], Name::Deadline(PhaseSetting::Retreat)),
    (&["SET", "ADJUST"], Name::Deadline(PhaseSetting::Adjustment)),
    (
        &["SET", "ADJUSTMENT"],
        Name::Deadline(PhaseSetting::Adjustment),
    ),
    (
        &["SET", "ADJUSTMENTS"],
        Name::Deadline(PhaseSetting::Adjustment),
    ),
    (&["SET", "BUILD"], Name::Deadline(PhaseSetting::Adjustment)),
    (&["SET", "BUILDS"], Name::Deadline(PhaseSetting::Adjustment)),
    (&["SET", "ZONE"], Name::Zone),
    (&["SET", "WHITE"], Flag(Setting::Press(PressMode::White))),
    (
        &["SET", "WHITE", "PRESS"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (
        &["SET", "WHITE/GREY"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (
        &["SET", "WHITE/GREY", "PRESS"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (
        &["SET", "WHITE/GRAY"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (
        &["SET", "NO", "GREY"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (
        &["SET", "NO", "GREY", "PRESS"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (
        &["SET", "NO", "GRAY"],
        Flag(Setting::Press(PressMode::White)),
    ),
    (&["SET", "GREY"], Flag(Setting::Press(PressMode::Grey))),
    (
        &["SET", "GREY", "PRESS"],
        Flag(Setting::Press(PressMode::Grey)),
    ),
    (&["SET", "GRAY"], Flag(Setting::Press(PressMode::Grey))),
    (
        &["SET", "GREY/WHITE"],
        Flag(Setting::Press(PressMode::Grey)),
    ),
    (
        &["SET", "GREY/WHITE", "PRESS"],
        Flag(Setting::Press(PressMode::Grey)),
    ),
    (
        &["SET", "GRAY/WHITE"],
        Flag(Setting::Press(PressMode::Grey)),
    ),
    (
        &["SET", "NO", "WHITE"],
        Flag(Setting::Press(PressMode::Grey)),
    ),
    (
        &["SET", "NO", "WHITE", "PRESS"],
        Flag(Setting::Press(PressMode::Grey)),
    ),
    (
        &["SET", "NO", "PRESS"],
        Flag(Setting::Press(PressMode::None)),
    ),
    (
        &["SET", "PRESS", "NONE"],
        Flag(Setting::Press(PressMode::None)),
    ),
    (&["SET", "NONE"], Flag(Setting::Press(PressMode::None))),
    (&["SET", "PARTIAL"], Flag(Setting::Partial(true))),
    (&["SET", "PARTIAL", "PRESS"], Flag(Setting::Partial(true))),
    (&["SET", "NO", "PARTIAL"], Flag(Setting::Partial(false))),
    (
        &["SET", "NO", "PARTIAL", "PRESS"],
        Flag(Setting::Partial(false)),
    ),
    (&["SET", "OBSERVER"], Name::Observer),
    (&["SET", "OBSERVERS"], Name::Observer),
    (
        &["SET", "ALL", "PRESS"],
        Flag(Setting::MasterSeesPress(true)),
    ),
    (
        &["SET", "NORMAL", "PRESS"],
        Flag(Setting::MasterSeesPress(false)),
    ),
    (&["SET", "NMR"], Flag(Setting::CivilDisorder(true))),
    (&["SET", "CD"], Flag(Setting::CivilDisorder(true))),
    (&["SET", "NO", "NMR"], Flag(Setting::CivilDisorder(false))),
    (&["SET", "NO", "CD"], Flag(Setting::CivilDisorder(false))),
    (&["SET", "PUBLIC"], Flag(Setting::Public(true))),
    (&["SET", "LIST"], Flag(Setting::Public(true))),
    (&["SET", "LISTED"], Flag(Setting::Public(true))),
    (&["SET", "PRIVATE"], Flag(Setting::Public(false))),
    (&["SET", "NO", "LIST"], Flag(Setting::Public(false))),
    (&["SET", "UNLIST"], Flag(Setting::Public(false))),
    (&["SET", "UNLISTED"], Flag(Setting::Public(false))),
    (&["SET", "ALLOW"], Name::Allow),
    (&["SET", "DENY"], Name::Deny),
    (&["SET", "DIAS"], Flag(Setting::Dias(true))),
    (&["SET", "NO", "DIAS"], Flag(Setting::Dias(false))),
    (&["SET", "MODERATE"], Flag(Setting::Moderated(true))),
    (&["SET", "MODERATED"], Flag(Setting::Moderated(true))),
    (&["SET", "UNMODERATE"], Flag(Setting::Moderated(false))),
    (&["SET", "UNMODERATED"], Flag(Setting::Moderated(false))),
    (&["SET", "MAX", "ABSENCE"], Name::MaxAbsence),
    (&["SET", "SHOW", "ADDRESS"], Name::ShowAddress),
    (&["SET", "HIDE", "ADDRESS"], Flag(Setting::HideAddress)),
    (&["SET", "ANONYMOUS"], Flag(Setting::Anonymous(true))),
    (
        &["SET", "NOT", "ANONYMOUS"],
        Flag(Setting::Anonymous(false)),
    ),
    (&["SET", "NO", "ANONYMOUS"], Flag(Setting::Anonymous(false))),
    (&["SET", "DEADLINE"], Name::DeadlineAt),
    (&["SET", "GRACE"], Name::GraceAt),
    (&["SET", "START"], Name::StartAt),
    (&["SET", "DELAY"], Name::Delay),
    (
        &["SET", "MANUAL", "START"],
        Flag(Setting::ManualStart(true)),
    ),
    (
        &["SET", "NO", "MANUAL", "START"],
        Flag(Setting::ManualStart(false)),
    ),
    (&["SET", "AUTO", "START"], Flag(Setting::ManualStart(false))),
    (
        &["SET", "NO", "AUTO", "START"],
        Flag(Setting::ManualStart(true)),
    ),
    (
        &["SET", "MANUAL", "PROCESS"],
        Flag(Setting::ManualProcess(true)),
    ),
    (
        &["SET", "NO", "MANUAL", "PROCESS"],
        Flag(Setting::ManualProcess(false)),
    ),
    (
        &["SET", "AUTO", "PROCESS"],
        Flag(Setting::ManualProcess(false)),
    ),
    (
        &["SET", "AUTO", "PROC"],
        Flag(Setting::ManualProcess(false)),
    ),
    (
        &["SET", "NO", "AUTO", "PROCESS"],
        Flag(Setting::ManualProcess(true)),
    ),
    (
        &["SET", "NO", "AUTO", "PROC"],
        Flag(Setting::ManualProcess(true)),
    ),
    (&["SET", "QUIET"], Flag(Setting::Quiet(true))),
    (&["SET", "NO", "QUIET"], Flag(Setting::Quiet(false))),
    (&["SET", "LATE", "PRESS"], Flag(Setting::LatePress(true))),
    (
        &["SET", "NO", "LATE", "PRESS"],
        Flag(Setting::LatePress(false)),
    ),
    (&["SET", "MINOR", "PRESS"], Flag(Setting::MinorPress(true))),
    (
        &["SET", "NO", "MINOR", "PRESS"],
        Flag(Setting::MinorPress(false)),
    ),
    (&["SET", "MUST", "ORDER"], Flag(Setting::MustOrder(true))),
    (
        &["SET", "NO", "MUST", "ORDER"],
        Flag(Setting::MustOrder(false)),
    ),
    (&["SET", "GRACE", "PRESS"], Flag(Setting::GracePress(true))),
    (
        &["SET", "NO", "GRACE", "PRESS"],
        Flag(Setting::GracePress(false)),
    ),
    (&["SET", "BROADCAST"], Flag(Setting::Broadcast(true))),
    (
        &["SET", "BROADCAST", "PRESS"],
        Flag(Setting::Broadcast(true)),
    ),
    (
        &["SET", "NORMAL", "BROADCAST"],
        Flag(Setting::Broadcast(true)),
    ),
    (&["SET", "NO", "BROADCAST"], Flag(Setting::Broadcast(false))),
    (
        &["SET", "NO", "BROADCAST", "PRESS"],
        Flag(Setting::Broadcast(false)),
    ),
    (
        &["SET", "NO", "NORMAL", "BROADCAST"],
        Flag(Setting::Broadcast(false)),
    ),
    (&["SET", "CENTERS"], Name::Centres),
    (&["SET", "CENTRES"], Name::Centres),
    (&["SET", "CENTER"], Name::Centres),
    (&["SET", "CENTRE"], Name::Centres),
    (&["SET", "VARIANT"], Name::Variant),
    (&["SET", "STRICT", "WAIT"], Flag(Setting::StrictWait(true))),
    (
        &["SET", "NO", "STRICT", "WAIT"],
        Flag(Setting::StrictWait(false)),
    ),
    (&["SET", "LATE", "COUNT"], Flag(Setting::LateCount(true))),
    (
        &["SET", "NO", "LATE", "COUNT"],
        Flag(Setting::LateCount(false)),
    ),
    (&["SET", "CONCESSIONS"], Flag(Setting::Concessions(true))),
    (
        &["SET", "NO", "CONCESSIONS"],
        Flag(Setting::Concessions(false)),
    ),
    (
        &["SET", "POSTAL", "PRESS"],
        Flag(Setting::PostalPress(true)),
    ),
    (
        &["SET", "NO", "POSTAL", "PRESS"],
        Flag(Setting::PostalPress(false)),
    ),
];

/// The setting the line's words spell, and how many words its phrase takes: the longest
/// phrase spelt, and none where a classic setting this judge does not offer is longer
/// (`SET PARTIAL FAKES` is not `SET PARTIAL`).
pub(super) fn find(words: &[Word]) -> Option<(Name, usize)> {
    if !line::begins_with_set(words) {
        return None;
    }
    let (name, used, length) = SETTINGS
        .iter()
        .filter_map(|(phrase, name)| Some((name, line::spells(words, phrase)?, phrase.len())))
        .max_by_key(|(_, _, length)| *length)?;
    if unsupported::setting_length(words) > length {
        return None;
    }
    Some((name.clone(), used))
}

/// Whether a line starts with a setting's phrase, `SET` glued to it (`SETNOWAIT`), one
/// this judge offers or one of the classic judges it answers.
pub(super) fn starts_setting(words: &[Word]) -> bool {
    line::begins_with_set(words) && find(words).is_some() || unsupported::setting(words).is_some()
}

/// Words of the classic judges' settings (njudge's `data/index`, DPjudge), shown when they
/// follow an unknown setting's first word.
pub(super) const SETTING_WORDS: &[&str] = &[
    "NO",
    "NOT",
    "MINOR",
    "PRESS",
    "LATE",
    "QUIET",
    "MUST",
    "ORDER",
    "BROADCAST",
    "CENTERS",
    "CENTRES",
    "CENTER",
    "CENTRE",
    "STRICT",
    "WAIT",
    "MANUAL",
    "START",
    "PROCESS",
    "DELAY",
    "GRACE",
    "DEADLINE",
    "VARIANT",
    "ALL",
    "ANY",
    "DISBAND",
    "LIST",
    "RESUME",
    "PROXY",
    "WATCH",
    "OBSERVER",
    "OBSERVERS",
    "FAKE",
    "DEFAULT",
    "PARTIAL",
    "WHITE",
    "GREY",
    "GRAY",
    "DRAW",
    "CONCESSIONS",
    "SECRET",
    "BUILDS",
    "TRANSFORM",
    "PUBLIC",
    "PRIVATE",
    "COMMENT",
    "NOLIST",
    "NONMR",
    "NMR",
    "CD",
    "RELIABILITY",
    "DEDICATION",
    "LEVEL",
    "RATED",
    "UNRATED",
    "NOVICE",
    "DUPLEX",
    "BLIND",
    "GUNBOAT",
    "HONG",
    "KONG",
    "SUMMER",
    "TOUCH",
    "PLAYERS",
    "REPLACE",
];
