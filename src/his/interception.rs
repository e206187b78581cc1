//! Step 5, interception [R §13.2; spec §4]: which powers and stacks may try, in impulse order,
//! every restriction with the reason it bars a power or a stack, the 2d6 roll and what a success
//! or a failure does.

use super::board::{Force, LeaderPlace, Marks};
use super::course::{Alone, Cx, Move, Stop, electorate, lone_leaders, modifier_details, modifiers};
use super::event::{Check, Event};
use super::lang::Case;
use super::map::{Crossing, SpaceId};
use super::power::Power;
use super::question::{Answer, Question};
use crate::message::Message;
use crate::msg;

/// Runs the interceptions; returns the power that succeeded, if one did.
pub(super) fn run(cx: &mut Cx<'_>, mv: &Move) -> Result<Option<Power>, Stop> {
    if let Some(reason) = barred_move(cx, mv) {
        cx.note(Event::NoInterception {
            power: None,
            from: None,
            reason,
        });
        return Ok(None);
    }
    let mut used: Vec<SpaceId> = Vec::new();
    let mut succeeded: Option<Power> = None;
    for power in Power::MAJOR {
        if power == mv.power {
            continue;
        }
        if !cx.board.diplomacy.at_war(power, mv.power) {
            if let Some(reason) = not_at_war(cx, mv, power) {
                cx.note(Event::NoInterception {
                    power: Some(power),
                    from: None,
                    reason,
                });
            }
            continue;
        }
        if let Some(winner) = succeeded
            && winner != power
        {
            if !stacks(cx, mv, power, &used, false).is_empty() {
                cx.note(Event::NoInterception {
                    power: Some(power),
                    from: None,
                    reason: msg!("his.interception.already", power = winner.named(Case::Nom)),
                });
            }
            continue;
        }
        if let Some(reason) = barred_power(cx, mv, power) {
            if !stacks(cx, mv, power, &used, false).is_empty() {
                cx.note(Event::NoInterception {
                    power: Some(power),
                    from: None,
                    reason,
                });
            }
            continue;
        }
        // The power tries from one space after another until it declines or has none left.
        let mut first = true;
        loop {
            let options = stacks(cx, mv, power, &used, first);
            first = false;
            if options.is_empty() {
                break;
            }
            let into = mv.to;
            let check = |cx: &Cx<'_>, p: Power, a: &Answer| check_answer(cx, mv, p, a, &options);
            let answer = cx.ask_one(
                Question::Intercept {
                    power,
                    into,
                    options: options.clone(),
                },
                power,
                &check,
                &|_, _| Answer::Decline,
            )?;
            let Answer::Intercept { from, force } = answer else {
                break;
            };
            used.push(from);
            if attempt(cx, mv, power, from, &force)? {
                succeeded = Some(power);
            }
        }
    }
    Ok(succeeded)
}

/// Whether the move may be intercepted at all, and if not why.
fn barred_move(cx: &Cx<'_>, mv: &Move) -> Option<Message> {
    let (map, board) = (cx.map, &cx.board);
    let d = &board.diplomacy;
    let to = mv.to;
    let controller = board.controller(to);
    if board.fortified(map, to) && d.friendly(mv.power, controller) && board.siege(to).is_none() {
        let name = map.space(to).names();
        return Some(msg!(
            "his.interception.friendly_fortress",
            space = name,
            mover = mv.power.named(Case::Nom),
            mover_dat = mv.power.named(Case::Dat)
        ));
    }
    if board.siege(to).is_some() && !board.powers_in(to, true).is_empty() {
        let name = map.space(to).names();
        return Some(msg!("his.interception.besieged_there", space = name));
    }
    if board.is_electorate(map, to) && !d.schmalkaldic_league {
        return Some(electorate(map.space(to).names()));
    }
    None
}

/// Why `power`, not at war with the mover, is not asked [seed 004, 13.2: "могут перехватывать
/// только части державы, которая находится в состоянии войны с активной державой"], said where
/// it might be expected to: its side has land units in the destination (entry rule 4.3 makes
/// them enemies to fight, not interceptors) and adjacent stacks.
fn not_at_war(cx: &mut Cx<'_>, mv: &Move, power: Power) -> Option<Message> {
    let d = &cx.board.diplomacy;
    let in_destination = cx
        .board
        .powers_in(mv.to, false)
        .iter()
        .any(|p| d.side(*p) == power);
    if !in_destination || stacks(cx, mv, power, &[], false).is_empty() {
        return None;
    }
    let mover = mv.power;
    Some(msg!(
        "his.interception.not_at_war",
        power = power.named(Case::Nom),
        power_n = power.number(),
        mover = mover.named(Case::Nom),
        mover_ins = mover.named(Case::Ins)
    ))
}

/// Why `power` may not intercept into the destination at all.
fn barred_power(cx: &Cx<'_>, mv: &Move, power: Power) -> Option<Message> {
    let (map, board) = (cx.map, &cx.board);
    let d = &board.diplomacy;
    let to = mv.to;
    let name = map.space(to).names();
    let occupants = board.powers_anywhere_in(to);
    if let Some(other) = occupants
        .iter()
        .find(|p| !(d.side(**p) == power || d.allied(**p, power)))
    {
        return Some(msg!(
            "his.interception.occupied",
            space = name,
            power = other.named(Case::Nom),
            power_gen = other.named(Case::Gen)
        ));
    }
    let controller = board.controller(to);
    if controller != Power::Independent
        && d.side(controller) != power
        && !d.at_war(power, controller)
        && !d.allied(power, controller)
    {
        return Some(msg!(
            "his.interception.neutral",
            space = name,
            controller = controller.named(Case::Nom),
            controller_gen = controller.named(Case::Gen)
        ));
    }
    None
}

