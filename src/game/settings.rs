//! A game's settings (set by its master with SET) and each member's wishes (SET WAIT,
//! ABSENCE, DRAW, LANGUAGE...), stored as JSON beside the game; and deadlines computed from
//! the settings in the game's time zone.

use chrono::{DateTime, Datelike, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::lang::Lang;

/// How long a phase of one kind lasts and when its deadline may fall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PhaseTiming {
    /// Hours from the start of the phase to its deadline (SET MOVE NEXT h).
    pub hours: u32,
    /// Hours at least, however the clock and days move the deadline (SET MOVE MIN h).
    pub min_hours: u32,
    /// Time of day the deadline falls at, in the game's zone, `hh:mm` (SET MOVE CLOCK).
    pub clock: Option<String>,
    /// Hours after the deadline during which late orders are still taken (SET MOVE GRACE h),
    /// late notices going out every day; then the game's NMR policy.
    pub grace_hours: u32,
    /// Minutes from the last orders to processing before the deadline (SET MOVE DELAY h), so
    /// a typo can still be fixed; 0: at once.
    pub delay_minutes: u32,
    /// Days a deadline may fall on, `SMTWTFS` with `-` for a day it may not (SET MOVE DAYS).
    pub days: String,
}

impl PhaseTiming {
    pub fn new(hours: u32) -> PhaseTiming {
        PhaseTiming {
            hours,
            min_hours: 0,
            clock: None,
            grace_hours: 0,
            delay_minutes: 0,
            days: "SMTWTFS".into(),
        }
    }
}

impl Default for PhaseTiming {
    fn default() -> Self {
        PhaseTiming::new(48)
    }
}

/// Who may send press, and how it is signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PressKind {
    /// Signed with the sender's power.
    White,
    /// Anonymous.
    Grey,
    /// No press at all.
    None,
}

