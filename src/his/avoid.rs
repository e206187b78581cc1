//! Step 6, avoiding battle [R §13.3; spec §5]: each major power with land units in the
//! destination, in impulse order, may name a space and a group that tries to leave; the
//! restrictions on the space and on who may go, the 2d6 roll, the automatic success of units
//! that all lost a battle this impulse.

use super::board::{Force, LeaderPlace};
use super::course::{
    Alone, Cx, Move, Stop, closed, leader_not_there, lone_leaders, modifier_details, modifiers,
    not_there,
};
use super::event::{Check, Event};
use super::map::SpaceId;
use super::power::Power;
use super::question::{Answer, Question};
use crate::message::Message;
use crate::msg;

/// Runs the avoid-battle attempts.
pub(super) fn run(cx: &mut Cx<'_>, mv: &Move) -> Result<(), Stop> {
    for power in Power::MAJOR {
        if power == mv.power {
            continue;
        }
        if cx.board.diplomacy.friendly(power, mv.power) {
            continue;
        }
        let available = available(cx, mv, power);
        if available.is_empty() {
            if cx
                .board
                .powers_in(mv.to, true)
                .iter()
                .any(|p| cx.board.diplomacy.side(*p) == power)
            {
                let reason = if cx.board.siege(mv.to).is_some() {
                    msg!("his.avoid.besieged")
                } else {
                    msg!("his.avoid.inside")
                };
                cx.note(Event::NoAvoid {
                    power: Some(power),
                    reason,
                });
            }
            continue;
        }
        if available.land_units() == 0 {
            cx.note(Event::NoAvoid {
                power: Some(power),
                reason: msg!("his.avoid.leader_alone"),
            });
            continue;
        }
        let destinations = destinations(cx, mv, power);
        if destinations.is_empty() {
            cx.note(Event::NoAvoid {
                power: Some(power),
                reason: msg!("his.avoid.nowhere", space = cx.map.space(mv.to).names()),
            });
            continue;
        }
        let check = |cx: &Cx<'_>, p: Power, a: &Answer| check_answer(cx, mv, p, a, &available);
        let answer = cx.ask_one(
            Question::AvoidBattle {
                power,
                at: mv.to,
                destinations: destinations.clone(),
                available: available.clone(),
            },
            power,
            &check,
            &|_, _| Answer::Stay,
        )?;
        if let Answer::Avoid { to, force } = answer {
            attempt(cx, mv, power, to, &force)?;
        }
    }
    Ok(())
}

/// What `power` (with its active minors) has in the destination that may try to leave: land
/// units and leaders outside the fortifications.
pub(super) fn available(cx: &Cx<'_>, mv: &Move, power: Power) -> Force {
    let board = &cx.board;
    let d = &board.diplomacy;
    let mut f = Force::default();
    for p in Power::ALL {
        if d.acts(p) && d.side(p) == power {
            f.add(p, board.units(mv.to, p, false));
        }
    }
    f.leaders = board
        .leaders
        .iter()
        .filter(|l| {
            l.power == power
                && l.place
                    == LeaderPlace::Space {
                        space: mv.to,
                        inside: false,
                    }
        })
        .map(|l| l.id)
        .collect();
    f
}

/// The spaces `power` may avoid battle to [spec §5.1].
pub(super) fn destinations(cx: &Cx<'_>, mv: &Move, power: Power) -> Vec<SpaceId> {
    cx.map
        .space(mv.to)
        .land
        .iter()
        .map(|(s, _)| *s)
        .filter(|s| barred(cx, mv, power, *s).is_none())
        .collect()
}

/// Why `power` may not avoid battle into `space` [seed 003, restrictions].
pub(super) fn barred(cx: &Cx<'_>, mv: &Move, power: Power, space: SpaceId) -> Option<Message> {
    let name = cx.map.space(mv.from).names();
    let left = msg!("his.avoid.just_left", space = name);
    closed(cx, power, mv.to, space, Some((mv.from, &left)))
}

fn check_answer(
    cx: &Cx<'_>,
    mv: &Move,
    power: Power,
    answer: &Answer,
    available: &Force,
) -> Result<(), Message> {
    match answer {
        Answer::Stay => Ok(()),
        Answer::Avoid { to, force } => {
            if let Some(why) = barred(cx, mv, power, *to) {
                let name = cx.map.space(*to).names();
                return Err(msg!("his.avoid.barred_to", space = name, why = why));
            }
            if force.is_empty() {
                return Err(msg!("his.avoid.name_them"));
            }
            for (p, u) in &force.units {
                if !available.units_of(*p).contains(*u) {
                    return Err(not_there(*p, available.units_of(*p), *u));
                }
            }
            if let Some(l) = force
                .leaders
                .iter()
                .find(|l| !available.leaders.contains(l))
            {
                return Err(leader_not_there(&cx.map.leader(*l).name));
            }
            Ok(())
        }
        _ => Err(msg!("his.avoid.answer_form")),
    }
}

/// One attempt; on success the group moves.
fn attempt(
    cx: &mut Cx<'_>,
    mv: &Move,
    power: Power,
    to: SpaceId,
    force: &Force,
) -> Result<(), Stop> {
    // Seed 003 step 4: the exception asks only that every unit (отряд) of the group lost a
    // field battle earlier this impulse; leaders are not units. A group must hold a unit for
    // "all its units" to say anything.
    let board = &cx.board;
    let all_lost = force.land_units() > 0
        && force.units.iter().all(|(p, u)| {
            board
                .units_where(mv.to, *p, false, |m| m.lost_battle)
                .contains(*u)
        });
    let check = if all_lost {
        None
    } else {
        let opposing_cavalry = mv.force.units_of(Power::Ottoman).cavalry > 0;
        let modifiers = modifiers(cx, power, force, opposing_cavalry);
        let what = format!(
            "{power} avoiding battle from {} to {}",
            cx.map.space(mv.to).name,
            cx.map.space(to).name
        );
        let dice = cx.roll(2, power, what, modifier_details(&modifiers))?;
        Some(Check::new(dice, modifiers))
    };
    let success = check.as_ref().is_none_or(|c| c.success);
    cx.note(Event::AvoidBattle {
        power,
        to,
        force: force.clone(),
        check,
    });
    if success {
        for (p, u) in &force.units {
            let lost_first = all_lost;
            let parts = cx
                .board
                .take_units(mv.to, *p, false, *u, |m| !lost_first || m.lost_battle)
                .unwrap_or_default();
            cx.board.put_detachments(parts, to, false, |_| {});
        }
        for l in &force.leaders {
            cx.board.leader_mut(*l).place = LeaderPlace::Space {
                space: to,
                inside: false,
            };
        }
        lone_leaders(cx, to, power, Alone::Entered);
        lone_leaders(cx, mv.to, mv.power, Alone::LeftBehind);
    }
    Ok(())
}
