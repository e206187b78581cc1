//! A power's play by mail: its orders and its supply credit.

use crate::judge::commands::credit::CreditOrder;

use crate::diplomacy::order::Order;
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::turn::PhaseKind;
use crate::diplomacy::unit::Unit;
use crate::game::orders::{is_complete, order_lines, stored_orders, submit, unordered};
use crate::game::{GameKind, GameState};
use crate::judge::access::held;
use crate::judge::commands::credit::change_credit;
use crate::judge::commands::future;
use crate::judge::commands::info;
use crate::judge::deadline_text_in;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::Words;
use crate::report::describe::{describe_order_in, unit_name_in};
use crate::store::Tx;
use crate::text::command::CreditAction;
use crate::variant::Variant;
use crate::{msg, tr};

pub(crate) fn orders(
    cx: &mut Session<'_>,
    tx: &Tx,
    text: &str,
    line: usize,
) -> rusqlite::Result<()> {
    // Here I Stand: a power's moves and answers, or the master's adjustments.
    if let Some((row, power)) = cx.signed_on.clone()
        && row.kind() == GameKind::HereIStand
    {
        let power = crate::his::Power::from_word(&power);
        return crate::judge::commands::his::his_lines(cx, tx, row, power, text, line);
    }
    if cx.signed_on.is_none()
        && let Some(row) = cx.master_of.clone()
        && row.kind() == GameKind::HereIStand
    {
        return crate::judge::commands::his::his_lines(cx, tx, row, None, text, line);
    }
    if let Some(later) = cx.phase_for.clone()
        && cx.signed_on.is_some()
    {
        cx.orders_read = true;
        return future::later_orders(cx, tx, &later, text, line);
    }
    let Some((row, power_id)) = cx.signed_on.clone() else {
        // Each line that is no command gets its own error, with the command it may have
        // been meant for.
        for (i, written) in text.lines().enumerate() {
            let written = written.trim();
            if written.is_empty() {
                continue;
            }
            let shown: String = written.chars().take(60).collect();
            let first = written.split_whitespace().next().unwrap_or("");
            let message = match crate::text::command::nearest_command(first) {
                Some(command) => msg!("play.did_you_mean", text = shown, command = command),
                None => msg!("play.not_a_command", text = shown),
            };
            cx.fail(line + i, message);
        }
        return Ok(());
    };
    let Some((variant, position)) = cx
        .judge
        .game_position(&row)
        .filter(|_| row.state == GameState::Active)
    else {
        cx.fail(line, msg!("play.no_orders_taken", game = row.name));
        return Ok(());
    };
    cx.orders_read = true;
    let map = &variant.map;
    // A held letter's orders are for the phase it was written in.
    let phase = crate::game::phases::phase_name_in(cx.words(), variant, &position);
    if held::outlived_phase(cx, tx, &row, &phase, line)? {
        return Ok(());
    }
    let power = map
        .power_by_id(&power_id)
        .expect("members hold the variant's powers");
    // IF blocks are for orders kept for a later phase only (NJ:syntax): each such line
    // is refused, the other lines read.
    let text = if crate::text::conditional::has_conditions(text) {
        text.lines()
            .enumerate()
            .map(|(i, l)| {
                if crate::text::conditional::has_conditions(l) {
                    cx.fail(line + i, msg!("future.if_now"));
                    ""
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        text.to_string()
    };
    let text = text.as_str();
    let in_force = tx
        .orders(row.id, row.phase_serial, &power_id)?
        .map(|(lines, _)| stored_orders(variant, position.turn.kind, &lines))
        .unwrap_or_default();
    let words = cx.words();
    let submission = submit(
        words,
        variant,
        &variant.rules,
        &position,
        power,
        in_force,
        text,
        line,
    );
    // Said first: whether these orders count as received, and if not why and what to send
    // (docs/commands.md, "When orders count as received").
    if !submission.errors.is_empty() {
        cx.say_text(standing(words, variant, &position, power, &submission));
    }
    let has_errors = !submission.refused.is_empty();
    for e in submission.errors {
        cx.error(msg!("letter.text", text = e));
    }
    for w in submission.warnings {
        cx.say(msg!("letter.note", warning = w));
    }
    tx.set_orders(
        row.id,
        row.phase_serial,
        &power_id,
        &order_lines(map, &submission.orders),
        has_errors,
        cx.now,
    )?;
    // The orders in force as njudge lists them back: its heading, then a line per unit
    // (`Austria: Army Vienna -> Galicia.`, `..., No Order Processed.`); our notes after.
    let mut lines = order_list(
        words,
        variant,
        &position,
        power,
        &submission.orders,
        &row.name,
        row.phase_serial + 1,
    );
    lines.push(String::new());
    if !is_complete(map, &position, power, &submission.orders) {
        lines.push(tr!(words, "play.incomplete"));
    }
    lines.push(tr!(
        words,
        "info.deadline",
        deadline = deadline_text_in(words, &row)
    ));
    if let Some(deadline) = row.deadline_at.filter(|d| *d > cx.now) {
        let left = crate::report::classic::time_left(words, deadline - cx.now);
        lines.push(tr!(words, "classic.time_to_deadline", time = left));
    }
    let owing = info::owing_names(cx, tx, &row)?;
    if !owing.is_empty() {
        lines.push(tr!(words, "info.owing", powers = owing.join(", ")));
    }
    if let Some(kept) = future::kept_later_line(cx, tx, &row, variant, &power_id)? {
        lines.push(kept);
    }
    cx.say_text(lines.join("\n"));
    // Whether the phase is processed is decided once the whole letter is read.
    cx.touch(row.id, true);
    Ok(())
}

/// Whether a letter's orders, which had errors, leave the power's orders counted as
/// received: said plainly, with the units lacking a valid order and what to send.
fn standing(
    words: Words,
    variant: &Variant,
    position: &Position,
    power: PowerId,
    submission: &crate::game::orders::Submission,
) -> String {
    let map = &variant.map;
    let name = map.power(power).name_in(words.language());
    let unit_names = |units: Vec<Unit>| {
        units
            .iter()
            .map(|u| unit_name_in(words, map, u))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let complete = is_complete(map, position, power, &submission.orders);
    if complete && submission.refused.is_empty() {
        return tr!(words, "play.received_despite", power = name);
    }
    let own = |provinces: &[crate::diplomacy::map::ProvinceId]| -> Vec<Unit> {
        position
            .units
            .iter()
            .chain(position.dislodged.iter().map(|d| &d.unit))
            .filter(|u| u.power == power && provinces.contains(&map.province_of(u.region)))
            .copied()
            .collect()
    };
    let mut why = Vec::new();
    let refused = own(&submission.refused);
    if !refused.is_empty() {
        why.push(tr!(
            words,
            "play.why_refused",
            units = unit_names(refused.clone())
        ));
    }
    let unordered: Vec<Unit> = unordered(map, position, power, &submission.orders)
        .into_iter()
        .filter(|u| !refused.contains(u))
        .collect();
    if !complete && unordered.is_empty() && refused.is_empty() {
        why.push(tr!(words, "play.why_adjustments"));
    } else if !unordered.is_empty() {
        why.push(tr!(
            words,
            "play.why_unordered",
            units = unit_names(unordered.clone())
        ));
    }
    if why.is_empty() {
        why.push(tr!(words, "play.why_refused_adjustment"));
    }
    let mut lacking = refused;
    lacking.extend(unordered);
    let send = if lacking.is_empty() {
        tr!(words, "play.send_adjustments")
    } else {
        tr!(words, "play.send_units", units = unit_names(lacking))
    };
    tr!(
        words,
        "play.not_received",
        power = name,
        why = why.join("; "),
        send = send
    )
}

/// Once the whole letter is read: each game it touched is processed if every order is in
/// and no one waits (a WAIT anywhere in the letter holds it; press of the letter is
/// already queued, so it goes out before the results), after the phase's short delay
/// (new orders start the delay again); a game no longer ready stops waiting to be
/// processed early.
pub(crate) fn process_touched(cx: &mut Session<'_>, tx: &Tx) -> rusqlite::Result<()> {
    for (id, orders) in std::mem::take(&mut cx.touched) {
        let mut row = tx.game(id)?;
        if row.state != GameState::Active
            || row.kind() == GameKind::HereIStand
            || cx.judge.game_position(&row).is_none()
        {
            continue;
        }
        let all_in = cx.judge.missing_powers(tx, &row)?.is_empty();
        let waits = cx.judge.someone_waits(tx, &row, cx.now)?;
        let early = if all_in && !waits {
            cx.judge.early_time(&row, cx.now)
        } else {
            None
        };
        let Some(at) = early else {
            if row.process_at.take().is_some() {
                tx.save_game(&row)?;
                cx.refresh(row.clone());
            }
            if all_in && orders {
                cx.say(if waits {
                    msg!("play.all_in_waiting")
                } else {
                    msg!("play.all_in_manual")
                });
            }
            continue;
        };
        if at <= cx.now {
            cx.say(msg!("play.all_in"));
            row.process_at = None;
            cx.caused
                .extend(cx.judge.process_phase(tx, &mut row, cx.now)?);
            cx.refresh(row);
            continue;
        }
        if orders || row.process_at.is_none() {
            row.process_at = Some(at);
            tx.save_game(&row)?;
        }
        let when = crate::report::When {
            at: row.process_at,
            zone: row.time_zone.clone(),
        };
        cx.say(msg!("play.all_in_delay", at = when));
        cx.refresh(row);
    }
    Ok(())
}

/// CREDIT: grant, pass on, end or ask for supply credit (Diadochi V rule 8).
pub(crate) fn credit(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    action: CreditAction,
    amount: u32,
    other: &str,
) -> rusqlite::Result<()> {
    let Some((row, power_id)) = cx.signed_on.clone() else {
        cx.fail(line, msg!("play.credit_needs_signon"));
        return Ok(());
    };
    let mut row = tx.game(row.id)?;
    let Some((variant, position)) = cx
        .judge
        .game_position(&row)
        .filter(|_| row.state == GameState::Active)
    else {
        cx.fail(line, msg!("common.not_running", game = row.name));
        return Ok(());
    };
    let map = &variant.map;
    let power = map
        .power_by_id(&power_id)
        .expect("members hold the variant's powers");
    match change_credit(
        tx,
        variant,
        &mut row,
        position,
        power,
        CreditOrder {
            action,
            amount,
            other,
        },
        &cx.judge.config.judge.code,
    )? {
        Err(why) => cx.fail(line, why),
        Ok(change) => {
            cx.say(change.said);
            if let Some((to, subject, body)) = change.notice {
                for m in tx
                    .members(row.id)?
                    .iter()
                    .filter(|m| m.power.as_deref() == Some(map.power(to).id.as_str()))
                {
                    let language = cx.judge.language_of(tx, &row, m)?;
                    let words = cx.judge.templates.words(language);
                    cx.caused.push(
                        OutgoingLetter::fresh(
                            &m.email,
                            words.message(&subject),
                            words.message(&body) + "\n",
                        )
                        .about(&row.name),
                    );
                }
            }
        }
    }
    cx.signed_on = Some((row, power_id));
    Ok(())
}

/// A power's orders as njudge lists them back (`Movement orders for Spring of 1901.
/// (game.001)`, an empty line, then `Austria: Army Vienna -> Galicia.` for each unit, in the
/// board's order, or `Austria: Fleet Trieste, No Order Processed.`; adjustments as ordered).
pub(crate) fn order_list(
    words: Words,
    variant: &Variant,
    position: &Position,
    power: PowerId,
    orders: &[Order],
    game: &str,
    seq: i64,
) -> Vec<String> {
    let map = &variant.map;
    let (season, year) =
        crate::judge::phases::subjects::season_and_year(words, variant, position.turn);
    let seq = format!("{seq:03}");
    let heading = match position.turn.kind {
        PhaseKind::Movement => {
            tr!(
                words,
                "classic.movement_orders",
                season = season,
                year = year,
                game = game,
                seq = seq
            )
        }
        PhaseKind::Retreat => {
            tr!(
                words,
                "classic.retreat_orders",
                season = season,
                year = year,
                game = game,
                seq = seq
            )
        }
        PhaseKind::Adjustment => {
            tr!(
                words,
                "classic.adjustment_orders",
                season = season,
                year = year,
                game = game,
                seq = seq
            )
        }
    };
    let mut lines = vec![heading, String::new()];
    let name = map.power(power).name_in(words.language());
    let units: Vec<&Unit> = match position.turn.kind {
        PhaseKind::Movement => position.units.iter().filter(|u| u.power == power).collect(),
        PhaseKind::Retreat => position
            .dislodged
            .iter()
            .map(|d| &d.unit)
            .filter(|u| u.power == power)
            .collect(),
        PhaseKind::Adjustment => Vec::new(),
    };
    for unit in units {
        let province = map.province_of(unit.region);
        let order = orders
            .iter()
            .find(|o| matches!(o, Order::Unit(u) if u.at.province == province));
        lines.push(match order {
            Some(order) => format!(
                "{name}: {}",
                describe_order_in(words, map, position, power, order)
            ),
            None => format!(
                "{name}: {}{}",
                unit_name_in(words, map, unit),
                tr!(words, "classic.no_order")
            ),
        });
    }
    if position.turn.kind == PhaseKind::Adjustment {
        // Padded as njudge pads its adjustment lines.
        let lead = crate::report::classic::padded(name, 26);
        for order in orders {
            let text = crate::judge::phases::reckoning::adjustment_order(
                words, map, position, power, order,
            );
            lines.push(format!("{lead}{text}"));
        }
        if orders.is_empty() {
            lines.push(format!("{lead}{}", tr!(words, "play.no_adjustments")));
        }
    }
    lines
}