/// A game's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameSettings {
    /// In a moderated game only masters change the game's settings; in an unmoderated one
    /// players may also change its pace and press, PAUSE, RESUME and EXTEND (announced to
    /// all), and end it by all sending TERMINATE. The other master commands are for masters
    /// in every game.
    pub moderated: bool,
    /// Player ids of the masters (the creator of a moderated game, and those promoted).
    pub masters: Vec<i64>,
    pub movement: PhaseTiming,
    pub retreat: PhaseTiming,
    pub adjustment: PhaseTiming,
    pub press: PressKind,
    /// Press to some powers only (PRESS TO ...) is allowed.
    pub partial_press: bool,
    /// What observers may send: `white`, `grey` or `none`.
    pub observer_press: PressKind,
    /// The masters get a copy of all press, partial press included.
    pub master_sees_press: bool,
    /// A power silent past the grace falls into civil disorder (its units hold); otherwise
    /// the game waits and the power is offered for takeover.
    pub civil_disorder: bool,
    /// Seen by everyone; a private game (`SET PRIVATE`) is seen only by its members and
    /// the addresses it allows (`judge::secrecy`).
    pub public: bool,
    /// An anonymous (gunboat) game: who plays it stays hidden from all but its masters
    /// until it ends; its press is grey or none.
    pub anonymous: bool,
    /// When not empty, only these addresses may join.
    pub allow: Vec<String>,
    /// These addresses may not join.
    pub deny: Vec<String>,
    /// A draw includes all survivors (DIAS); otherwise smaller draws may be proposed.
    pub dias: bool,
    /// Deadlines stopped (PAUSE).
    pub paused: bool,
    /// Longest absence a player may declare, in days.
    pub max_absence_days: u32,
    /// The language of letters to members who chose none: `en` or `ru`.
    pub language: Lang,
    /// Results letters carry the picture of the board (`SET GAME MAP ON|OFF`).
    pub map: bool,
    /// The phase whose late notices went out (so they go once a day).
    pub late_noticed: Option<i64>,
    /// When the late notices of that phase last went out.
    pub late_noticed_at: Option<DateTime<Utc>>,
    /// The phase whose silent powers were offered for takeover (so the offer goes once).
    pub offered: Option<i64>,
    /// The game starts only when a master sends FORCE BEGIN (SET MANUAL START).
    pub manual_start: bool,
    /// Phases are processed only when a master sends PROCESS (SET MANUAL PROCESS).
    pub manual_process: bool,
    /// Takeovers, resignations and abandoned powers are not announced (SET QUIET).
    pub quiet: bool,
    /// A late power may send press (SET LATE PRESS); otherwise not until its orders are in.
    pub late_press: bool,
    /// Press in retreat and adjustment phases (SET MINOR PRESS).
    pub minor_press: bool,
    /// A power presses only once its orders are in (SET MUST ORDER).
    pub must_order: bool,
    /// Press between players while a power is late (SET GRACE PRESS).
    pub grace_press: bool,
    /// Only powers that owe orders may SET WAIT (SET STRICT WAIT).
    pub strict_wait: bool,
    /// Late notices say how often each power was late (SET LATE COUNT).
    pub late_count: bool,
    /// The phases each power was late, by power id; a new player starts again at none.
    pub late_counts: std::collections::BTreeMap<String, u32>,
    /// SET CONCEDE may end the game (SET CONCESSIONS).
    pub concessions: bool,
    /// POSTAL PRESS is taken (SET POSTAL PRESS).
    pub postal_press: bool,
    /// The centres (or supply) that win this game, instead of the variant's (SET CENTERS).
    pub centres: Option<u32>,
    /// The grace of phase `.0` ends at `.1` instead of GRACE hours after its deadline (SET
    /// GRACE date).
    pub grace_until: Option<(i64, DateTime<Utc>)>,
    /// Phase `.0` is not processed before `.1` (SET START date).
    pub start_at: Option<(i64, DateTime<Utc>)>,
    /// Phase `.0` waited past its deadline for a letter held for a locked seat, until `.1`
    /// at most (`judge::held`: once a phase, `limits.held_wait_hours`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held_wait: Option<(i64, DateTime<Utc>)>,
    /// How the game ended, and when (none while it runs, and for games that ended before
    /// the judge kept it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
}

/// How a game ended, and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub how: EndedBy,
    pub at: DateTime<Utc>,
}

/// What ended a game; powers by their names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum EndedBy {
    Victory { winner: String },
    Draw { powers: Vec<String> },
    Concession { to: String },
    Terminated,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            moderated: false,
            masters: Vec::new(),
            movement: PhaseTiming::new(48),
            retreat: PhaseTiming::new(24),
            adjustment: PhaseTiming::new(24),
            press: PressKind::White,
            partial_press: true,
            observer_press: PressKind::None,
            master_sees_press: false,
            civil_disorder: true,
            public: true,
            anonymous: false,
            allow: Vec::new(),
            deny: Vec::new(),
            dias: true,
            paused: false,
            max_absence_days: 14,
            language: Lang::En,
            map: true,
            late_noticed: None,
            late_noticed_at: None,
            held_wait: None,
            ending: None,
            offered: None,
            manual_start: false,
            manual_process: false,
            quiet: false,
            late_press: true,
            minor_press: true,
            must_order: false,
            grace_press: true,
            strict_wait: false,
            late_count: false,
            late_counts: std::collections::BTreeMap::new(),
            concessions: true,
            postal_press: true,
            centres: None,
            grace_until: None,
            start_at: None,
        }
    }
}

impl GameSettings {
    /// Settings read from stored JSON; bad JSON gives the defaults rather than stopping a game.
    pub fn from_json(text: &str) -> GameSettings {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("settings always serialise")
    }

    /// Settings with these phase lengths and neither grace nor delay (Here I Stand's windows).
    pub fn with_hours(movement: u32, retreat: u32, adjustment: u32) -> GameSettings {
        GameSettings {
            movement: PhaseTiming::new(movement),
            retreat: PhaseTiming::new(retreat),
            adjustment: PhaseTiming::new(adjustment),
            ..GameSettings::default()
        }
    }

