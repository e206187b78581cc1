//! Orders for later phases (`PHASE Fall 1902 Movement`, njudge's "submitting orders in
//! advance") and `CLEAR`. The order lines after a PHASE line, IF/ELSE/ENDIF blocks included,
//! are checked for their words now and kept as written; when that phase begins they are read
//! against its board (the conditions decided on it), put in force as if just sent, and the
//! power's player is told what came of them. Orders kept for a phase that never comes (a
//! retreat with nothing dislodged) are dropped, and the player told.

use crate::game::GameState;
use crate::judge::session::Later;
use chrono::{DateTime, Utc};

use crate::diplomacy::position::Position;
use crate::diplomacy::turn::{Calendar, PhaseKind, Season, Turn, YearDirection};
use crate::game::orders::{is_complete, order_lines, stored_orders, submit};
use crate::game::phases::phase_of_turn_message;
use crate::judge::Judge;
use crate::judge::deadline_text_in;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::Message;
use crate::report::describe::describe_order_in;
use crate::store::{GameRow, Tx};
use crate::text::Severity;
use crate::text::command::PhaseName;
use crate::text::conditional;
use crate::variant::Variant;
use crate::{msg, tr};

/// How many years ahead orders may be kept (njudge's limit).
const YEARS_AHEAD: i64 = 5;

/// The phases of a year, in order, as `rank` counts them.
const PHASES_A_YEAR: i64 = 5;

/// The place of `turn` in the game's calendar: later phases have larger ranks.
pub(crate) fn rank(calendar: &Calendar, turn: Turn) -> i64 {
    let years = i64::from(turn.year - calendar.first_year);
    let years = match calendar.direction {
        YearDirection::Up => years,
        YearDirection::Down => -years,
    };
    let slot = match (turn.season, turn.kind) {
        (Season::Spring, PhaseKind::Movement) => 0,
        (Season::Spring, _) => 1,
        (Season::Fall, PhaseKind::Movement) => 2,
        (Season::Fall, _) => 3,
        (Season::Winter, _) => 4,
    };
    years * PHASES_A_YEAR + slot
}

/// njudge's name of a turn (`S1902M`, `F1902R`, `F1902B`), the key orders are kept under.
fn token(turn: Turn) -> String {
    crate::report::classic::phase_token(turn)
}

/// The turn a PHASE line names, or why it names none.
fn turn_of(name: &PhaseName) -> Result<Turn, Message> {
    let (season, kind) = match (name.season, name.kind) {
        ('U', _) => return Err(msg!("future.summer")),
        ('W', _) | ('F', Some('B')) => (Season::Winter, PhaseKind::Adjustment),
        ('S', Some('B')) => return Err(msg!("future.no_such_phase", phase = name.text)),
        (season, kind) => {
            let season = if season == 'S' {
                Season::Spring
            } else {
                Season::Fall
            };
            let kind = match kind {
                Some('R') => PhaseKind::Retreat,
                _ => PhaseKind::Movement,
            };
            (season, kind)
        }
    };
    Ok(Turn {
        year: name.year,
        season,
        kind,
    })
}

/// PHASE: the order lines after it, up to the next PHASE, are for that phase.
pub(crate) fn phase(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    name: &PhaseName,
) -> rusqlite::Result<()> {
    // Until it is known which phase: the lines after a refused PHASE go nowhere.
    cx.phase_for = Some(Later { turn: None });
    let Some((row, _)) = cx.signed_on.clone() else {
        cx.fail(line, msg!("future.needs_power"));
        return Ok(());
    };
    let row = tx.game(row.id)?;
    let Some((variant, position)) = cx
        .judge
        .game_position(&row)
        .filter(|_| row.state == GameState::Active)
    else {
        cx.fail(line, msg!("common.not_running", game = row.name));
        return Ok(());
    };
    let turn = match turn_of(name) {
        Ok(turn) => turn,
        Err(why) => {
            cx.fail(line, why);
            return Ok(());
        }
    };
    let calendar = &variant.calendar;
    let (asked, now) = (rank(calendar, turn), rank(calendar, position.turn));
    let shown = phase_of_turn_message(variant, turn);
    if asked < now {
        cx.fail(line, msg!("future.past", phase = shown, game = row.name));
    } else if asked == now {
        cx.phase_for = None;
        cx.say(msg!("future.current", phase = shown));
    } else if asked - now > YEARS_AHEAD * PHASES_A_YEAR {
        cx.fail(
            line,
            msg!("future.too_far", phase = shown, years = YEARS_AHEAD),
        );
    } else {
        cx.phase_for = Some(Later { turn: Some(turn) });
    }
    Ok(())
}

