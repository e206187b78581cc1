//! The game master's changes to the board, one line each (`place vienna hapsburg 2 regulars`,
//! `leader ferdinand vienna`, `war ottoman hapsburg`, `impulse ottoman 3`): the rest of the game
//! (cards, religion, diplomacy, naval play) happens off the referee, and its effects on the
//! board come in this way. Each applied change says what it did, for the announcement.

use super::board::{Board, LeaderPlace, Marks, Siege};
use super::map::{LeaderId, Map, SpaceId};
use super::power::Power;
use super::text::{parse_force, parse_space};

/// One change to the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adjustment {
    /// `place <space> <power> <units> [inside]`
    Place {
        space: SpaceId,
        power: Power,
        units: super::board::Units,
        inside: bool,
    },
    /// `remove <space> <power> <units> [inside]`
    Remove {
        space: SpaceId,
        power: Power,
        units: super::board::Units,
        inside: bool,
    },
    /// `leader <leader> <space> [inside]`, `leader <leader> away`,
    /// `leader <leader> captured <power>`
    Leader {
        leader: LeaderId,
        place: LeaderPlace,
    },
    /// `serve <leader> <power>`: the leader changes sides (Maurice of Saxony, the renegade).
    Serve { leader: LeaderId, power: Power },
    /// `control <space> <power>`
    Control { space: SpaceId, power: Power },
    /// `unrest <space> on|off`
    Unrest { space: SpaceId, on: bool },
    /// `fortify <space>`: an event fortified the space.
    Fortify { space: SpaceId },
    /// `war <power> <power>`, `peace <power> <power>`
    War { a: Power, b: Power, on: bool },
    /// `ally <power> <power>`, `unally <power> <power>`
    Ally { a: Power, b: Power, on: bool },
    /// `minor <minor> <major>`, `minor <minor> inactive`
    Minor { minor: Power, major: Option<Power> },
    /// `league`: the Schmalkaldic League has been played.
    League,
    /// `impulse <power> <cp>`: the next impulse begins (marks and effects cleared).
    Impulse { power: Power, cp: u32 },
    /// `cp <n>`: the active power's CP.
    Cp { cp: u32 },
    /// `turn <n>`: a new turn (Janissaries available again).
    Turn { turn: u32 },
    /// `siege <space> <power>`: a siege by that power, begun this impulse.
    Siege { space: SpaceId, power: Power },
    /// `lift <space>`: the siege ends.
    Lift { space: SpaceId },
    /// `mark <space> <power> lost-battle|intercepted|moved|placed-siege`: units and leaders of
    /// that power there did so earlier this impulse.
    Mark {
        space: SpaceId,
        power: Power,
        mark: String,
    },
}

fn power(word: Option<&&str>) -> Result<Power, String> {
    let w = word.ok_or("a power is missing")?;
    Power::from_word(w).ok_or_else(|| format!("no power is called `{w}`"))
}

fn number(word: Option<&&str>) -> Result<u32, String> {
    let w = word.ok_or("a number is missing")?;
    w.parse().map_err(|_| format!("`{w}` is not a number"))
}