    /// Settings for a new game with the configured phase lengths, grace periods and delay.
    pub fn configured(deadlines: &crate::config::DeadlineConfig) -> GameSettings {
        let timing = |hours: u32, grace_hours: u32| PhaseTiming {
            grace_hours,
            delay_minutes: deadlines.delay_minutes,
            ..PhaseTiming::new(hours)
        };
        GameSettings {
            movement: timing(deadlines.movement_hours, deadlines.movement_grace_hours),
            retreat: timing(deadlines.retreat_hours, deadlines.retreat_grace_hours),
            adjustment: timing(deadlines.adjustment_hours, deadlines.adjustment_grace_hours),
            ..GameSettings::default()
        }
    }

    /// When the grace of the game's current phase (serial `serial`, deadline `deadline`) ends:
    /// as SET GRACE said, else GRACE hours after the deadline.
    pub fn grace_end(
        &self,
        serial: i64,
        kind: crate::diplomacy::turn::PhaseKind,
        deadline: DateTime<Utc>,
    ) -> DateTime<Utc> {
        match self.grace_until {
            Some((phase, until)) if phase == serial => until.max(deadline),
            _ => deadline + Duration::hours(i64::from(self.timing(kind).grace_hours)),
        }
    }

    /// The earliest the current phase (serial `serial`) may be processed, if SET START said.
    pub fn start_of(&self, serial: i64) -> Option<DateTime<Utc>> {
        self.start_at
            .filter(|(phase, _)| *phase == serial)
            .map(|(_, at)| at)
    }

    /// Whether the game's kind hides its players' identities while it runs: an anonymous
    /// game, or one without white press (grey press, or none). `judge::secrecy` adds the
    /// rest of the rule: once the game is over, they are shown.
    pub fn hides_identities(&self) -> bool {
        self.anonymous || self.press != PressKind::White
    }

    /// The current phase has a new deadline (a rollback, a takeover, an extension, a
    /// resumption): its late notices and takeover offers go again when that one passes.
    pub fn deadline_moved(&mut self) {
        self.late_noticed = None;
        self.late_noticed_at = None;
        self.offered = None;
    }

    pub fn timing(&self, kind: crate::diplomacy::turn::PhaseKind) -> &PhaseTiming {
        use crate::diplomacy::turn::PhaseKind;
        match kind {
            PhaseKind::Movement => &self.movement,
            PhaseKind::Retreat => &self.retreat,
            PhaseKind::Adjustment => &self.adjustment,
        }
    }
}

/// What a member of a game has asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Wishes {
    /// Letters in this language (`en`, `ru`); none: the game's.
    pub language: Option<Lang>,
    /// Whether results letters carry the picture of the board (`SET MAP ON|OFF`); none: yes.
    pub map: Option<bool>,
    /// Do not process early this phase (SET WAIT); cleared every phase.
    pub wait: bool,
    /// Away from..to (yyyy-mm-dd), pushing deadlines that fall inside.
    pub absence: Option<(String, Option<String>)>,
    /// A draw vote for this phase: the powers to share it (empty: all survivors).
    pub draw: Option<Vec<String>>,
    /// Concedes the game to this power; cleared every phase.
    pub concede: Option<String>,
    /// Powers wanted, in order (`EFG`, or `*` for any).
    pub preference: Option<String>,
    /// A vote to end an unmoderated game (TERMINATE by a player); cleared every phase.
    pub terminate: bool,
    /// An observer or master who does not want the game's broadcast press (SET NO BROADCAST).
    pub no_broadcast: bool,
}

impl Wishes {
    pub fn from_json(text: &str) -> Wishes {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("wishes always serialise")
    }
}