/// Order lines after a PHASE line: their words checked, kept as written for that phase.
pub(crate) fn later_orders(
    cx: &mut Session<'_>,
    tx: &Tx,
    later: &Later,
    text: &str,
    first_line: usize,
) -> rusqlite::Result<()> {
    let Some((row, power_id)) = cx.signed_on.clone() else {
        return Ok(());
    };
    let Some(turn) = later.turn else {
        cx.fail(first_line, msg!("future.not_read"));
        return Ok(());
    };
    let turn_kind = turn.kind;
    let Some(variant) = cx.judge.variant(&row.variant) else {
        return Ok(());
    };
    let map = &variant.map;
    let (selected, problems) = conditional::select(variant, None, text);
    let (_, diagnostics) = crate::text::order::parse_orders(variant, turn_kind, &selected);
    let mut bad: Vec<usize> = Vec::new();
    for d in problems
        .iter()
        .chain(&diagnostics)
        .filter(|d| d.severity == Severity::Error)
    {
        cx.fail(first_line + d.line - 1, d.said.clone());
        bad.push(d.line);
    }
    // The lines kept: conditions and orders whose words read; the bad ones left out.
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| !l.trim().is_empty() && !bad.contains(&(i + 1)))
        .map(|(_, l)| l.trim())
        .collect();
    let phase = token(turn);
    if !kept.is_empty() {
        tx.add_future_orders(
            row.id,
            &power_id,
            &phase,
            rank(&variant.calendar, turn),
            &kept.join("\n"),
            cx.now,
        )?;
    }
    let words = cx.words();
    let mut lines = vec![tr!(
        words,
        "future.kept",
        power = map.power_by_id(&power_id).map_or(power_id.clone(), |p| {
            map.power(p).name_in(words.language()).to_string()
        }),
        phase = phase_of_turn_message(variant, turn),
        game = row.name
    )];
    let all: Vec<String> = tx
        .future_orders(row.id, &power_id)?
        .into_iter()
        .filter(|(p, _, _)| *p == phase)
        .map(|(_, _, l)| l)
        .collect();
    let all = all.join("\n");
    // Orders as the judge writes them; the lines of IF blocks as written.
    let rendered: Vec<String> = all
        .lines()
        .map(|l| {
            let order = (!conditional::has_conditions(l))
                .then(|| crate::text::order::parse_order(variant, turn_kind, l).0)
                .flatten();
            match order {
                Some(order) => format!("  {}", crate::text::order::render(map, &order)),
                None => format!("  {l}"),
            }
        })
        .collect();
    if rendered.is_empty() {
        lines.push(tr!(words, "play.no_orders"));
    }
    lines.extend(rendered);
    cx.say_text(lines.join("\n"));
    Ok(())
}

/// CLEAR: the power's orders withdrawn; after PHASE, only those kept for that phase.
pub(crate) fn clear(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    let Some((row, power_id)) = cx.signed_on.clone() else {
        cx.fail(line, msg!("future.clear_needs_power"));
        return Ok(());
    };
    let row = tx.game(row.id)?;
    let Some((variant, position)) = cx.judge.game_position(&row) else {
        cx.fail(line, msg!("common.not_running", game = row.name));
        return Ok(());
    };
    if let Some(later) = cx.phase_for.clone() {
        let Some(turn) = later.turn else {
            cx.fail(line, msg!("future.not_read"));
            return Ok(());
        };
        let phase = phase_of_turn_message(variant, turn);
        let n = tx.clear_future_orders(row.id, &power_id, Some(&token(turn)))?;
        cx.say(if n > 0 {
            msg!("future.cleared_phase", phase = phase)
        } else {
            msg!("future.nothing_kept", phase = phase)
        });
        return Ok(());
    }
    let now = tx.clear_orders(row.id, row.phase_serial, &power_id)?;
    let later = tx.clear_future_orders(row.id, &power_id, None)?;
    let phase = phase_of_turn_message(variant, position.turn);
    cx.say(match (now, later > 0) {
        (true, true) => msg!("future.cleared_all", phase = phase),
        (true, false) => msg!("future.cleared_now", phase = phase),
        (false, true) => msg!("future.cleared_later"),
        (false, false) => msg!("future.nothing_to_clear"),
    });
    // No orders any more: the game waits for them again.
    if now && row.process_at.is_some() {
        cx.touch(row.id, true);
    }
    Ok(())
}

/// A line of the answer naming the phases `power` has orders kept for, if any.
pub(crate) fn kept_later_line(
    cx: &Session<'_>,
    tx: &Tx,
    row: &GameRow,
    variant: &Variant,
    power: &str,
) -> rusqlite::Result<Option<String>> {
    let mut phases: Vec<(i64, String)> = Vec::new();
    for (_, rank, _) in tx.future_orders(row.id, power)? {
        if phases.iter().all(|(r, _)| *r != rank) {
            let turn = turn_of_rank(&variant.calendar, rank);
            phases.push((
                rank,
                cx.words().message(&phase_of_turn_message(variant, turn)),
            ));
        }
    }
    if phases.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = phases.into_iter().map(|(_, n)| n).collect();
    Ok(Some(tr!(
        cx.words(),
        "future.kept_for",
        phases = names.join(", ")
    )))
}

