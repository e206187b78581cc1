//! Orders by mail: read, checked against the board, merged with the orders already in
//! force (the last order to a unit replaces the earlier one), and judged complete or not.

use crate::diplomacy::adjudicate::adjustment::adjustments;
use crate::diplomacy::adjudicate::{Allowance, Outcome, Submitted, adjudicate};
use crate::diplomacy::map::{Map, ProvinceId};
use crate::diplomacy::order::{Action, Order};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::rules::Rules;
use crate::diplomacy::turn::PhaseKind;
use crate::diplomacy::unit::Unit;
use crate::report::Words;
use crate::report::describe::{explain, explain_allowance};
use crate::store::{GameRow, Tx};
use crate::text::Severity;
use crate::text::order::{parse_orders, render};
use crate::tr;
use crate::variant::Variant;

/// What a letter's order text came to.
pub struct Submission {
    /// The orders in force after this letter, canonical texts.
    pub orders: Vec<Order>,
    /// One sentence per problem in the reader's words, prefixed with its line in the letter.
    pub errors: Vec<String>,
    /// Orders understood from this letter, canonical texts.
    pub understood: Vec<String>,
    /// Orders kept that will not be carried out as the orders stand (a build beyond the
    /// allowance, a third fleet in one winter), one sentence each with its line.
    pub warnings: Vec<String>,
    /// The provinces of the power's own units whose order in this letter was refused
    /// (unreadable after the unit, or illegal). While there is one, the power's orders
    /// count as not received (`docs/commands.md`, "When orders count as received"); a line
    /// that orders none of its units (a stray line, a unit not there) is told and ignored.
    pub refused: Vec<ProvinceId>,
}

/// Why a power is still waited for, as the late notice and the answer say it (never which
/// units: the notice goes to every player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owing {
    /// No orders came.
    Nothing,
    /// Some units (or builds, or removals) have no valid order.
    Incomplete,
    /// The power's latest letter gave one of its units an order that was refused.
    Refused,
}

/// The orders stored for a power, read back (they were stored canonical, so they read).
pub fn stored_orders(variant: &Variant, kind: PhaseKind, lines: &str) -> Vec<Order> {
    parse_orders(variant, kind, lines)
        .0
        .into_iter()
        .map(|p| p.order)
        .collect()
}

/// Canonical lines for storing a set of orders.
pub fn order_lines(map: &Map, orders: &[Order]) -> String {
    orders
        .iter()
        .map(|o| render(map, o))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads `text` (starting at `first_line` of the letter) as orders of `power` and merges
/// them into `in_force`; problems are told in `words`.
#[allow(clippy::too_many_arguments)]
pub fn submit(
    words: Words,
    variant: &Variant,
    rules: &Rules,
    position: &Position,
    power: PowerId,
    in_force: Vec<Order>,
    text: &str,
    first_line: usize,
) -> Submission {
    let map = &variant.map;
    let (parsed, diagnostics) = parse_orders(variant, position.turn.kind, text);
    let mut refused: Vec<ProvinceId> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| d.unit)
        .filter(|p| own_unit(map, position, power, *p))
        .collect();
    // Each error with its line, told in the order the lines were written.
    let mut errors: Vec<(usize, String)> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let line = d.line + first_line - 1;
            let said = tr!(
                words,
                "letter.line",
                line = line,
                message = words.message(&d.said)
            );
            (line, said)
        })
        .collect();
    let mut understood = Vec::new();
    let mut fresh = Vec::new();
    let mut lines = Vec::new();
    for p in parsed {
        let line = p.line + first_line - 1;
        match problem(map, rules, position, power, &p.order) {
            Some(why) => {
                if let Order::Unit(u) = &p.order
                    && own_unit(map, position, power, u.at.province)
                {
                    refused.push(u.at.province);
                }
                errors.push((
                    line,
                    tr!(
                        words,
                        "letter.line",
                        line = line,
                        message = tr!(
                            words,
                            "orders.illegal",
                            order = render(map, &p.order),
                            why = explain(words, why)
                        )
                    ),
                ))
            }
            None => {
                understood.push(render(map, &p.order));
                fresh.push(p.order);
                lines.push(line);
            }
        }
    }
    let warnings = not_allowed(map, rules, position, power, &fresh)
        .into_iter()
        .map(|(i, allowance)| {
            tr!(
                words,
                "letter.line",
                line = lines[i],
                message = tr!(
                    words,
                    "orders.not_allowed",
                    order = render(map, &fresh[i]),
                    why = explain_allowance(words, rules, allowance)
                )
            )
        })
        .collect();
    let orders = merge(map, position.turn.kind, in_force, fresh);
    refused.sort();
    refused.dedup();
    Submission {
        orders,
        errors: {
            errors.sort_by_key(|(line, _)| *line);
            errors.into_iter().map(|(_, said)| said).collect()
        },
        understood,
        warnings,
        refused,
    }
}

