//! The game master's changes to the board, one line each (`place vienna hapsburg 2 regulars`,
//! `leader ferdinand vienna`, `war ottoman hapsburg`, `impulse ottoman 3`): the rest of the game
//! (cards, religion, diplomacy, naval play) happens off the referee, and its effects on the
//! board come in this way. Each applied change says what it did, for the announcement, and a
//! refused one why (`Message`s, keys `his.adjust.*`).

use super::board::{Board, LeaderPlace, Marks, Siege};
use super::lang::Case;
use super::map::{LeaderId, Map, SpaceId};
use super::power::Power;
use super::text::{parse_force, parse_space};
use crate::message::Message;
use crate::msg;

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

fn power(word: Option<&&str>) -> Result<Power, Message> {
    let w = word.ok_or_else(|| msg!("his.adjust.missing_power"))?;
    Power::from_word(w).ok_or_else(|| msg!("his.adjust.no_power", power = w))
}

fn number(word: Option<&&str>) -> Result<u32, Message> {
    let w = word.ok_or_else(|| msg!("his.adjust.missing_number"))?;
    w.parse()
        .map_err(|_| msg!("his.adjust.not_a_number", word = w))
}

fn leader(map: &Map, word: Option<&&str>) -> Result<LeaderId, Message> {
    let name = word.ok_or_else(|| msg!("his.adjust.missing_leader"))?;
    map.find_leader(name)
        .ok_or_else(|| msg!("his.parse.no_leader", leader = name))
}

/// Reads one adjustment line.
pub fn parse_adjustment(map: &Map, line: &str) -> Result<Adjustment, Message> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(verb) = w.first().map(|v| v.to_lowercase()) else {
        return Err(msg!("his.adjust.empty_line"));
    };
    let space = |i: usize| -> Result<SpaceId, Message> {
        parse_space(
            map,
            w.get(i).ok_or_else(|| msg!("his.adjust.missing_space"))?,
        )
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
                return Err(msg!("his.adjust.one_power"));
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
            let leader = leader(map, w.get(1))?;
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
            let leader = leader(map, w.get(1))?;
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
            mark: w
                .get(3)
                .ok_or_else(|| msg!("his.adjust.missing_mark"))?
                .to_lowercase(),
        },
        other => {
            return Err(msg!("his.adjust.no_adjustment", verb = other));
        }
    })
}