/// The turn of a rank (the inverse of `rank`).
fn turn_of_rank(calendar: &Calendar, rank: i64) -> Turn {
    let years = rank.div_euclid(PHASES_A_YEAR) as i32;
    let year = match calendar.direction {
        YearDirection::Up => calendar.first_year + years,
        YearDirection::Down => calendar.first_year - years,
    };
    let (season, kind) = match rank.rem_euclid(PHASES_A_YEAR) {
        0 => (Season::Spring, PhaseKind::Movement),
        1 => (Season::Spring, PhaseKind::Retreat),
        2 => (Season::Fall, PhaseKind::Movement),
        3 => (Season::Fall, PhaseKind::Retreat),
        _ => (Season::Winter, PhaseKind::Adjustment),
    };
    Turn { year, season, kind }
}

impl Judge {
    /// A phase of `game` has begun on `position`: the orders kept for it are put in force, each
    /// power's player told what came of them; orders kept for phases passed over are dropped
    /// (their players told). Returns the letters.
    pub(crate) fn begin_kept_orders(
        &self,
        tx: &Tx,
        game: &GameRow,
        variant: &Variant,
        position: &Position,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let map = &variant.map;
        let current = rank(&variant.calendar, position.turn);
        let mut letters = Vec::new();
        for member in tx.members(game.id)? {
            let Some(power_id) = member.power.clone().filter(|_| member.role == "player") else {
                continue;
            };
            let Some(power) = map.power_by_id(&power_id) else {
                continue;
            };
            let kept = tx.future_orders(game.id, &power_id)?;
            if kept.iter().all(|(_, rank, _)| *rank > current) {
                continue;
            }
            let language = self.language_of(tx, game, &member)?;
            let words = self.templates.words(language);
            let mut lines = Vec::new();
            let mut passed: Vec<i64> = Vec::new();
            for (_, rank, _) in kept.iter().filter(|(_, r, _)| *r < current) {
                if !passed.contains(rank) {
                    passed.push(*rank);
                    let turn = turn_of_rank(&variant.calendar, *rank);
                    lines.push(tr!(
                        words,
                        "future.unused",
                        phase = phase_of_turn_message(variant, turn)
                    ));
                }
            }
            let text: Vec<&str> = kept
                .iter()
                .filter(|(_, r, _)| *r == current)
                .map(|(_, _, l)| l.as_str())
                .collect();
            if !text.is_empty() {
                let text = text.join("\n");
                let (selected, problems) = conditional::select(variant, Some(position), &text);
                let in_force = tx
                    .orders(game.id, game.phase_serial, &power_id)?
                    .map(|(lines, _)| stored_orders(variant, position.turn.kind, &lines))
                    .unwrap_or_default();
                let submission = submit(
                    words,
                    variant,
                    &variant.rules,
                    position,
                    power,
                    in_force,
                    &selected,
                    1,
                );
                let errors = !submission.errors.is_empty() || !problems.is_empty();
                tx.set_orders(
                    game.id,
                    game.phase_serial,
                    &power_id,
                    &order_lines(map, &submission.orders),
                    errors,
                    now,
                )?;
                lines.push(tr!(
                    words,
                    "future.applied",
                    phase = phase_of_turn_message(variant, position.turn),
                    game = game.name
                ));
                for order in &submission.orders {
                    lines.push(format!(
                        "  {}",
                        describe_order_in(words, map, position, power, order)
                    ));
                }
                if submission.orders.is_empty() {
                    lines.push(tr!(words, "play.no_orders"));
                }
                for problem in &problems {
                    lines.push(tr!(
                        words,
                        "letter.line",
                        line = problem.line,
                        message = words.message(&problem.said)
                    ));
                }
                lines.extend(submission.errors);
                lines.extend(submission.warnings);
                if !is_complete(map, position, power, &submission.orders) {
                    lines.push(tr!(words, "play.incomplete"));
                }
                lines.push(tr!(
                    words,
                    "info.deadline",
                    deadline = deadline_text_in(words, game)
                ));
            }
            let subject = tr!(
                words,
                "future.subject",
                game = crate::judge::phases::subjects::prefix(&self.config.judge.code, game)
            );
            letters.push(
                OutgoingLetter::fresh(&member.email, subject, lines.join("\n") + "\n")
                    .about(&game.name),
            );
        }
        tx.drop_future_orders_until(game.id, current)?;
        Ok(letters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_calendar_both_ways() {
        let up = Calendar::default();
        let spring = Turn {
            year: 1902,
            season: Season::Spring,
            kind: PhaseKind::Movement,
        };
        let winter = Turn {
            season: Season::Winter,
            kind: PhaseKind::Adjustment,
            ..spring
        };
        assert_eq!(rank(&up, spring), 5);
        assert_eq!(rank(&up, winter), 9);
        assert_eq!(turn_of_rank(&up, 9), winter);
        let down = Calendar {
            first_year: 240,
            direction: YearDirection::Down,
            ..Calendar::default()
        };
        let later = Turn {
            year: 239,
            ..spring
        };
        assert!(
            rank(&down, later)
                > rank(
                    &down,
                    Turn {
                        year: 240,
                        ..winter
                    }
                )
        );
        assert_eq!(turn_of_rank(&down, rank(&down, later)), later);
    }
}
