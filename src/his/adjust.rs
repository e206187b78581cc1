//! The game master's changes to the board, one line each (`place vienna hapsburg 2 regulars`,
//! `leader ferdinand vienna`, `war ottoman hapsburg`, `impulse ottoman 3`): the rest of the game
//! (cards, religion, diplomacy, naval play) happens off the referee, and its effects on the
//! board come in this way. Each applied change says what it did, for the announcement (in
//! English and Russian, as the refusals).

use super::board::{Board, LeaderPlace, Marks, Siege};
use super::lang::{Case, Lang, Phrase};
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

fn missing(en: &str, ru: &str) -> Phrase {
    Phrase::new(format!("{en} is missing"), format!("не хватает {ru}"))
}

fn power(word: Option<&&str>) -> Result<Power, Phrase> {
    let w = word.ok_or_else(|| missing("a power", "державы"))?;
    Power::from_word(w).ok_or_else(|| {
        Phrase::new(
            format!("no power is called `{w}`"),
            format!("державы `{w}` нет"),
        )
    })
}

fn number(word: Option<&&str>) -> Result<u32, Phrase> {
    let w = word.ok_or_else(|| missing("a number", "числа"))?;
    w.parse().map_err(|_| {
        Phrase::new(
            format!("`{w}` is not a number"),
            format!("`{w}` — не число"),
        )
    })
}

fn leader(map: &Map, word: Option<&&str>) -> Result<LeaderId, Phrase> {
    let name = word.ok_or_else(|| missing("a leader", "полководца"))?;
    map.find_leader(name).ok_or_else(|| {
        Phrase::new(
            format!("no leader is called `{name}`"),
            format!("полководца `{name}` нет"),
        )
    })
}

/// Reads one adjustment line.
pub fn parse_adjustment(map: &Map, line: &str) -> Result<Adjustment, Phrase> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(verb) = w.first().map(|v| v.to_lowercase()) else {
        return Err(Phrase::new("an empty line", "пустая строка"));
    };
    let space = |i: usize| -> Result<SpaceId, Phrase> {
        parse_space(map, w.get(i).ok_or_else(|| missing("a space", "области"))?)
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
                return Err(Phrase::new(
                    "name units of the one power: place <space> <power> <units>",
                    "назовите части одной державы: place <область> <держава> <части>",
                ));
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
                .ok_or_else(|| missing("a mark", "отметки"))?
                .to_lowercase(),
        },
        other => {
            return Err(Phrase::new(
                format!("`{other}` is no adjustment"),
                format!("`{other}` — не изменение доски"),
            ));
        }
    })
}

