//! Steps 1 to 3 of the land movement procedure [R §13.1; spec §3.1]: whether the declared
//! formation may move to the declared destination, every reason it may not, and the CP cost.

use super::board::{Board, LeaderPlace};
use super::course::MoveRequest;
use super::event::Refusal;
use super::map::{Crossing, Map};
use super::power::Power;

/// A move that passed the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub crossing: Crossing,
    pub cost: u32,
}

/// Checks a declared move on the board; returns every reason it is refused.
pub fn check_move(map: &Map, board: &Board, req: &MoveRequest) -> Result<Plan, Vec<Refusal>> {
    let mut why = Vec::new();
    let d = &board.diplomacy;
    let power = req.power;
    if power != board.active {
        why.push(Refusal::NotActive {
            power,
            active: board.active,
        });
    }
    if req.force.is_empty() {
        why.push(Refusal::EmptyFormation);
    }
    if power == Power::Protestant && !d.schmalkaldic_league {
        why.push(Refusal::ProtestantBeforeLeague);
    }

    // Step 1: the formation [§3.1 items 1, 2].
    for (p, wanted) in &req.force.units {
        if *p != power && d.minor_ally(*p) != Some(power) {
            why.push(Refusal::ForeignUnits { power: *p });
            continue;
        }
        let there = board.units(req.from, *p, false);
        if !there.contains(*wanted) {
            if board
                .units(req.from, *p, true)
                .plus(there)
                .contains(*wanted)
            {
                why.push(Refusal::Besieged);
            } else {
                why.push(Refusal::UnitsNotThere {
                    power: *p,
                    wanted: *wanted,
                    there,
                });
            }
            continue;
        }
        let free = |lost: bool, siege: bool, moved: bool| {
            board.units_where(req.from, *p, false, |m| {
                !(lost && m.lost_battle
                    || siege && m.placed_siege
                    || moved && m.moved && board.effects.foul_weather)
            })
        };
        if !free(true, false, false).contains(*wanted) {
            why.push(Refusal::LostBattle { power: *p });
        } else if !free(true, true, false).contains(*wanted) {
            why.push(Refusal::PlacedSiege { power: *p });
        } else if !free(true, true, true).contains(*wanted) {
            why.push(Refusal::FoulWeather { power: *p });
        }
    }
    for l in &req.force.leaders {
        let state = board.leader(*l);
        if state.power != power {
            why.push(Refusal::ForeignLeader { leader: *l });
        } else if state.place
            != (LeaderPlace::Space {
                space: req.from,
                inside: false,
            })
        {
            if state.place
                == (LeaderPlace::Space {
                    space: req.from,
                    inside: true,
                })
            {
                why.push(Refusal::Besieged);
            } else {
                why.push(Refusal::LeaderNotThere { leader: *l });
            }
        } else if state.marks.lost_battle {
            why.push(Refusal::LeaderLostBattle { leader: *l });
        } else if state.marks.placed_siege {
            why.push(Refusal::LeaderPlacedSiege { leader: *l });
        } else if board.effects.gout.contains(l) {
            why.push(Refusal::Gout { leader: *l });
        }
    }
    let units = req.force.land_units();
    let limit = req.force.command_limit(map);
    if units > limit {
        why.push(Refusal::TooMany { units, limit });
    }

    // Step 2: the destination [§3.1 items 3-5].
    let crossing = map.crossing(req.from, req.to);
    if crossing.is_none() {
        why.push(Refusal::NotAdjacent);
    }
    if let Some(r) = entry(map, board, req, units) {
        why.extend(r);
    }

    // Step 3: the CP.
    let cost = crossing.map(|c| c.cost()).unwrap_or(1);
    if cost > board.cp {
        why.push(Refusal::NotEnoughCp {
            cost,
            left: board.cp,
        });
    }
    why.dedup();
    match crossing {
        Some(crossing) if why.is_empty() => Ok(Plan { crossing, cost }),
        _ => Err(why),
    }
}

/// Whether `power` may enter the destination: control, occupancy, electorates, lone leaders.
fn entry(map: &Map, board: &Board, req: &MoveRequest, units: u32) -> Option<Vec<Refusal>> {
    let d = &board.diplomacy;
    let power = req.power;
    let to = req.to;
    let mut why = Vec::new();
    let controller = board.controller(to);
    if board.is_electorate(map, to) && !d.schmalkaldic_league && power != Power::Protestant {
        why.push(Refusal::ElectorateBeforeLeague);
    }
    if controller != power
        && controller != Power::Independent
        && !d.at_war(power, controller)
        && !d.allied(power, controller)
    {
        why.push(Refusal::Controlled { controller });
    }
    // Occupancy [§3.1 item 4]: the other powers with land units there.
    let mut others: Vec<Power> = board
        .powers_anywhere_in(to)
        .into_iter()
        .filter(|p| *p != power)
        .collect();
    if controller == Power::Independent {
        // Independent regulars in an independent key never block entry.
        others.retain(|p| *p != Power::Independent);
    }
    if !others.is_empty() {
        let friendly = |p: &Power| d.friendly(power, *p);
        let enemy = |p: &Power| d.enemies(power, *p);
        let allowed = match board.siege(to) {
            None => {
                others.iter().all(friendly)
                    || others.iter().all(enemy)
                    || (d.at_war(power, controller)
                        && others
                            .iter()
                            .all(|p| *p == controller || d.allied(*p, controller)))
            }
            Some(_) => {
                let inside: Vec<Power> = board
                    .powers_in(to, true)
                    .into_iter()
                    .filter(|p| *p != power)
                    .collect();
                let outside: Vec<Power> = board
                    .powers_in(to, false)
                    .into_iter()
                    .filter(|p| *p != power)
                    .collect();
                (inside.iter().all(friendly) && outside.iter().all(enemy))
                    || (inside.iter().all(enemy) && outside.iter().all(friendly))
            }
        };
        if !allowed {
            why.push(Refusal::Occupied { powers: others });
        }
    }
    if units == 0 {
        let enemy_units = board
            .powers_anywhere_in(to)
            .iter()
            .any(|p| d.enemies(power, *p));
        if d.at_war(power, controller) || enemy_units {
            why.push(Refusal::LoneLeaders);
        }
    }
    (!why.is_empty()).then_some(why)
}
