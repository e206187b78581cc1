//! Retreat [R §14 steps 11-12, §14.1, §15.3; spec §7.2, §8.4]: after a battle the loser's
//! withdrawal into the fortifications and retreat (the attacker back where it came from, a
//! defender to any legal space), the winner's siege or retreat in a fortified space, the
//! besiegers' retreat when a siege is broken, elimination and capture when no space is legal,
//! and the default space when the deadline passes.

use super::board::{Force, LeaderPlace, Marks, UnitKind, Units};
use super::course::{
    Alone, Cx, Fought, Move, Stop, closed, go_inside, lay_siege, leader_not_there, lone_leaders,
    not_there, side_force, side_units, siege_due,
};
use super::event::Event;
use super::lang::Case;
use super::map::SpaceId;
use super::power::Power;
use super::question::{Answer, Question};
use crate::message::Message;
use crate::msg;

/// The order of units withdrawn inside after a lost battle when the deadline passes.
pub const DEFAULT_WITHDRAWAL: [UnitKind; 3] =
    [UnitKind::Regular, UnitKind::Cavalry, UnitKind::Mercenary];

/// Steps 11 and 12 of the battle: the loser retreats; a winning attacker in a fortified space
/// lays a siege, or retreats if it is not larger than the units inside.
pub(super) fn after_battle(cx: &mut Cx<'_>, mv: &mut Move, fought: &Fought) -> Result<(), Stop> {
    if fought.attacker_won {
        for side in &fought.sides {
            defender_retreat(cx, mv, *side, mv.power)?;
        }
        if siege_due(cx, mv) && !lay_siege(cx, mv) {
            siege_retreat(cx, mv)?;
        }
    } else {
        let lost = msg!("his.retreat.lost");
        attacker(cx, mv, fought.lead, true, &lost);
    }
    Ok(())
}

/// Why `power` (a side) may not retreat from `from` into `to`; `entered_from` is the space the
/// enemy came from when the defender retreats.
pub(super) fn barred(
    cx: &Cx<'_>,
    power: Power,
    from: SpaceId,
    to: SpaceId,
    entered_from: Option<SpaceId>,
) -> Option<Message> {
    let came = entered_from.map(|s| {
        let name = cx.map.space(s).names();
        (s, msg!("his.retreat.enemy_came_from", space = name))
    });
    closed(cx, power, from, to, came.as_ref().map(|(s, p)| (*s, p)))
}

/// A siege ends once its besiegers there are no longer more than the units inside (they left,
/// lost a battle, avoided one) [R §15.3]; then nothing of it stays behind: the besiegers still
/// outside retreat at no CP cost to a legal adjacent space of their choice (eliminated, their
/// leaders captured, if none is open), and with no enemy left in the space the units inside
/// come out when the move ends (`Board::tidy`), free to move [seed 004, 13.2: "ранее
/// осажденная группировка" — once the besiegers leave, the group is formerly besieged].
pub(super) fn siege_check(cx: &mut Cx<'_>, space: SpaceId) -> Result<(), Stop> {
    let Some(siege) = cx.board.siege(space).cloned() else {
        return Ok(());
    };
    let besiegers: u32 = siege
        .besiegers
        .iter()
        .map(|p| side_units(cx, space, *p, false))
        .sum();
    let inside_powers = cx.board.powers_in(space, true);
    let inside: u32 = inside_powers
        .iter()
        .map(|p| cx.board.units(space, *p, true).total())
        .sum();
    if besiegers > inside {
        return Ok(());
    }
    cx.board.sieges.retain(|s| s.space != space);
    let name = cx.map.space(space).names();
    cx.note(Event::SiegeBroken {
        at: space,
        reason: msg!(
            "his.retreat.siege_too_weak",
            besiegers = besiegers,
            inside = inside
        ),
    });
    let by = inside_powers
        .first()
        .copied()
        .unwrap_or_else(|| cx.board.controller(space));
    for power in siege.besiegers {
        let force = side_force(cx, space, power);
        if force.is_empty() {
            continue;
        }
        let options = spaces(cx, power, space, None);
        if options.is_empty() {
            destroy(
                cx,
                &force,
                space,
                by,
                &msg!("his.retreat.siege_broken_nowhere", space = name),
            );
            continue;
        }
        let to = retreat_choice(cx, power, space, options)?;
        move_force(cx, &force, space, to, |_| {});
        cx.note(Event::Retreated {
            power,
            force: force.clone(),
            from: space,
            to,
            reason: msg!("his.retreat.besiegers_retreat", space = name),
        });
        lone_leaders(cx, to, power, Alone::Entered);
    }
    Ok(())
}

/// The spaces a defender may retreat to.
pub(super) fn spaces(
    cx: &Cx<'_>,
    power: Power,
    from: SpaceId,
    entered_from: Option<SpaceId>,
) -> Vec<SpaceId> {
    cx.map
        .space(from)
        .land
        .iter()
        .map(|(s, _)| *s)
        .filter(|s| barred(cx, power, from, *s, entered_from).is_none())
        .collect()
}