/// Reads one adjustment line.
pub fn parse_adjustment(map: &Map, line: &str) -> Result<Adjustment, String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(verb) = w.first().map(|v| v.to_lowercase()) else {
        return Err("an empty line".into());
    };
    let space = |i: usize| -> Result<SpaceId, String> {
        parse_space(map, w.get(i).ok_or("a space is missing")?)
    };
    let inside = w.last().is_some_and(|l| l.eq_ignore_ascii_case("inside"));
    let units_text = |from: usize| {
        let end = if inside { w.len() - 1 } else { w.len() };
        w.get(from..end).map(|s| s.join(" ")).unwrap_or_default()
    };
    Ok(match verb.as_str() {
        "place" | "remove" => {
            let (s, p) = (space(1)?, power(w.get(2))?);
            let force = parse_force(map, &units_text(3), p)?;
            if !force.leaders.is_empty() || force.units.len() != 1 {
                return Err("name units of the one power: place <space> <power> <units>".into());
            }
            let units = force.units_of(p);
            if verb == "place" {
                Adjustment::Place {
                    space: s,
                    power: p,
                    units,
                    inside,
                }
            } else {
                Adjustment::Remove {
                    space: s,
                    power: p,
                    units,
                    inside,
                }
            }
        }
        "leader" => {
            let name = w.get(1).ok_or("a leader is missing")?;
            let leader = map
                .find_leader(name)
                .ok_or_else(|| format!("no leader is called `{name}`"))?;
            let place = match w.get(2).map(|x| x.to_lowercase()).as_deref() {
                Some("away") => LeaderPlace::Away,
                Some("captured") => LeaderPlace::Captured {
                    by: power(w.get(3))?,
                },
                _ => LeaderPlace::Space {
                    space: space(2)?,
                    inside,
                },
            };
            Adjustment::Leader { leader, place }
        }
        "serve" => {
            let name = w.get(1).ok_or("a leader is missing")?;
            let leader = map
                .find_leader(name)
                .ok_or_else(|| format!("no leader is called `{name}`"))?;
            Adjustment::Serve {
                leader,
                power: power(w.get(2))?,
            }
        }
        "control" => Adjustment::Control {
            space: space(1)?,
            power: power(w.get(2))?,
        },
        "unrest" => Adjustment::Unrest {
            space: space(1)?,
            on: !w.get(2).is_some_and(|x| x.eq_ignore_ascii_case("off")),
        },
        "fortify" => Adjustment::Fortify { space: space(1)? },
        "war" | "peace" => Adjustment::War {
            a: power(w.get(1))?,
            b: power(w.get(2))?,
            on: verb == "war",
        },
        "ally" | "unally" => Adjustment::Ally {
            a: power(w.get(1))?,
            b: power(w.get(2))?,
            on: verb == "ally",
        },
        "minor" => {
            let minor = power(w.get(1))?;
            let major = match w.get(2) {
                Some(x) if x.eq_ignore_ascii_case("inactive") => None,
                other => Some(power(other)?),
            };
            Adjustment::Minor { minor, major }
        }
        "league" => Adjustment::League,
        "impulse" => Adjustment::Impulse {
            power: power(w.get(1))?,
            cp: number(w.get(2))?,
        },
        "cp" => Adjustment::Cp {
            cp: number(w.get(1))?,
        },
        "turn" => Adjustment::Turn {
            turn: number(w.get(1))?,
        },
        "siege" => Adjustment::Siege {
            space: space(1)?,
            power: power(w.get(2))?,
        },
        "lift" => Adjustment::Lift { space: space(1)? },
        "mark" => Adjustment::Mark {
            space: space(1)?,
            power: power(w.get(2))?,
            mark: w.get(3).ok_or("a mark is missing")?.to_lowercase(),
        },
        other => return Err(format!("`{other}` is no adjustment")),
    })
}