/// The stacks of `power` (and its active minors) adjacent to the destination that may try, with
/// what each may send. With `note`, records why other adjacent stacks may not.
fn stacks(
    cx: &mut Cx<'_>,
    mv: &Move,
    power: Power,
    used: &[SpaceId],
    note: bool,
) -> Vec<(SpaceId, Force)> {
    let map = cx.map;
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for &(space, crossing) in &map.space(mv.to).land {
        let board = &cx.board;
        let d = &board.diplomacy;
        let side: Vec<Power> = Power::ALL
            .into_iter()
            .filter(|p| d.acts(*p) && d.side(*p) == power)
            .collect();
        let mut force = Force::default();
        let mut any = Force::default();
        for p in &side {
            force.add(*p, board.units_where(space, *p, false, |m| !m.intercepted));
            any.add(*p, board.units(space, *p, false));
            any.add(*p, board.units(space, *p, true));
        }
        for l in &board.leaders {
            if l.power == power {
                match l.place {
                    LeaderPlace::Space { space: s, inside } if s == space => {
                        any.leaders.push(l.id);
                        if !inside && !l.marks.intercepted {
                            force.leaders.push(l.id);
                        }
                    }
                    _ => {}
                }
            }
        }
        if any.is_empty() {
            continue;
        }
        let reason = if crossing == Crossing::Pass {
            let (a, b) = (map.space(space).names(), map.space(mv.to).names());
            Some(msg!("his.interception.pass", a = a, b = b))
        } else if used.contains(&space) {
            None // one attempt from each space; already recorded
        } else if force.is_empty() {
            if any.land_units() > 0 && board.powers_in(space, true).contains(&power) {
                Some(msg!("his.interception.under_siege"))
            } else {
                Some(msg!("his.interception.tried"))
            }
        } else if force.land_units() == 0 && !friendly_units_in(cx, mv.to, power) {
            Some(leaders_alone())
        } else {
            out.push((space, force));
            continue;
        };
        if let Some(r) = reason {
            notes.push((space, r));
        }
    }
    if note {
        for (space, reason) in notes {
            cx.note(Event::NoInterception {
                power: Some(power),
                from: Some(space),
                reason,
            });
        }
    }
    out
}

fn leaders_alone() -> Message {
    msg!("his.interception.leaders_alone")
}

fn friendly_units_in(cx: &Cx<'_>, space: SpaceId, power: Power) -> bool {
    let d = &cx.board.diplomacy;
    cx.board
        .powers_anywhere_in(space)
        .iter()
        .any(|p| d.friendly(*p, power))
}

fn check_answer(
    cx: &Cx<'_>,
    mv: &Move,
    _power: Power,
    answer: &Answer,
    options: &[(SpaceId, Force)],
) -> Result<(), Message> {
    let map = cx.map;
    match answer {
        Answer::Decline => Ok(()),
        Answer::Intercept { from, force } => {
            let Some((_, available)) = options.iter().find(|(s, _)| s == from) else {
                let name = map.space(*from).names();
                return Err(msg!("his.interception.not_from", space = name));
            };
            if force.is_empty() {
                return Err(msg!("his.interception.name_them"));
            }
            for (p, u) in &force.units {
                if !available.units_of(*p).contains(*u) {
                    let there = available.units_of(*p);
                    return Err(msg!(
                        "his.interception.units_not_there",
                        power = p.named(Case::Nom),
                        power_gen = p.named(Case::Gen),
                        there = there.describe(),
                        named = u.describe()
                    ));
                }
            }
            for l in &force.leaders {
                if !available.leaders.contains(l) {
                    let (name, space) = (&map.leader(*l).name, map.space(*from).names());
                    return Err(msg!(
                        "his.interception.leader_not_from",
                        leader = name,
                        space = space
                    ));
                }
            }
            let limit = force.command_limit(map);
            if force.land_units() > limit {
                let units = force.land_units();
                return Err(msg!("his.refusal.too_many", units = units, limit = limit));
            }
            if force.land_units() == 0 && !friendly_units_in(cx, mv.to, _power) {
                return Err(leaders_alone());
            }
            Ok(())
        }
        _ => Err(msg!("his.parse.answer", form = msg!("his.forms.intercept"))),
    }
}

/// One attempt: roll, then place the interceptors or mark them.
fn attempt(
    cx: &mut Cx<'_>,
    mv: &Move,
    power: Power,
    from: SpaceId,
    force: &Force,
) -> Result<bool, Stop> {
    let opposing_cavalry = mv.force.units_of(Power::Ottoman).cavalry > 0;
    let modifiers = modifiers(cx, power, force, opposing_cavalry);
    let what = format!(
        "{power} interception from {} into {}",
        cx.map.space(from).name,
        cx.map.space(mv.to).name
    );
    let dice = cx.roll(2, power, what, modifier_details(&modifiers))?;
    let check = Check::new(dice, modifiers);
    let success = check.success;
    cx.note(Event::Interception {
        power,
        from,
        force: force.clone(),
        check,
    });
    let (space, inside) = if success {
        (mv.to, false)
    } else {
        (from, false)
    };
    for (p, u) in &force.units {
        let parts = cx
            .board
            .take_units(from, *p, false, *u, |m| !m.intercepted)
            .unwrap_or_default();
        cx.board
            .put_detachments(parts, space, inside, |m: &mut Marks| m.intercepted = true);
    }
    for l in &force.leaders {
        let state = cx.board.leader_mut(*l);
        state.marks.intercepted = true;
        state.place = LeaderPlace::Space { space, inside };
    }
    if success {
        lone_leaders(cx, mv.to, power, Alone::Entered);
    }
    Ok(success)
}