/// The space taken when the deadline passes: a fortified space the power controls, else a space
/// it controls, else an ally's; the first on the map among equals.
pub(super) fn default_space(cx: &Cx<'_>, power: Power, options: &[SpaceId]) -> Option<SpaceId> {
    let board = &cx.board;
    let rank = |s: &SpaceId| {
        let own = board.diplomacy.side(board.controller(*s)) == power;
        let fortified = board.fortified(cx.map, *s);
        match (own, fortified) {
            (true, true) => 0,
            (true, false) => 1,
            (false, true) => 2,
            (false, false) => 3,
        }
    };
    options.iter().min_by_key(|s| (rank(s), **s)).copied()
}

/// Moves a force from `from` to `to` (outside), marking it.
pub(super) fn move_force(
    cx: &mut Cx<'_>,
    force: &Force,
    from: SpaceId,
    to: SpaceId,
    mark: impl Fn(&mut Marks) + Copy,
) {
    for (p, u) in &force.units {
        let parts = cx
            .board
            .take_units(from, *p, false, *u, |_| true)
            .unwrap_or_default();
        cx.board.put_detachments(parts, to, false, mark);
    }
    for l in &force.leaders {
        let state = cx.board.leader_mut(*l);
        state.place = LeaderPlace::Space {
            space: to,
            inside: false,
        };
        mark(&mut state.marks);
    }
}

/// Eliminates a force's units and captures its leaders.
pub(super) fn destroy(cx: &mut Cx<'_>, force: &Force, at: SpaceId, by: Power, reason: &Message) {
    for (p, u) in &force.units {
        cx.board.remove_units(at, *p, false, *u);
        cx.note(Event::Eliminated {
            power: *p,
            units: *u,
            reason: reason.clone(),
        });
    }
    for l in &force.leaders {
        cx.board.leader_mut(*l).place = LeaderPlace::Captured { by };
        cx.note(Event::Captured {
            leader: *l,
            by,
            reason: reason.clone(),
        });
    }
}

/// The attacker goes back to the space it came from, if it may; else it is eliminated and its
/// leaders captured by `by`. `lost` marks it as having lost a battle.
pub(super) fn attacker(cx: &mut Cx<'_>, mv: &mut Move, by: Power, lost: bool, reason: &Message) {
    let at = mv.to;
    let force = side_force(cx, at, mv.power);
    if force.is_empty() {
        return;
    }
    if lost {
        for (p, _) in &force.units {
            cx.board.mark_units(at, *p, false, |m| m.lost_battle = true);
        }
    }
    // Units that moved on past the origin's fortifications are eliminated if forced back.
    let mut force = force;
    for (p, _) in force.units.clone() {
        let back = cx
            .board
            .units_where(at, p, false, |m| m.passed_fortification == Some(mv.from));
        if !back.is_empty() {
            cx.board.take_units(at, p, false, back, |m| {
                m.passed_fortification == Some(mv.from)
            });
            cx.note(Event::Eliminated {
                power: p,
                units: back,
                reason: msg!(
                    "his.retreat.forced_back",
                    space = cx.map.space(mv.from).names()
                ),
            });
            force.units.retain(|(q, _)| *q != p);
            force.add(p, cx.board.units(at, p, false));
        }
    }
    match barred(cx, mv.power, at, mv.from, None) {
        None => {
            move_force(cx, &force, at, mv.from, |m| {
                if lost {
                    m.lost_battle = true;
                }
            });
            cx.note(Event::Retreated {
                power: mv.power,
                force: force.clone(),
                from: at,
                to: mv.from,
                reason: msg!("his.retreat.goes_back", reason = *reason),
            });
            if force.land_units() > 0 {
                lone_leaders(cx, mv.from, mv.power, Alone::Entered);
            }
        }
        Some(why) => {
            let reason = msg!("his.retreat.no_way_back", reason = *reason, why = why);
            destroy(cx, &force, at, by, &reason);
        }
    }
    mv.force = Force::default();
}

