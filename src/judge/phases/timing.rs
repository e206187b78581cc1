//! When a phase is processed, beyond its deadline: SET DEADLINE, SET GRACE and SET START with
//! njudge's date forms read in the game's time zone, and early processing after a short delay
//! (njudge's `delay`): once every order is in and no one waits, the phase is processed that
//! many minutes after the last orders came, so a typo can still be fixed.

use crate::game::GameState;
use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};

use crate::game::settings::GameSettings;
use crate::judge::Judge;
use crate::judge::deadline_of;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::msg;
use crate::report::{Message, When};
use crate::store::{GameRow, Tx};
use crate::text::date::{DateProblem, Looking, WrittenDate};
use chrono::NaiveDate;

/// A date of any form the judge reads (`text::date`) in the game's zone unless it names its
/// own, with the time of day `default` when none is written; or why it names no moment.
pub(crate) fn moment(
    game: &GameRow,
    date: &WrittenDate,
    default: NaiveTime,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, Message> {
    date.instant(&game.time_zone, now, default, Looking::Ahead)
        .map_err(|problem| why(game, date, problem))
}

/// A date of the past (HISTORY's FROM and TO) read in the game's zone unless it names its own,
/// with the time of day `default` when none is written; a month alone is its first day when
/// `first`.
pub(crate) fn moment_back(
    game: &GameRow,
    date: &WrittenDate,
    default: NaiveTime,
    first: bool,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, Message> {
    date.instant(&game.time_zone, now, default, Looking::Back { first })
        .map_err(|problem| why(game, date, problem))
}

/// Why a date names no moment, in the writer's words.
fn why(game: &GameRow, date: &WrittenDate, problem: DateProblem) -> Message {
    match problem {
        DateProblem::NoSuchDay => msg!("timing.no_such_day", date = date.text),
        DateProblem::TooFarAhead => msg!("timing.too_far", date = date.text),
        DateProblem::NotTheZone(zone) => msg!(
            "timing.not_the_zone",
            date = date.text,
            zone = zone,
            game_zone = game.time_zone
        ),
    }
}

/// The time of day a deadline falls at when none is written: the phase's clock, else 23:30
/// (njudge's rule).
fn default_time(settings: &GameSettings, kind: crate::diplomacy::turn::PhaseKind) -> NaiveTime {
    settings
        .timing(kind)
        .clock
        .as_deref()
        .and_then(|c| NaiveTime::parse_from_str(c, "%H:%M").ok())
        .unwrap_or_else(|| NaiveTime::from_hms_opt(23, 30, 0).expect("a time"))
}

/// Which date setting a master sent.
pub(crate) enum DateSetting<'a> {
    Deadline(&'a WrittenDate),
    Grace(&'a WrittenDate),
    Start(&'a WrittenDate),
}

/// SET DEADLINE, SET GRACE, SET START for the current phase: the change to announce, or
/// `None` after saying why it was not made. `settings` is changed in place.
pub(crate) fn date_setting(
    cx: &mut Session<'_>,
    line: usize,
    game: &mut GameRow,
    settings: &mut GameSettings,
    setting: DateSetting,
) -> Option<Message> {
    let position = cx
        .judge
        .game_position(game)
        .filter(|_| game.state == GameState::Active);
    let (Some((_, position)), Some(deadline)) = (position, game.deadline_at) else {
        cx.fail(line, msg!("master.no_deadline", game = game.name));
        return None;
    };
    let kind = position.turn.kind;
    let date = match &setting {
        DateSetting::Deadline(d) | DateSetting::Grace(d) | DateSetting::Start(d) => *d,
    };
    let at = match moment(game, date, default_time(settings, kind), cx.now) {
        Ok(at) => at,
        Err(why) => {
            cx.fail(line, why);
            return None;
        }
    };
    if at <= cx.now {
        let shown = When {
            at: Some(at),
            zone: game.time_zone.clone(),
        };
        cx.fail(line, msg!("timing.past", date = date.text, at = shown));
        return None;
    }
    let serial = game.phase_serial;
    let change = match setting {
        DateSetting::Deadline(_) => {
            game.deadline_at = Some(at);
            game.reminded = false;
            settings.deadline_moved();
            // A grace set for the old deadline that ends before the new one goes.
            if settings
                .grace_until
                .is_some_and(|(p, until)| p == serial && until < at)
            {
                settings.grace_until = None;
            }
            msg!("timing.deadline_set", deadline = deadline_of(game))
        }
        DateSetting::Grace(_) => {
            if at < deadline {
                cx.fail(
                    line,
                    msg!("timing.grace_before_deadline", deadline = deadline_of(game)),
                );
                return None;
            }
            settings.grace_until = Some((serial, at));
            let until = When {
                at: Some(at),
                zone: game.time_zone.clone(),
            };
            msg!("timing.grace_set", until = until)
        }
        DateSetting::Start(_) => {
            settings.start_at = Some((serial, at));
            let start = When {
                at: Some(at),
                zone: game.time_zone.clone(),
            };
            if at > deadline {
                game.deadline_at = Some(at);
                game.reminded = false;
                settings.deadline_moved();
                msg!(
                    "timing.start_moves_deadline",
                    start = start,
                    deadline = deadline_of(game)
                )
            } else {
                msg!("timing.start_set", start = start)
            }
        }
    };
    game.process_at = None;
    cx.touch(game.id, false);
    Some(change)
}

impl Judge {
    /// Whether the game is paused, or, before its deadline, a member asked not to process
    /// early (SET WAIT) or a power's letter is held for its token (once the deadline has
    /// passed nothing is early any more).
    pub(crate) fn someone_waits(
        &self,
        tx: &Tx,
        row: &GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<bool> {
        if row.settings.clone().paused {
            return Ok(true);
        }
        if row.deadline_at.is_some_and(|d| d <= now) {
            return Ok(false);
        }
        for member in tx.members(row.id)? {
            if tx.member_wishes(row.id, member.player_id)?.wait {
                return Ok(true);
            }
        }
        // A power's letter held for its token waits as a WAIT does (`held.rs`).
        self.held_for_a_power(tx, row, now)
    }

    /// When a game whose orders are all in as of `now` is to be processed: after the phase's
    /// delay, but no later than the deadline (which processes a phase whose orders are all
    /// in: late orders are processed at once), and not before SET START; `None` when only a
    /// master's PROCESS processes it. What the answer promises is this time.
    pub(crate) fn early_time(&self, game: &GameRow, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let settings = game.settings.clone();
        if settings.manual_process {
            return None;
        }
        let (_, position) = self.game_position(game)?;
        let delay = settings.timing(position.turn.kind).delay_minutes;
        let mut at = now + Duration::minutes(i64::from(delay));
        if let Some(deadline) = game.deadline_at {
            at = at.min(deadline.max(now));
        }
        Some(match settings.start_of(game.phase_serial) {
            Some(start) => at.max(start),
            None => at,
        })
    }

    /// After a phase began on its own (orders kept for it came into force): if every order
    /// is in and no one waits, it is due after its delay.
    pub(crate) fn schedule_if_ready(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        if game.state != GameState::Active
            || !self.missing_powers(tx, game)?.is_empty()
            || self.someone_waits(tx, game, now)?
        {
            return Ok(());
        }
        if let Some(at) = self.early_time(game, now) {
            game.process_at = Some(at);
            tx.save_game(game)?;
        }
        Ok(())
    }

    /// The early processing of `game` fell due: processed if every order is still in and no
    /// one waits; otherwise the game waits for its deadline.
    pub(crate) fn early_due(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        game.process_at = None;
        let settings = game.settings.clone();
        let ready = !settings.manual_process
            && settings
                .start_of(game.phase_serial)
                .is_none_or(|s| s <= now)
            && self.missing_powers(tx, game)?.is_empty()
            && !self.someone_waits(tx, game, now)?;
        if ready {
            return self.process_phase(tx, game, now);
        }
        tx.save_game(game)?;
        Ok(Vec::new())
    }
}

/// Where `deadline` goes if it falls inside the absence `from`..=`to` (dates in the game's
/// zone): the same time of day on the day after the absence; `None` if it falls outside.
pub(crate) fn past_absence(
    game: &GameRow,
    from: &str,
    to: Option<&str>,
    deadline: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let parse = |d: &str| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok();
    let start = parse(from)?;
    let end = match to {
        Some(to) => parse(to)?,
        None => start,
    };
    let tz: chrono_tz::Tz = game.time_zone.parse().unwrap_or(chrono_tz::UTC);
    let local = |d: NaiveDate| {
        tz.from_local_datetime(&d.and_hms_opt(0, 0, 0)?)
            .earliest()
            .map(|t| t.with_timezone(&Utc))
    };
    let (begin, finish) = (local(start)?, local(end + Duration::days(1))?);
    if deadline < begin || deadline >= finish {
        return None;
    }
    let midnight = local(deadline.with_timezone(&tz).date_naive()).unwrap_or(deadline);
    Some(finish + (deadline - midnight))
}

/// A new phase's deadline (or one set afresh by RESUME or ROLLBACK) moved past every member's
/// declared absence it falls in, as SET ABSENCE promises for every deadline it covers.
pub(crate) fn beyond_absences(
    tx: &Tx,
    game: &GameRow,
    deadline: DateTime<Utc>,
) -> rusqlite::Result<DateTime<Utc>> {
    let absences: Vec<(String, Option<String>)> = tx
        .members(game.id)?
        .iter()
        .filter(|m| m.power.is_some())
        .map(|m| tx.member_wishes(game.id, m.player_id))
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .filter_map(|w| w.absence)
        .collect();
    let mut deadline = deadline;
    // Absences can follow one another: move until none holds the deadline (each moves it
    // forward past one absence, so this ends).
    for _ in 0..=absences.len() {
        let moved = absences
            .iter()
            .find_map(|(from, to)| past_absence(game, from, to.as_deref(), deadline));
        match moved {
            Some(later) => deadline = later,
            None => break,
        }
    }
    Ok(deadline)
}