/// Applies an adjustment; says what it did, or why it cannot.
pub fn apply(map: &Map, board: &mut Board, adjustment: &Adjustment) -> Result<String, String> {
    let sp = |s: &SpaceId| map.space(*s).name.clone();
    match adjustment {
        Adjustment::Place {
            space,
            power,
            units,
            inside,
        } => {
            if map.space(*space).is_sea() {
                return Err("land units stand on land".into());
            }
            board.add_units(*space, *power, *inside, Marks::default(), *units);
            Ok(format!("{power} {units} placed in {}", sp(space)))
        }
        Adjustment::Remove {
            space,
            power,
            units,
            inside,
        } => {
            if board.remove_units(*space, *power, *inside, *units) {
                Ok(format!("{power} {units} removed from {}", sp(space)))
            } else {
                Err(format!("{power} has not {units} in {}", sp(space)))
            }
        }
        Adjustment::Leader { leader, place } => {
            if let LeaderPlace::Space { space, .. } = place
                && map.space(*space).is_sea()
            {
                return Err("army leaders stand on land".into());
            }
            board.leader_mut(*leader).place = *place;
            Ok(super::text::describe_leader(map, board, *leader))
        }
        Adjustment::Serve { leader, power } => {
            board.leader_mut(*leader).power = *power;
            Ok(format!("{} serves {power}", map.leader(*leader).name))
        }
        Adjustment::Control { space, power } => {
            board.control[space.index()] = *power;
            Ok(format!("{} controlled by {power}", sp(space)))
        }
        Adjustment::Unrest { space, on } => {
            board.unrest[space.index()] = *on;
            Ok(format!(
                "{} {}",
                sp(space),
                if *on {
                    "in unrest"
                } else {
                    "no longer in unrest"
                }
            ))
        }
        Adjustment::Fortify { space } => {
            board.extra_fortified.insert(*space);
            Ok(format!("{} fortified", sp(space)))
        }
        Adjustment::War { a, b, on } => {
            board.diplomacy.set_war(*a, *b, *on);
            Ok(format!(
                "{a} and {b} {}",
                if *on { "at war" } else { "at peace" }
            ))
        }
        Adjustment::Ally { a, b, on } => {
            if !a.is_major() || !b.is_major() {
                return Err("alliances are between major powers".into());
            }
            board.diplomacy.set_alliance(*a, *b, *on);
            Ok(format!(
                "{a} and {b} {}",
                if *on { "allied" } else { "no longer allied" }
            ))
        }
        Adjustment::Minor { minor, major } => {
            if !minor.is_minor() {
                return Err(format!("{minor} is not a minor power"));
            }
            board.diplomacy.set_minor_ally(*minor, *major);
            Ok(match major {
                Some(m) => format!("{minor} active, allied to {m}"),
                None => format!("{minor} inactive"),
            })
        }
        Adjustment::League => {
            board.diplomacy.schmalkaldic_league = true;
            Ok("the Schmalkaldic League has been played".into())
        }
        Adjustment::Impulse { power, cp } => {
            if !power.is_major() {
                return Err("impulses belong to major powers".into());
            }
            board.next_impulse(*power, *cp);
            Ok(format!("impulse {}: {power} with {cp} CP", board.impulse))
        }
        Adjustment::Cp { cp } => {
            board.cp = *cp;
            Ok(format!("{} has {cp} CP", board.active))
        }
        Adjustment::Turn { turn } => {
            board.turn = *turn;
            board.janissaries_used = false;
            Ok(format!("turn {turn}"))
        }
        Adjustment::Siege { space, power } => {
            board.sieges.retain(|s| s.space != *space);
            board.sieges.push(Siege {
                space: *space,
                besiegers: vec![*power],
                since_impulse: board.impulse,
            });
            Ok(format!("{} besieged by {power}", sp(space)))
        }
        Adjustment::Lift { space } => {
            board.sieges.retain(|s| s.space != *space);
            Ok(format!("the siege of {} lifted", sp(space)))
        }
        Adjustment::Mark { space, power, mark } => {
            let set: fn(&mut Marks) = match mark.as_str() {
                "lost-battle" => |m| m.lost_battle = true,
                "intercepted" => |m| m.intercepted = true,
                "moved" => |m| m.moved = true,
                "placed-siege" => |m| m.placed_siege = true,
                _ => {
                    return Err(format!(
                        "`{mark}` is no mark (lost-battle, intercepted, moved, placed-siege)"
                    ));
                }
            };
            for inside in [false, true] {
                board.mark_units(*space, *power, inside, set);
            }
            for l in &mut board.leaders {
                if l.power == *power
                    && matches!(l.place, LeaderPlace::Space { space: s, .. } if s == *space)
                {
                    set(&mut l.marks);
                }
            }
            Ok(format!("{power} in {} marked {mark}", sp(space)))
        }
    }
}
