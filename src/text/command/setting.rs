//! The settings `SET` lines ask for, typed (`Setting`), and each written back as the judge
//! echoes it (`render`), reading back to the same setting.

use super::super::date::WrittenDate;
use super::unsupported::Unsupported;
use crate::lang::Lang;

/// A setting, as `SET ...` asks for it. Dates are `yyyy-mm-dd` (a day that exists), powers
/// lower-case as written (a name or letters: which power it is depends on the variant, so the
/// judge decides), addresses as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `SET ADDRESS [a@b.c] [password]`: move this player's account (and its mail) to the
    /// address; with none, to the sender's address. The password is the account's, needed
    /// unless the letter signed on to one of the account's seats first.
    Address {
        address: Option<String>,
        password: Option<String>,
    },
    /// `SET WAIT` (true), `SET NOWAIT` / `SET NO WAIT` (false): hold early processing.
    Wait(bool),
    /// `SET ABSENCE from [TO to]`; `HOLIDAY` and `VACATION` are synonyms. The dates in
    /// any form the judge reads (`3 Feb`, `Feb 3 2027`, `2027-02-03`, a date it printed), in
    /// the game's time zone unless they name their own; a time names the day it falls on.
    Absence {
        // Boxed: a written date is large, and most settings are small.
        from: Box<WrittenDate>,
        to: Option<Box<WrittenDate>>,
    },
    /// `SET NOABSENCE`, `SET NO ABSENCE` (or `HOLIDAY`, `VACATION`).
    NoAbsence,
    /// `SET DRAW [powers...]`: the powers lower-case (commas split them too); empty means a
    /// draw of all survivors.
    Draw(Vec<String>),
    /// `SET NODRAW`, `SET NO DRAW`.
    NoDraw,
    /// `SET CONCEDE power`, `SET CONC power`.
    Concede(String),
    /// `SET NOCONCEDE`, `SET NO CONC`.
    NoConcede,
    /// `SET PREFERENCE EFG` (power letters) or `SET PREFERENCE *` (any power), upper-case.
    Preference(String),
    /// `SET LANGUAGE en|ru` (`english`, `russian`, `русский`, `английский` too): `"en"` or `"ru"`.
    Language(Lang),
    /// `SET GAME LANGUAGE en|ru` (the same words as `SET LANGUAGE`): the master's choice of the
    /// game's language, for members who chose none and for its archive.
    GameLanguage(Lang),
    /// `SET MAP ON|OFF`, `SET NO MAP`: whether the player's results letters carry the picture
    /// of the board.
    Map(bool),
    /// `SET GAME MAP ON|OFF`: whether the game's results letters carry the picture at all.
    GameMap(bool),
    /// `SET MOVE|RETREAT|ADJUST [CLOCK hh:mm] [MIN h] [NEXT h] [GRACE h] [DELAY h] [DAYS
    /// -MTWTF-]`, at least one option, in any order. `clock` is `hh:mm` (njudge's minutes past
    /// midnight, `1410`, are read too, and `-1` is any time: `clock` empty); hours may have
    /// decimals (`48.0`, `0.5`): NEXT, MIN and GRACE are rounded to whole hours, DELAY kept in
    /// minutes; `days` seven places from Sunday, each `-` or that day's letter (`SMTWTFS`),
    /// upper-case.
    Deadline {
        kind: PhaseSetting,
        clock: Option<String>,
        min_hours: Option<u32>,
        /// `NEXT`: hours from processing to the next deadline.
        hours: Option<u32>,
        grace_hours: Option<u32>,
        /// `DELAY`: minutes from the last orders to early processing.
        delay_minutes: Option<u32>,
        days: Option<String>,
    },
    /// `SET ZONE Europe/Moscow`: the name as written; the judge checks it.
    Zone(String),
    /// `SET WHITE`, `SET GREY`, `SET NO PRESS`; `SET WHITE/GREY` is white, `SET GREY/WHITE`
    /// grey (each the default of the two kinds; GRAY is read as GREY).
    Press(PressMode),
    /// `SET PARTIAL` (true), `SET NO PARTIAL` (false): press to some powers only.
    Partial(bool),
    /// `SET OBSERVER ANY|WHITE|NO` (`OBSERVERS`, `NONE` too): the press observers may send.
    ObserverPress(ObserverPress),
    /// `SET ALL PRESS` (true: the master gets a copy of partial press), `SET NORMAL PRESS`.
    MasterSeesPress(bool),
    /// `SET NMR`, `SET CD` (true: civil disorder after grace); `SET NO NMR`, `SET NO CD`
    /// (false: wait for a replacement).
    CivilDisorder(bool),
    /// `SET PUBLIC`, `SET LIST`, `SET LISTED` (true); `SET PRIVATE`, `SET NO LIST`,
    /// `SET UNLISTED` (false).
    Public(bool),
    /// `SET ALLOW [PLAYER] a@b.c`.
    Allow(String),
    /// `SET DENY [PLAYER] a@b.c`.
    Deny(String),
    /// `SET DIAS` (true: draws include all survivors), `SET NO DIAS` (smaller draws allowed).
    Dias(bool),
    /// `SET MODERATED` (true), `SET UNMODERATED` (false).
    Moderated(bool),
    /// `SET MAX ABSENCE days`, 0 to 31 (njudge's limit; 0: no absences).
    MaxAbsence(u32),
    /// `SET SHOW ADDRESS [code]`: other players may see this player's address beside the
    /// name. Without the code the judge mails one to the address; with it, it is done.
    /// The code is letters and digits, lower-case.
    ShowAddress(Option<String>),
    /// `SET HIDE ADDRESS`: only the masters of a game see this player's address.
    HideAddress,
    /// `SET ANONYMOUS` (true: the players' identities stay hidden until the game ends),
    /// `SET NOT ANONYMOUS`, `SET NO ANONYMOUS` (false).
    Anonymous(bool),
    /// `SET DEADLINE date`: the current phase's deadline (njudge's date forms, read in the
    /// game's time zone by the judge).
    DeadlineAt(WrittenDate),
    /// `SET GRACE date`: when the current phase's grace ends.
    GraceAt(WrittenDate),
    /// `SET START date`: the current phase is not processed before then.
    StartAt(WrittenDate),
    /// `SET DELAY h`: hours (decimals allowed, kept as minutes) from the last orders to early
    /// processing, for every kind of phase (`SET MOVE DELAY h` for one kind).
    Delay(u32),
    /// `SET MANUAL START` (true: the game starts only by FORCE BEGIN), `SET AUTO START`,
    /// `SET NO MANUAL START` (false).
    ManualStart(bool),
    /// `SET MANUAL PROCESS` (true: phases are processed only by PROCESS), `SET AUTO PROCESS`,
    /// `SET NO MANUAL PROCESS` (false).
    ManualProcess(bool),
    /// `SET QUIET` (true: takeovers, resignations and abandoned powers are not announced to
    /// the game), `SET NO QUIET`.
    Quiet(bool),
    /// `SET LATE PRESS` (true: late powers may press the master only), `SET NO LATE PRESS`.
    LatePress(bool),
    /// `SET MINOR PRESS` (true: press in retreat and adjustment phases too), `SET NO MINOR
    /// PRESS` (only to and from the master then).
    MinorPress(bool),
    /// `SET MUST ORDER` (true: a power presses only once its orders are in), `SET NO MUST
    /// ORDER`.
    MustOrder(bool),
    /// `SET GRACE PRESS` (true: no press between players while a power is late), `SET NO
    /// GRACE PRESS`.
    GracePress(bool),
    /// `SET BROADCAST`, `SET NORMAL BROADCAST` (true), `SET NO BROADCAST`, `SET NO NORMAL
    /// BROADCAST` (false): whether an observer or master gets the game's broadcast press.
    Broadcast(bool),
    /// `SET CENTERS n` (CENTRES, CENTER, CENTRE): centres (or supply) needed to win this game.
    Centres(u32),
    /// `SET VARIANT name`: the game's variant, before it starts.
    Variant(String),
    /// `SET STRICT WAIT` (true: only powers that owe orders may SET WAIT), `SET NO STRICT WAIT`.
    StrictWait(bool),
    /// `SET LATE COUNT` (true: late notices count each power's late phases), `SET NO LATE
    /// COUNT`.
    LateCount(bool),
    /// `SET CONCESSIONS` (true), `SET NO CONCESSIONS` (false): whether SET CONCEDE may end the
    /// game.
    Concessions(bool),
    /// `SET POSTAL PRESS` (true), `SET NO POSTAL PRESS` (false): whether POSTAL PRESS is taken.
    PostalPress(bool),
    /// A setting of the classic judges this judge does not offer, as written (`SET TOUCH
    /// PRESS`): answered with why and what to use instead.
    Unsupported {
        phrase: String,
        what: Unsupported,
        /// What it asks for is how this judge works anyway (`SET NO FAKE`).
        already: bool,
    },
}