/// Applies an adjustment; says what it did, or why it cannot.
pub fn apply(map: &Map, board: &mut Board, adjustment: &Adjustment) -> Result<Phrase, Phrase> {
    let sp = |s: &SpaceId| map.space(*s).name.clone();
    let said = |en: String, ru: String| Ok(Phrase::new(en, ru));
    let ru = Lang::Ru;
    match adjustment {
        Adjustment::Place {
            space,
            power,
            units,
            inside,
        } => {
            if map.space(*space).is_sea() {
                return Err(Phrase::new(
                    "land units stand on land",
                    "сухопутные части стоят только на суше",
                ));
            }
            board.add_units(*space, *power, *inside, Marks::default(), *units);
            said(
                format!("{power} {units} placed in {}", sp(space)),
                format!(
                    "в {} поставлены части {}: {}",
                    sp(space),
                    power.ru(Case::Gen),
                    units.describe_in(ru)
                ),
            )
        }
        Adjustment::Remove {
            space,
            power,
            units,
            inside,
        } => {
            if board.remove_units(*space, *power, *inside, *units) {
                said(
                    format!("{power} {units} removed from {}", sp(space)),
                    format!(
                        "из {} убраны части {}: {}",
                        sp(space),
                        power.ru(Case::Gen),
                        units.describe_in(ru)
                    ),
                )
            } else {
                Err(Phrase::new(
                    format!("{power} has not {units} in {}", sp(space)),
                    format!(
                        "у {} в {} нет столько частей: {}",
                        power.ru(Case::Gen),
                        sp(space),
                        units.describe_in(ru)
                    ),
                ))
            }
        }
        Adjustment::Leader { leader, place } => {
            if let LeaderPlace::Space { space, .. } = place
                && map.space(*space).is_sea()
            {
                return Err(Phrase::new(
                    "army leaders stand on land",
                    "полководцы стоят только на суше",
                ));
            }
            board.leader_mut(*leader).place = *place;
            Ok(Phrase::by(|lang| {
                super::text::describe_leader_in(map, board, *leader, lang)
            }))
        }
        Adjustment::Serve { leader, power } => {
            board.leader_mut(*leader).power = *power;
            let name = &map.leader(*leader).name;
            said(
                format!("{name} serves {power}"),
                format!("{name} служит {}", power.ru(Case::Dat)),
            )
        }
        Adjustment::Control { space, power } => {
            board.control[space.index()] = *power;
            said(
                format!("{} controlled by {power}", sp(space)),
                format!("{} под контролем {}", sp(space), power.ru(Case::Gen)),
            )
        }
        Adjustment::Unrest { space, on } => {
            board.unrest[space.index()] = *on;
            if *on {
                said(
                    format!("{} in unrest", sp(space)),
                    format!("в {} беспорядки", sp(space)),
                )
            } else {
                said(
                    format!("{} no longer in unrest", sp(space)),
                    format!("в {} больше нет беспорядков", sp(space)),
                )
            }
        }
        Adjustment::Fortify { space } => {
            board.extra_fortified.insert(*space);
            said(
                format!("{} fortified", sp(space)),
                format!("{} теперь укреплена", sp(space)),
            )
        }
        Adjustment::War { a, b, on } => {
            board.diplomacy.set_war(*a, *b, *on);
            let (ra, rb) = (a.ru(Case::Nom), b.ru(Case::Nom));
            if *on {
                said(format!("{a} and {b} at war"), format!("{ra} и {rb} воюют"))
            } else {
                said(
                    format!("{a} and {b} at peace"),
                    format!("{ra} и {rb} в мире"),
                )
            }
        }
        Adjustment::Ally { a, b, on } => {
            if !a.is_major() || !b.is_major() {
                return Err(Phrase::new(
                    "alliances are between major powers",
                    "союзы бывают только между главными державами",
                ));
            }
            board.diplomacy.set_alliance(*a, *b, *on);
            let (ra, rb) = (a.ru(Case::Nom), b.ru(Case::Nom));
            if *on {
                said(
                    format!("{a} and {b} allied"),
                    format!("{ra} и {rb} в союзе"),
                )
            } else {
                said(
                    format!("{a} and {b} no longer allied"),
                    format!("{ra} и {rb} больше не в союзе"),
                )
            }
        }
        Adjustment::Minor { minor, major } => {
            if !minor.is_minor() {
                return Err(Phrase::new(
                    format!("{minor} is not a minor power"),
                    format!("{} — не второстепенная держава", minor.ru(Case::Nom)),
                ));
            }
            board.diplomacy.set_minor_ally(*minor, *major);
            let rm = minor.ru(Case::Nom);
            match major {
                Some(m) => said(
                    format!("{minor} active, allied to {m}"),
                    format!("{rm} активна, её главная держава — {}", m.ru(Case::Nom)),
                ),
                None => said(format!("{minor} inactive"), format!("{rm} неактивна")),
            }
        }
        Adjustment::League => {
            board.diplomacy.schmalkaldic_league = true;
            said(
                "the Schmalkaldic League has been played".into(),
                "Шмалькальденский союз сыгран".into(),
            )
        }
        Adjustment::Impulse { power, cp } => {
            if !power.is_major() {
                return Err(Phrase::new(
                    "impulses belong to major powers",
                    "импульсы бывают только у главных держав",
                ));
            }
            board.next_impulse(*power, *cp);
            said(
                format!("impulse {}: {power} with {cp} CP", board.impulse),
                format!(
                    "импульс {}: {}, {cp} КО",
                    board.impulse,
                    power.ru(Case::Nom)
                ),
            )
        }
        Adjustment::Cp { cp } => {
            board.cp = *cp;
            said(
                format!("{} has {cp} CP", board.active),
                format!("у {} {cp} КО", board.active.ru(Case::Gen)),
            )
        }
        Adjustment::Turn { turn } => {
            board.turn = *turn;
            board.janissaries_used = false;
            said(format!("turn {turn}"), format!("ход {turn}"))
        }
        Adjustment::Siege { space, power } => {
            board.sieges.retain(|s| s.space != *space);
            board.sieges.push(Siege {
                space: *space,
                besiegers: vec![*power],
                since_impulse: board.impulse,
            });
            said(
                format!("{} besieged by {power}", sp(space)),
                format!(
                    "{} {} {}",
                    power.ru(Case::Nom),
                    power.ru_verb("осаждает", "осаждают"),
                    sp(space)
                ),
            )
        }
        Adjustment::Lift { space } => {
            board.sieges.retain(|s| s.space != *space);
            said(
                format!("the siege of {} lifted", sp(space)),
                format!("осада {} снята", sp(space)),
            )
        }
        Adjustment::Mark { space, power, mark } => {
            let set: fn(&mut Marks) = match mark.as_str() {
                "lost-battle" => |m| m.lost_battle = true,
                "intercepted" => |m| m.intercepted = true,
                "moved" => |m| m.moved = true,
                "placed-siege" => |m| m.placed_siege = true,
                _ => {
                    return Err(Phrase::new(
                        format!(
                            "`{mark}` is no mark (lost-battle, intercepted, moved, placed-siege)"
                        ),
                        format!(
                            "`{mark}` — не отметка (lost-battle, intercepted, moved, placed-siege)"
                        ),
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
            said(
                format!("{power} in {} marked {mark}", sp(space)),
                format!(
                    "части и полководцы {} в {} отмечены: {mark}",
                    power.ru(Case::Gen),
                    sp(space)
                ),
            )
        }
    }
}