/// The deadline of a phase starting at `start`: `hours` later, moved to the next `clock`
/// time of day and allowed weekday in the zone `tz`, never sooner than `min_hours`.
pub fn deadline_after(timing: &PhaseTiming, tz: Tz, start: DateTime<Utc>) -> DateTime<Utc> {
    let earliest = start + Duration::hours(i64::from(timing.min_hours));
    let mut deadline = start + Duration::hours(i64::from(timing.hours));
    if deadline < earliest {
        deadline = earliest;
    }
    let clock = timing
        .clock
        .as_deref()
        .and_then(|c| NaiveTime::parse_from_str(c, "%H:%M").ok());
    let allowed = |t: DateTime<Utc>| {
        let day = t.with_timezone(&tz).weekday().num_days_from_sunday() as usize;
        timing.days.chars().nth(day).is_none_or(|c| c != '-')
    };
    let Some(clock) = clock else {
        // Without a clock, a forbidden day moves the deadline a day at a time.
        for _ in 0..7 {
            if allowed(deadline) {
                break;
            }
            deadline += Duration::days(1);
        }
        return deadline;
    };
    let local = deadline.with_timezone(&tz);
    let mut date = local.date_naive();
    for _ in 0..15 {
        let candidate = tz
            .from_local_datetime(&date.and_time(clock))
            .earliest()
            .map(|t| t.with_timezone(&Utc));
        if let Some(candidate) = candidate
            && candidate >= deadline
            && allowed(candidate)
        {
            return candidate;
        }
        date = date.succ_opt().unwrap_or(date);
    }
    deadline
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn deadlines_follow_clock_days_and_zone() {
        let tz: Tz = "Europe/Moscow".parse().unwrap();
        let mut timing = PhaseTiming::new(48);
        // Tuesday 10:00 UTC + 48 h = Thursday 10:00 UTC.
        assert_eq!(
            deadline_after(&timing, tz, at("2027-01-05T10:00:00Z")),
            at("2027-01-07T10:00:00Z")
        );
        // At 20:00 Moscow time: Thursday 17:00 UTC.
        timing.clock = Some("20:00".into());
        assert_eq!(
            deadline_after(&timing, tz, at("2027-01-05T10:00:00Z")),
            at("2027-01-07T17:00:00Z")
        );
        // Weekdays only, Friday start: Sunday would come, so Monday 20:00 Moscow.
        timing.days = "-MTWTF-".into();
        assert_eq!(
            deadline_after(&timing, tz, at("2027-01-08T18:00:00Z")),
            at("2027-01-11T17:00:00Z")
        );
        // Never sooner than the minimum.
        let short = PhaseTiming {
            hours: 1,
            min_hours: 12,
            ..PhaseTiming::new(1)
        };
        assert_eq!(
            deadline_after(&short, tz, at("2027-01-05T10:00:00Z")),
            at("2027-01-05T22:00:00Z")
        );
    }

    #[test]
    fn a_clock_deadline_across_the_spring_change_in_london() {
        let tz: Tz = "Europe/London".parse().unwrap();
        let timing = PhaseTiming {
            clock: Some("12:00".into()),
            ..PhaseTiming::new(24)
        };
        // Clocks go forward on 28 March 2027: noon there is 11:00 UTC, the day before 12:00 UTC.
        assert_eq!(
            deadline_after(&timing, tz, at("2027-03-26T13:00:00Z")),
            at("2027-03-28T11:00:00Z")
        );
        assert_eq!(
            deadline_after(&timing, tz, at("2027-03-26T10:00:00Z")),
            at("2027-03-27T12:00:00Z")
        );
    }

    #[test]
    fn stored_settings_read_back_and_tolerate_bad_json() {
        let s = GameSettings {
            press: PressKind::Grey,
            masters: vec![7],
            ..GameSettings::default()
        };
        assert_eq!(GameSettings::from_json(&s.to_json()), s);
        assert_eq!(GameSettings::from_json("not json"), GameSettings::default());
        assert_eq!(GameSettings::from_json("{}"), GameSettings::default());
    }
}