/// Which phases a deadline setting is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseSetting {
    /// `SET MOVE`, `SET MOVEMENT`.
    Movement,
    /// `SET RETREAT`, `SET RETREATS`.
    Retreat,
    /// `SET ADJUST`, `SET ADJUSTMENT`, `SET BUILD`, `SET BUILDS`.
    Adjustment,
}

/// The press a game allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PressMode {
    /// The sender is shown.
    White,
    /// The sender may be hidden.
    Grey,
    /// No press between players (press to and from the master is always allowed).
    None,
}

/// The press observers may send (njudge's `SET OBSERVER ANY|WHITE|NO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObserverPress {
    /// `ANY`: white or grey.
    Any,
    /// `WHITE`: white only.
    White,
    /// `NO`, `NONE`: none.
    None,
}

/// The word `render` writes for a deadline setting's phases.
pub(super) fn phase_word(kind: PhaseSetting) -> &'static str {
    match kind {
        PhaseSetting::Movement => "MOVE",
        PhaseSetting::Retreat => "RETREAT",
        PhaseSetting::Adjustment => "ADJUST",
    }
}

/// A setting as the judge echoes it, `SET` included, reading back to the same setting:
/// `SET WAIT`, `SET ABSENCE 2027-02-01 TO 2027-02-10`, `SET MOVE CLOCK 12:00 NEXT 48 GRACE 24
/// DAYS -MTWTF-`, `SET NO PRESS`, `SET ALLOW PLAYER ann@example.org`.
pub fn render(setting: &Setting) -> String {
    let yes_no = |on: bool, yes: &str, no: &str| format!("SET {}", if on { yes } else { no });
    match setting {
        Setting::Address { address, password } => {
            let mut text = "SET ADDRESS".to_string();
            if let Some(address) = address {
                text.push_str(&format!(" {address}"));
            }
            if password.is_some() {
                text.push_str(&format!(" {}", super::MASK));
            }
            text
        }
        Setting::Wait(on) => yes_no(*on, "WAIT", "NOWAIT"),
        Setting::Absence { from, to: None } => format!("SET ABSENCE {from}"),
        Setting::Absence { from, to: Some(to) } => format!("SET ABSENCE {from} TO {to}"),
        Setting::NoAbsence => "SET NOABSENCE".into(),
        Setting::Draw(powers) if powers.is_empty() => "SET DRAW".into(),
        Setting::Draw(powers) => format!("SET DRAW {}", powers.join(" ")),
        Setting::NoDraw => "SET NODRAW".into(),
        Setting::Concede(power) => format!("SET CONCEDE {power}"),
        Setting::NoConcede => "SET NOCONCEDE".into(),
        Setting::Preference(list) => format!("SET PREFERENCE {list}"),
        Setting::Language(code) => format!("SET LANGUAGE {code}"),
        Setting::GameLanguage(code) => format!("SET GAME LANGUAGE {code}"),
        Setting::Map(on) => format!("SET MAP {}", if *on { "ON" } else { "OFF" }),
        Setting::GameMap(on) => format!("SET GAME MAP {}", if *on { "ON" } else { "OFF" }),
        Setting::Deadline {
            kind,
            clock,
            min_hours,
            hours,
            grace_hours,
            delay_minutes,
            days,
        } => {
            let mut text = format!("SET {}", phase_word(*kind));
            match clock.as_deref() {
                Some("") => text.push_str(" CLOCK -1"),
                Some(clock) => text.push_str(&format!(" CLOCK {clock}")),
                None => {}
            }
            if let Some(min) = min_hours {
                text.push_str(&format!(" MIN {min}"));
            }
            if let Some(next) = hours {
                text.push_str(&format!(" NEXT {next}"));
            }
            if let Some(grace) = grace_hours {
                text.push_str(&format!(" GRACE {grace}"));
            }
            if let Some(delay) = delay_minutes {
                text.push_str(&format!(" DELAY {}", hours_text(*delay)));
            }
            if let Some(days) = days {
                text.push_str(&format!(" DAYS {days}"));
            }
            text
        }
        Setting::Zone(zone) => format!("SET ZONE {zone}"),
        Setting::Press(PressMode::White) => "SET WHITE".into(),
        Setting::Press(PressMode::Grey) => "SET GREY".into(),
        Setting::Press(PressMode::None) => "SET NO PRESS".into(),
        Setting::Partial(on) => yes_no(*on, "PARTIAL", "NO PARTIAL"),
        Setting::ObserverPress(ObserverPress::Any) => "SET OBSERVER ANY".into(),
        Setting::ObserverPress(ObserverPress::White) => "SET OBSERVER WHITE".into(),
        Setting::ObserverPress(ObserverPress::None) => "SET OBSERVER NO".into(),
        Setting::MasterSeesPress(on) => yes_no(*on, "ALL PRESS", "NORMAL PRESS"),
        Setting::CivilDisorder(on) => yes_no(*on, "NMR", "NO NMR"),
        Setting::Public(on) => yes_no(*on, "PUBLIC", "PRIVATE"),
        Setting::Allow(address) => format!("SET ALLOW PLAYER {address}"),
        Setting::Deny(address) => format!("SET DENY PLAYER {address}"),
        Setting::Dias(on) => yes_no(*on, "DIAS", "NO DIAS"),
        Setting::Moderated(on) => yes_no(*on, "MODERATED", "UNMODERATED"),
        Setting::MaxAbsence(days) => format!("SET MAX ABSENCE {days}"),
        Setting::ShowAddress(None) => "SET SHOW ADDRESS".into(),
        Setting::ShowAddress(Some(code)) => format!("SET SHOW ADDRESS {code}"),
        Setting::HideAddress => "SET HIDE ADDRESS".into(),
        Setting::Anonymous(on) => yes_no(*on, "ANONYMOUS", "NOT ANONYMOUS"),
        Setting::DeadlineAt(date) => format!("SET DEADLINE {date}"),
        Setting::GraceAt(date) => format!("SET GRACE {date}"),
        Setting::StartAt(date) => format!("SET START {date}"),
        Setting::Delay(minutes) => format!("SET DELAY {}", hours_text(*minutes)),
        Setting::ManualStart(on) => yes_no(*on, "MANUAL START", "AUTO START"),
        Setting::ManualProcess(on) => yes_no(*on, "MANUAL PROCESS", "AUTO PROCESS"),
        Setting::Quiet(on) => yes_no(*on, "QUIET", "NO QUIET"),
        Setting::LatePress(on) => yes_no(*on, "LATE PRESS", "NO LATE PRESS"),
        Setting::MinorPress(on) => yes_no(*on, "MINOR PRESS", "NO MINOR PRESS"),
        Setting::MustOrder(on) => yes_no(*on, "MUST ORDER", "NO MUST ORDER"),
        Setting::GracePress(on) => yes_no(*on, "GRACE PRESS", "NO GRACE PRESS"),
        Setting::Broadcast(on) => yes_no(*on, "BROADCAST", "NO BROADCAST"),
        Setting::Centres(n) => format!("SET CENTERS {n}"),
        Setting::Variant(variant) => format!("SET VARIANT {variant}"),
        Setting::StrictWait(on) => yes_no(*on, "STRICT WAIT", "NO STRICT WAIT"),
        Setting::LateCount(on) => yes_no(*on, "LATE COUNT", "NO LATE COUNT"),
        Setting::Concessions(on) => yes_no(*on, "CONCESSIONS", "NO CONCESSIONS"),
        Setting::PostalPress(on) => yes_no(*on, "POSTAL PRESS", "NO POSTAL PRESS"),
        Setting::Unsupported { phrase, .. } => phrase.clone(),
    }
}

/// Minutes as hours the way SET reads them back: `0.5`, `1`, `1.25`.
fn hours_text(minutes: u32) -> String {
    let text = format!("{:.2}", f64::from(minutes) / 60.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Setting {
    /// Whether a player sets this for themselves (the rest are the master's).
    pub fn is_for_players(&self) -> bool {
        matches!(
            self,
            Setting::Address { .. }
                | Setting::Wait(_)
                | Setting::Absence { .. }
                | Setting::NoAbsence
                | Setting::Draw(_)
                | Setting::NoDraw
                | Setting::Concede(_)
                | Setting::NoConcede
                | Setting::Preference(_)
                | Setting::Language(_)
                | Setting::Map(_)
                | Setting::ShowAddress(_)
                | Setting::HideAddress
                | Setting::Broadcast(_)
        )
    }
}