/// Whether an order about `province` is one for `power`'s own units this phase: a unit of
/// its there (movement), a dislodged unit of its (retreats); in adjustments every build and
/// removal it writes.
fn own_unit(map: &Map, position: &Position, power: PowerId, province: ProvinceId) -> bool {
    match position.turn.kind {
        PhaseKind::Movement => position
            .units
            .iter()
            .any(|u| u.power == power && map.province_of(u.region) == province),
        PhaseKind::Retreat => position
            .dislodged
            .iter()
            .any(|d| d.unit.power == power && map.province_of(d.unit.region) == province),
        PhaseKind::Adjustment => true,
    }
}

/// The units of `power` that `orders` give no order (movement and retreats; none in
/// adjustments, where `is_complete` counts builds and removals).
pub fn unordered(map: &Map, position: &Position, power: PowerId, orders: &[Order]) -> Vec<Unit> {
    let ordered = |province: ProvinceId| {
        orders
            .iter()
            .any(|o| matches!(o, Order::Unit(u) if u.at.province == province))
    };
    let units: Vec<Unit> = match position.turn.kind {
        PhaseKind::Movement => position.units.clone(),
        PhaseKind::Retreat => position.dislodged.iter().map(|d| d.unit).collect(),
        PhaseKind::Adjustment => Vec::new(),
    };
    units
        .into_iter()
        .filter(|u| u.power == power && !ordered(map.province_of(u.region)))
        .collect()
}

/// Adjustment orders that the adjudicator, given them all together as they will be, would
/// not carry out although each is legal alone (DATC 4.D.4: the first builds count; Diadochi
/// V rule 9: no more than two fleets a winter): their indices and why. In an adjustment
/// phase a letter's orders replace the earlier ones whole, so they are all there is.
fn not_allowed(
    map: &Map,
    rules: &Rules,
    position: &Position,
    power: PowerId,
    orders: &[Order],
) -> Vec<(usize, Allowance)> {
    if position.turn.kind != PhaseKind::Adjustment {
        return Vec::new();
    }
    let submitted: Vec<Submitted> = orders
        .iter()
        .map(|order| Submitted {
            power,
            order: order.clone(),
        })
        .collect();
    adjudicate(map, rules, position, &submitted)
        .outcomes
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match o {
            Outcome::NotAllowed(why) => Some((i, *why)),
            _ => None,
        })
        .collect()
}

/// Why an order could not be carried out on this board, if it could not.
fn problem(
    map: &Map,
    rules: &Rules,
    position: &Position,
    power: PowerId,
    order: &Order,
) -> Option<crate::diplomacy::adjudicate::Illegal> {
    let resolution = adjudicate(
        map,
        rules,
        position,
        &[Submitted {
            power,
            order: order.clone(),
        }],
    );
    match resolution.outcomes.first() {
        Some(Outcome::Illegal(why)) => Some(*why),
        _ => None,
    }
}

/// The province an order is about, which a later order for the same place replaces.
fn subject(order: &Order) -> Option<ProvinceId> {
    match order {
        Order::Unit(u) => Some(u.at.province),
        Order::Waive => None,
    }
}

