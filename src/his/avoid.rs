//! Step 6, avoiding battle [R §13.3; spec §5]: each major power with land units in the
//! destination, in impulse order, may name a space and a group that tries to leave; the
//! restrictions on the space and on who may go, the 2d6 roll, the automatic success of units
//! that all lost a battle this impulse.

use super::board::{Force, LeaderPlace};
use super::event::{Check, Event};
use super::interception::{modifier_text, modifiers};
use super::map::SpaceId;
use super::movement::Move;
use super::power::Power;
use super::procedure::{Answer, Cx, Question, Stop};

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
                cx.note(Event::NoAvoid {
                    power: Some(power),
                    reason: "units under siege may not avoid battle".into(),
                });
            }
            continue;
        }
        if available.land_units() == 0 {
            cx.note(Event::NoAvoid {
                power: Some(power),
                reason: "a leader alone may not avoid battle".into(),
            });
            continue;
        }
        let destinations = destinations(cx, mv, power);
        if destinations.is_empty() {
            cx.note(Event::NoAvoid {
                power: Some(power),
                reason: format!(
                    "no adjacent space may be entered from {}",
                    cx.map.space(mv.to).name
                ),
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

/// Why `power` may not avoid battle into `space`.
pub(super) fn barred(cx: &Cx<'_>, mv: &Move, power: Power, space: SpaceId) -> Option<String> {
    let (map, board) = (cx.map, &cx.board);
    let d = &board.diplomacy;
    let name = &map.space(space).name;
    if map.space(space).is_sea() {
        return Some(format!("{name} is a sea zone"));
    }
    if map.crossing(mv.to, space).is_none() {
        return Some(format!("{name} is not adjacent"));
    }
    if space == mv.from {
        return Some(format!("the moving formation has just left {name}"));
    }
    if board.in_unrest(space) {
        return Some(format!("{name} is in unrest"));
    }
    if let Some(e) = board
        .powers_anywhere_in(space)
        .into_iter()
        .find(|p| d.enemies(power, *p))
    {
        return Some(format!("{name} holds {e} units"));
    }
    let controller = board.controller(space);
    if controller == Power::Independent {
        return Some(format!("{name} is independent"));
    }
    if controller != power && !d.allied(power, controller) {
        return Some(format!("{name} is controlled by {controller}, not an ally"));
    }
    if board.is_electorate(map, space) && !d.schmalkaldic_league && power != Power::Protestant {
        return Some(format!(
            "{name} is an electorate and the Schmalkaldic League has not been played"
        ));
    }
    None
}

fn check_answer(
    cx: &Cx<'_>,
    mv: &Move,
    power: Power,
    answer: &Answer,
    available: &Force,
) -> Result<(), String> {
    match answer {
        Answer::Stay => Ok(()),
        Answer::Avoid { to, force } => {
            if let Some(why) = barred(cx, mv, power, *to) {
                return Err(format!(
                    "may not avoid battle to {}: {why}",
                    cx.map.space(*to).name
                ));
            }
            if force.is_empty() {
                return Err("name the units and leaders that avoid battle".into());
            }
            for (p, u) in &force.units {
                if !available.units_of(*p).contains(*u) {
                    return Err(format!("{p} has {} there, not {u}", available.units_of(*p)));
                }
            }
            if let Some(l) = force
                .leaders
                .iter()
                .find(|l| !available.leaders.contains(l))
            {
                return Err(format!("{} is not there", cx.map.leader(*l).name));
            }
            Ok(())
        }
        _ => Err("answer AVOID TO <space> WITH <units and leaders>, or STAY".into()),
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
    let board = &cx.board;
    let all_lost = force.units.iter().all(|(p, u)| {
        board
            .units_where(mv.to, *p, false, |m| m.lost_battle)
            .contains(*u)
    }) && force
        .leaders
        .iter()
        .all(|l| board.leader(*l).marks.lost_battle);
    let check = if all_lost {
        None
    } else {
        let opposing_cavalry = mv.force.units_of(Power::Ottoman).cavalry > 0;
        let modifiers = modifiers(cx, power, force, opposing_cavalry);
        let purpose = format!(
            "2d6, {power} avoiding battle from {} to {}{}",
            cx.map.space(mv.to).name,
            cx.map.space(to).name,
            modifier_text(&modifiers)
        );
        let dice = cx.roll(2, power, purpose)?;
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
        super::movement::lone_leaders(cx, to, power);
    }
    Ok(())
}
