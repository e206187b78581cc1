//! Retreat [R §14.1; spec §7.2]: where a losing force may go, the attacker's duty to go back
//! where it came from, elimination and capture when no space is legal, and the default space
//! when the deadline passes.

use super::board::{Force, LeaderPlace, Marks};
use super::event::Event;
use super::lang::{Case, Lang, Phrase};
use super::map::SpaceId;
use super::movement::{Move, lone_leaders};
use super::power::Power;
use super::procedure::Cx;

/// Why `power` (a side) may not retreat from `from` into `to`; `entered_from` is the space the
/// enemy came from when the defender retreats.
pub(super) fn barred(
    cx: &Cx<'_>,
    power: Power,
    from: SpaceId,
    to: SpaceId,
    entered_from: Option<SpaceId>,
) -> Option<Phrase> {
    let (map, board) = (cx.map, &cx.board);
    let d = &board.diplomacy;
    let name = &map.space(to).name;
    if map.space(to).is_sea() {
        return Some(sea(name));
    }
    if map.crossing(from, to).is_none() {
        return Some(not_adjacent(name));
    }
    if entered_from == Some(to) {
        return Some(Phrase::new(
            format!("the enemy came from {name}"),
            format!("враг пришёл из {name}"),
        ));
    }
    if board.in_unrest(to) {
        return Some(unrest(name));
    }
    if let Some(e) = board
        .powers_anywhere_in(to)
        .into_iter()
        .find(|p| d.enemies(power, *p))
    {
        return Some(enemy_units(name, e));
    }
    let controller = board.controller(to);
    if controller == Power::Independent {
        return Some(independent(name));
    }
    if controller != power && !d.allied(power, controller) {
        return Some(not_allied(name, controller));
    }
    if board.is_electorate(map, to) && !d.schmalkaldic_league && power != Power::Protestant {
        return Some(electorate(name));
    }
    None
}

/// `Vienna is a sea zone`: why no one goes there.
pub(super) fn sea(name: &str) -> Phrase {
    Phrase::new(
        format!("{name} is a sea zone"),
        format!("{name} — морская зона"),
    )
}

pub(super) fn not_adjacent(name: &str) -> Phrase {
    Phrase::new(
        format!("{name} is not adjacent"),
        format!("{name} не соседствует"),
    )
}

pub(super) fn unrest(name: &str) -> Phrase {
    Phrase::new(
        format!("{name} is in unrest"),
        format!("в {name} беспорядки"),
    )
}

pub(super) fn enemy_units(name: &str, enemy: Power) -> Phrase {
    Phrase::new(
        format!("{name} holds {enemy} units"),
        format!("в {name} стоят части {}", enemy.ru(Case::Gen)),
    )
}

pub(super) fn independent(name: &str) -> Phrase {
    Phrase::new(
        format!("{name} is independent"),
        format!("{name} — независимая область"),
    )
}

pub(super) fn not_allied(name: &str, controller: Power) -> Phrase {
    Phrase::new(
        format!("{name} is controlled by {controller}, not an ally"),
        format!(
            "{name} под контролем {}, а это не союзник",
            controller.ru(Case::Gen)
        ),
    )
}

pub(super) fn electorate(name: &str) -> Phrase {
    Phrase::new(
        format!("{name} is an electorate and the Schmalkaldic League has not been played"),
        format!("{name} — курфюршество, а Шмалькальденский союз ещё не сыгран"),
    )
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

/// The force of `power`'s side outside the fortifications of `space`.
pub(super) fn side_force(cx: &Cx<'_>, space: SpaceId, power: Power) -> Force {
    let d = &cx.board.diplomacy;
    let mut f = Force::default();
    for p in Power::ALL {
        if p == power || (d.acts(p) && d.side(p) == power) {
            f.add(p, cx.board.units(space, p, false));
        }
    }
    f.leaders = cx
        .board
        .leaders_in(space, false)
        .into_iter()
        .filter(|l| cx.board.leader(*l).power == power)
        .collect();
    f
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
pub(super) fn destroy(cx: &mut Cx<'_>, force: &Force, at: SpaceId, by: Power, reason: &Phrase) {
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
pub(super) fn attacker(cx: &mut Cx<'_>, mv: &mut Move, by: Power, lost: bool, reason: &Phrase) {
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
                reason: Phrase::by(|lang| {
                    let name = &cx.map.space(mv.from).name;
                    match lang {
                        Lang::En => format!(
                            "forced back into {name}, past whose fortifications they had moved on"
                        ),
                        Lang::Ru => format!(
                            "отброшены обратно в {name}, мимо укреплений которой прошли дальше"
                        ),
                    }
                }),
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
            });
            if force.land_units() > 0 {
                lone_leaders(cx, mv.from, mv.power);
            }
        }
        Some(why) => {
            let reason = Phrase::by(|lang| match lang {
                Lang::En => format!(
                    "{}; no retreat to where it came from: {}",
                    reason.en, why.en
                ),
                Lang::Ru => format!(
                    "{}; отступить туда, откуда пришли, нельзя: {}",
                    reason.ru, why.ru
                ),
            });
            destroy(cx, &force, at, by, &reason);
        }
    }
    mv.force = Force::default();
}