/// Later orders replace earlier ones for the same unit; in adjustments a letter's orders
/// replace the whole earlier set, since builds and removals are counted together.
fn merge(_map: &Map, kind: PhaseKind, in_force: Vec<Order>, fresh: Vec<Order>) -> Vec<Order> {
    if fresh.is_empty() {
        return in_force;
    }
    if kind == PhaseKind::Adjustment {
        return fresh;
    }
    let mut out: Vec<Order> = in_force
        .into_iter()
        .filter(|old| !fresh.iter().any(|new| subject(new) == subject(old)))
        .collect();
    for order in fresh {
        out.retain(|o| subject(o) != subject(&order));
        out.push(order);
    }
    out
}

/// The powers that must send orders this phase.
pub fn powers_owing(map: &Map, position: &Position) -> Vec<PowerId> {
    let owed = adjustments(map, position);
    (0..map.powers.len())
        .map(|p| PowerId(p as u8))
        .filter(|p| match position.turn.kind {
            PhaseKind::Movement => position.units.iter().any(|u| u.power == *p),
            PhaseKind::Retreat => position.dislodged.iter().any(|d| d.unit.power == *p),
            PhaseKind::Adjustment => owed[p.index()] != 0,
        })
        .collect()
}

/// Whether `orders` give every unit (or every build and removal) of `power` an order.
pub fn is_complete(map: &Map, position: &Position, power: PowerId, orders: &[Order]) -> bool {
    let ordered = |province: ProvinceId| {
        orders
            .iter()
            .any(|o| matches!(o, Order::Unit(u) if u.at.province == province))
    };
    match position.turn.kind {
        PhaseKind::Movement => position
            .units
            .iter()
            .filter(|u| u.power == power)
            .all(|u| ordered(map.province_of(u.region))),
        PhaseKind::Retreat => position
            .dislodged
            .iter()
            .filter(|d| d.unit.power == power)
            .all(|d| ordered(map.province_of(d.unit.region))),
        PhaseKind::Adjustment => {
            let owed = adjustments(map, position)[power.index()];
            let builds = orders
                .iter()
                .filter(|o| {
                    matches!(o, Order::Waive)
                        || matches!(o, Order::Unit(u) if u.action == Action::Build)
                })
                .count() as i32;
            let removals = orders
                .iter()
                .filter(|o| matches!(o, Order::Unit(u) if u.action == Action::Disband))
                .count() as i32;
            if owed > 0 {
                builds >= owed
            } else {
                removals >= -owed
            }
        }
    }
}

/// The powers of `game` (on `position`, its board now) whose orders are missing, incomplete
/// or in error.
pub fn owing_powers(
    tx: &Tx,
    game: &GameRow,
    variant: &crate::variant::Variant,
    position: &crate::diplomacy::position::Position,
) -> rusqlite::Result<Vec<PowerId>> {
    Ok(owing_why(tx, game, variant, position)?
        .into_iter()
        .map(|(power, _)| power)
        .collect())
}

/// The powers of `game` still waited for, each with why.
pub fn owing_why(
    tx: &Tx,
    game: &GameRow,
    variant: &crate::variant::Variant,
    position: &crate::diplomacy::position::Position,
) -> rusqlite::Result<Vec<(PowerId, Owing)>> {
    let map = &variant.map;
    let mut missing = Vec::new();
    for power in powers_owing(map, position) {
        let owing = match tx.orders(game.id, game.phase_serial, &map.power(power).id)? {
            None => Some(Owing::Nothing),
            Some((_, true)) => Some(Owing::Refused),
            Some((lines, false)) => {
                let orders = stored_orders(variant, position.turn.kind, &lines);
                (!is_complete(map, position, power, &orders)).then_some(Owing::Incomplete)
            }
        };
        if let Some(owing) = owing {
            missing.push((power, owing));
        }
    }
    Ok(missing)
}