/// A defending group that lost: withdrawal first, then retreat, or (inactive minors and
/// independents) up to 4 inside and the rest eliminated [R §14.1, §22.1, §22.6].
fn defender_retreat(cx: &mut Cx<'_>, mv: &Move, side: Power, winner: Power) -> Result<(), Stop> {
    let at = mv.to;
    let name = cx.map.space(at).names();
    let fortified = cx.board.fortified(cx.map, at);
    let d = cx.board.diplomacy.clone();
    let force = side_force(cx, at, side);
    if force.is_empty() {
        return Ok(());
    }
    for (p, _) in &force.units {
        cx.board.mark_units(at, *p, false, |m| m.lost_battle = true);
    }
    for l in &force.leaders {
        cx.board.leader_mut(*l).marks.lost_battle = true;
    }
    if !d.acts(side) {
        let inside = if fortified {
            force.all_units().take_in_order(4, &DEFAULT_WITHDRAWAL)
        } else {
            Units::NONE
        };
        let go = Force::of(side, inside);
        if !inside.is_empty() {
            go_inside(cx, at, &go);
            cx.note(Event::Withdrew {
                force: go,
                at,
                reason: msg!(
                    "his.retreat.four_inside",
                    power = side.named(Case::Nom),
                    power_n = side.number()
                ),
            });
        }
        let rest = force.all_units().minus(inside).unwrap_or_default();
        if !rest.is_empty() {
            cx.board.remove_units(at, side, false, rest);
            cx.note(Event::Eliminated {
                power: side,
                units: rest,
                reason: msg!(
                    "his.retreat.no_retreat",
                    power = side.named(Case::Nom),
                    power_n = side.number()
                ),
            });
        }
        return Ok(());
    }
    let controller = cx.board.controller(at);
    if fortified && d.side(controller) == side {
        let available = force.clone();
        let check = |cx: &Cx<'_>, _: Power, a: &Answer| match a {
            Answer::WithdrawInside(f) => {
                for (p, u) in &f.units {
                    if !available.units_of(*p).contains(*u) {
                        return Err(not_there(*p, available.units_of(*p), *u));
                    }
                }
                if let Some(l) = f.leaders.iter().find(|l| !available.leaders.contains(l)) {
                    return Err(leader_not_there(&cx.map.leader(*l).name));
                }
                if f.land_units() > 4 {
                    return Err(msg!("his.retreat.at_most_four"));
                }
                Ok(())
            }
            Answer::Stay => Ok(()),
            _ => Err(msg!("his.retreat.withdraw_form")),
        };
        let default_force = {
            let mut f = Force::default();
            let mut left = 4u32;
            for kind in DEFAULT_WITHDRAWAL {
                for (p, u) in &force.units {
                    let t = u.get(kind).min(left);
                    if t > 0 {
                        let mut x = Units::NONE;
                        *x.get_mut(kind) = t;
                        f.add(*p, x);
                        left -= t;
                    }
                }
            }
            f.leaders = force.leaders.clone();
            f
        };
        let answer = cx.ask_one(
            Question::WithdrawAfterDefeat {
                power: side,
                at,
                available: force.clone(),
            },
            side,
            &check,
            &|_, _| Answer::WithdrawInside(default_force.clone()),
        )?;
        if let Answer::WithdrawInside(f) = answer
            && !f.is_empty()
        {
            go_inside(cx, at, &f);
            cx.note(Event::Withdrew {
                force: f,
                at,
                reason: msg!(
                    "his.retreat.lost_at_home",
                    power = side.named(Case::Nom),
                    power_dat = side.named(Case::Dat),
                    space = name
                ),
            });
        }
    }
    let force = side_force(cx, at, side);
    if force.is_empty() {
        return Ok(());
    }
    let options = spaces(cx, side, at, Some(mv.from));
    if options.is_empty() {
        destroy(cx, &force, at, winner, &msg!("his.retreat.lost_nowhere"));
        return Ok(());
    }
    let to = retreat_choice(cx, side, at, options)?;
    move_force(cx, &force, at, to, |m| m.lost_battle = true);
    cx.note(Event::Retreated {
        power: side,
        force: force.clone(),
        from: at,
        to,
        reason: msg!("his.retreat.lost"),
    });
    if force.land_units() > 0 {
        lone_leaders(cx, to, side, Alone::Entered);
    }
    Ok(())
}

/// Asks `side` where it retreats from `at`.
fn retreat_choice(
    cx: &mut Cx<'_>,
    side: Power,
    at: SpaceId,
    options: Vec<SpaceId>,
) -> Result<SpaceId, Stop> {
    let first = default_space(cx, side, &options).unwrap_or(options[0]);
    let allowed = options.clone();
    let check = |cx: &Cx<'_>, _: Power, a: &Answer| match a {
        Answer::RetreatTo(s) if allowed.contains(s) => Ok(()),
        Answer::RetreatTo(s) => {
            let name = cx.map.space(*s).names();
            Err(msg!("his.retreat.may_not", space = name))
        }
        _ => Err(msg!("his.parse.answer", form = msg!("his.forms.retreat"))),
    };
    let answer = cx.ask_one(
        Question::Retreat {
            power: side,
            from: at,
            destinations: options,
        },
        side,
        &check,
        &|_, _| Answer::RetreatTo(first),
    )?;
    Ok(match answer {
        Answer::RetreatTo(s) => s,
        _ => first,
    })
}

/// The attacker won in a fortified space but is not larger than the units inside: it retreats
/// to any legal adjacent space [R §14 step 12, §15.3].
fn siege_retreat(cx: &mut Cx<'_>, mv: &mut Move) -> Result<(), Stop> {
    let at = mv.to;
    let force = side_force(cx, at, mv.power);
    if force.is_empty() {
        return Ok(());
    }
    let by = cx.board.controller(at);
    let options = spaces(cx, mv.power, at, None);
    if options.is_empty() {
        destroy(cx, &force, at, by, &msg!("his.retreat.not_larger_nowhere"));
        mv.force = Force::default();
        return Ok(());
    }
    let to = retreat_choice(cx, mv.power, at, options)?;
    move_force(cx, &force, at, to, |_| {});
    cx.note(Event::Retreated {
        power: mv.power,
        force,
        from: at,
        to,
        reason: msg!("his.retreat.won_not_larger"),
    });
    mv.force = Force::default();
    Ok(())
}