/// Applies an adjustment; says what it did, or why it cannot.
pub fn apply(map: &Map, board: &mut Board, adjustment: &Adjustment) -> Result<Message, Message> {
    let sp = |s: &SpaceId| map.space(*s).names();
    Ok(match adjustment {
        Adjustment::Place {
            space,
            power,
            units,
            inside,
        } => {
            if map.space(*space).is_sea() {
                return Err(msg!("his.adjust.units_on_land"));
            }
            board.add_units(*space, *power, *inside, Marks::default(), *units);
            msg!(
                "his.adjust.placed",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                units = units.describe(),
                space = sp(space)
            )
        }
        Adjustment::Remove {
            space,
            power,
            units,
            inside,
        } => {
            let removed = board.remove_units(*space, *power, *inside, *units);
            let said = msg!(
                "his.adjust.removed",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                units = units.describe(),
                space = sp(space)
            );
            if !removed {
                return Err(msg!(
                    "his.adjust.not_there",
                    power = power.named(Case::Nom),
                    power_gen = power.named(Case::Gen),
                    units = units.describe(),
                    space = sp(space)
                ));
            }
            said
        }
        Adjustment::Leader { leader, place } => {
            if let LeaderPlace::Space { space, .. } = place
                && map.space(*space).is_sea()
            {
                return Err(msg!("his.adjust.leaders_on_land"));
            }
            board.leader_mut(*leader).place = *place;
            super::text::describe_leader(map, board, *leader)
        }
        Adjustment::Serve { leader, power } => {
            board.leader_mut(*leader).power = *power;
            msg!(
                "his.adjust.serves",
                leader = map.leader(*leader).name,
                power = power.named(Case::Nom),
                power_dat = power.named(Case::Dat)
            )
        }
        Adjustment::Control { space, power } => {
            board.control[space.index()] = *power;
            msg!(
                "his.adjust.control",
                space = sp(space),
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            )
        }
        Adjustment::Unrest { space, on } => {
            board.unrest[space.index()] = *on;
            if *on {
                msg!("his.adjust.unrest", space = sp(space))
            } else {
                msg!("his.adjust.no_unrest", space = sp(space))
            }
        }
        Adjustment::Fortify { space } => {
            board.extra_fortified.insert(*space);
            msg!("his.adjust.fortified", space = sp(space))
        }
        Adjustment::War { a, b, on } => {
            board.diplomacy.set_war(*a, *b, *on);
            let (a, b) = (a.named(Case::Nom), b.named(Case::Nom));
            if *on {
                msg!("his.adjust.war", a = a, b = b)
            } else {
                msg!("his.adjust.peace", a = a, b = b)
            }
        }
        Adjustment::Ally { a, b, on } => {
            if !a.is_major() || !b.is_major() {
                return Err(msg!("his.adjust.majors_ally"));
            }
            board.diplomacy.set_alliance(*a, *b, *on);
            let (a, b) = (a.named(Case::Nom), b.named(Case::Nom));
            if *on {
                msg!("his.adjust.allied", a = a, b = b)
            } else {
                msg!("his.adjust.unallied", a = a, b = b)
            }
        }
        Adjustment::Minor { minor, major } => {
            if !minor.is_minor() {
                return Err(msg!("his.adjust.not_minor", minor = minor.named(Case::Nom)));
            }
            board.diplomacy.set_minor_ally(*minor, *major);
            match major {
                Some(m) => msg!(
                    "his.adjust.minor_active",
                    minor = minor.named(Case::Nom),
                    major = m.named(Case::Nom)
                ),
                None => msg!("his.adjust.minor_inactive", minor = minor.named(Case::Nom)),
            }
        }
        Adjustment::League => {
            board.diplomacy.schmalkaldic_league = true;
            msg!("his.adjust.league")
        }
        Adjustment::Impulse { power, cp } => {
            if !power.is_major() {
                return Err(msg!("his.adjust.majors_impulse"));
            }
            board.next_impulse(*power, *cp);
            msg!(
                "his.adjust.impulse",
                impulse = board.impulse,
                power = power.named(Case::Nom),
                cp = cp
            )
        }
        Adjustment::Cp { cp } => {
            board.cp = *cp;
            msg!(
                "his.adjust.cp",
                power = board.active.named(Case::Nom),
                power_gen = board.active.named(Case::Gen),
                cp = cp
            )
        }
        Adjustment::Turn { turn } => {
            board.turn = *turn;
            board.janissaries_used = false;
            msg!("his.adjust.turn", turn = turn)
        }
        Adjustment::Siege { space, power } => {
            board.sieges.retain(|s| s.space != *space);
            board.sieges.push(Siege {
                space: *space,
                besiegers: vec![*power],
                since_impulse: board.impulse,
            });
            msg!(
                "his.adjust.siege",
                space = sp(space),
                power = power.named(Case::Nom),
                power_n = power.number()
            )
        }
        Adjustment::Lift { space } => {
            board.sieges.retain(|s| s.space != *space);
            msg!("his.adjust.lift", space = sp(space))
        }
        Adjustment::Mark { space, power, mark } => {
            let set: fn(&mut Marks) = match mark.as_str() {
                "lost-battle" => |m| m.lost_battle = true,
                "intercepted" => |m| m.intercepted = true,
                "moved" => |m| m.moved = true,
                "placed-siege" => |m| m.placed_siege = true,
                _ => return Err(msg!("his.adjust.no_mark", mark = mark)),
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
            msg!(
                "his.adjust.marked",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                space = sp(space),
                mark = mark
            )
        }
    })
}
