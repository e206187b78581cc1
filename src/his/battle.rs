//! Step 8, the field battle [R §14 steps 1-10; spec §7]: dice for each side (a die per land
//! unit, the best leader's battle rating, the defender's extra die), Janissaries after the
//! rolls, hits on 5 and 6, the tie to the defender, losses chosen by each side and split between
//! allies, one unit kept when both sides are wiped out, capture of leaders. The loser's
//! withdrawal and retreat and the siege check (steps 11 and 12) are `retreat`'s.

use super::board::{Force, UnitKind, Units};
use super::course::{Cx, Fought, Move, Stop, capture, defenders, side_force};
use super::event::{BattleDice, Event};
use super::lang::{Case, en_count};
use super::map::{LeaderId, Map};
use super::power::Power;
use super::question::{Answer, Casualty, Question};
use crate::message::Message;
use crate::msg;

/// The order of losses when the deadline passes: the cheapest units first [R §17.1].
pub const DEFAULT_LOSSES: [UnitKind; 3] =
    [UnitKind::Mercenary, UnitKind::Cavalry, UnitKind::Regular];

fn hits(values: &[u8]) -> u32 {
    values.iter().filter(|v| **v >= 5).count() as u32
}

fn best_leader(map: &Map, leaders: &[LeaderId]) -> Option<(LeaderId, u32)> {
    leaders
        .iter()
        .map(|l| (*l, map.leader(*l).battle))
        .max_by_key(|(l, b)| (*b, std::cmp::Reverse(*l)))
}

/// A defending group: a side (a major power with its active minors, or an inactive minor, or
/// the independents) and its force in the battle.
struct Group {
    side: Power,
    force: Force,
}

fn groups(cx: &Cx<'_>, mv: &Move) -> Vec<Group> {
    let board = &cx.board;
    let d = &board.diplomacy;
    let mut out: Vec<Group> = Vec::new();
    for p in defenders(cx, mv) {
        let side = if d.acts(p) { d.side(p) } else { p };
        let units = board.units(mv.to, p, false);
        match out.iter_mut().find(|g| g.side == side) {
            Some(g) => g.force.add(p, units),
            None => out.push(Group {
                side,
                force: Force::of(p, units),
            }),
        }
    }
    for l in board.leaders_in(mv.to, false) {
        let power = board.leader(l).power;
        if let Some(g) = out.iter_mut().find(|g| g.side == power) {
            g.force.leaders.push(l);
        }
    }
    out.sort_by_key(|g| g.side);
    out
}

/// The defender that captures and decides for the defence as a whole: the group with the most
/// land units, the first in impulse order among equals.
fn lead(groups: &[Group]) -> Power {
    groups
        .iter()
        .max_by_key(|g| (g.force.land_units(), std::cmp::Reverse(g.side)))
        .map(|g| g.side)
        .unwrap_or(Power::Independent)
}

/// Fights the battle in the destination.
pub(super) fn run(cx: &mut Cx<'_>, mv: &mut Move) -> Result<Fought, Stop> {
    let map = cx.map;
    let at = mv.to;
    let name = map.space(at).name.clone();
    let attacker = mv.power;
    let groups = groups(cx, mv);
    let lead = lead(&groups);
    let defenders: Vec<Power> = groups.iter().map(|g| g.side).collect();
    let mut defence = Force::default();
    for g in &groups {
        for (p, u) in &g.force.units {
            defence.add(*p, *u);
        }
        defence.leaders.extend(g.force.leaders.iter().copied());
    }

    // Steps 2-3: the dice.
    let a_leader = best_leader(map, &mv.force.leaders);
    let attack = BattleDice {
        units: mv.force.land_units(),
        leader: a_leader,
        defender_bonus: 0,
        dice: mv.force.land_units() + a_leader.map(|(_, b)| b).unwrap_or(0),
    };
    let d_leader = best_leader(map, &defence.leaders);
    let defence_dice = BattleDice {
        units: defence.land_units(),
        leader: d_leader,
        defender_bonus: 1,
        dice: defence.land_units() + d_leader.map(|(_, b)| b).unwrap_or(0) + 1,
    };
    cx.note(Event::BattleDice {
        at,
        attacker,
        attack: attack.clone(),
        defenders: defenders.clone(),
        defence: defence_dice.clone(),
    });

    // Step 6: the rolls, the attacker's first.
    let a_values = cx.roll(
        attack.dice,
        attacker,
        format!("{attacker} attacking in the field battle at {name}"),
        dice_details(map, &attack),
    )?;
    let d_values = cx.roll(
        defence_dice.dice,
        lead,
        format!(
            "{} defending in the field battle at {name}",
            names(&defenders)
        ),
        dice_details(map, &defence_dice),
    )?;
    let mut a_hits = hits(&a_values);
    let mut d_hits = hits(&d_values);
    let mut a_rolled = attack.dice;
    let mut d_rolled = defence_dice.dice;

    // Step 7: Janissaries, once both rolls are known.
    let ottoman_attacks = attacker == Power::Ottoman;
    if (ottoman_attacks || defenders.contains(&Power::Ottoman)) && !cx.board.janissaries_used {
        let check = |_: &Cx<'_>, _: Power, a: &Answer| match a {
            Answer::NoCard | Answer::PlayJanissaries => Ok(()),
            _ => Err(msg!(
                "his.parse.answer",
                form = msg!("his.forms.janissaries")
            )),
        };
        let answer = cx.ask_one(
            Question::Janissaries { at },
            Power::Ottoman,
            &check,
            &|_, _| Answer::NoCard,
        )?;
        if answer == Answer::PlayJanissaries {
            let values = cx.roll(
                5,
                Power::Ottoman,
                format!("Ottoman Janissaries in the field battle at {name}"),
                Vec::new(),
            )?;
            let extra = hits(&values);
            cx.board.janissaries_used = true;
            cx.note(Event::Janissaries { hits: extra });
            if ottoman_attacks {
                a_hits += extra;
                a_rolled += 5;
            } else {
                d_hits += extra;
                d_rolled += 5;
            }
        }
    }

    // Step 8: the winner; a tie goes to the defender.
    let attacker_won = a_hits > d_hits;
    let winner = if attacker_won { attacker } else { lead };
    cx.note(Event::BattleWon {
        winner,
        attacker_hits: a_hits,
        defender_hits: d_hits,
        reason: if a_hits == d_hits {
            msg!("his.battle.tie")
        } else {
            msg!("his.battle.more_hits")
        },
    });

    // Step 9: casualties.
    let a_units = mv.force.land_units();
    let d_units = defence.land_units();
    let mut a_loss = d_hits.min(a_units);
    let mut shares: Vec<(Power, u32)> = groups.iter().map(|g| (g.side, 0)).collect();
    let both_wiped = d_hits >= a_units && a_hits >= d_units && a_units > 0 && d_units > 0;
    if both_wiped {
        for (i, g) in groups.iter().enumerate() {
            shares[i].1 = g.force.land_units();
        }
        if a_rolled > d_rolled {
            a_loss = a_units - 1;
            cx.note(Event::KeepsOne {
                power: attacker,
                reason: msg!(
                    "his.battle.both_attacker",
                    attacker = a_rolled,
                    defender = d_rolled
                ),
            });
        } else {
            if let Some(s) = shares.iter_mut().find(|(p, _)| *p == lead) {
                s.1 -= 1;
            }
            cx.note(Event::KeepsOne {
                power: lead,
                reason: if d_rolled == a_rolled {
                    msg!(
                        "his.battle.both_defender_as_many",
                        attacker = a_rolled,
                        defender = d_rolled
                    )
                } else {
                    msg!(
                        "his.battle.both_defender_more",
                        attacker = a_rolled,
                        defender = d_rolled
                    )
                },
            });
        }
    } else {
        split(cx, &groups, a_hits.min(d_units), &mut shares, lead, &name)?;
    }
    let mut asked: Vec<Casualty> = Vec::new();
    if a_loss > 0 {
        asked.push(Casualty {
            power: attacker,
            losses: a_loss,
            available: Force {
                units: mv.force.units.clone(),
                leaders: Vec::new(),
            },
        });
    }
    for (g, (_, n)) in groups.iter().zip(&shares) {
        if *n > 0 {
            asked.push(Casualty {
                power: g.side,
                losses: *n,
                available: Force {
                    units: g.force.units.clone(),
                    leaders: Vec::new(),
                },
            });
        }
    }
    let (choose, automatic): (Vec<Casualty>, Vec<Casualty>) = asked
        .into_iter()
        .partition(|c| cx.board.diplomacy.acts(c.power) && has_choice(c));
    let mut chosen: Vec<(Power, Force)> = automatic
        .iter()
        .map(|c| (c.power, default_losses(c)))
        .collect();
    if !choose.is_empty() {
        let powers: Vec<Power> = choose.iter().map(|c| c.power).collect();
        let table = choose.clone();
        let check = |_: &Cx<'_>, p: Power, a: &Answer| check_losses(&table, p, a);
        let defaults = choose.clone();
        let default = move |_: &Cx<'_>, p: Power| {
            let c = defaults.iter().find(|c| c.power == p);
            Answer::Losses(c.map(default_losses).unwrap_or_default())
        };
        let answers = cx.ask(
            Question::Casualties {
                at,
                losses: choose.clone(),
            },
            powers,
            &check,
            &default,
        )?;
        for (p, a) in answers {
            if let Answer::Losses(f) = a {
                chosen.push((p, f));
            }
        }
    }
    chosen.sort_by_key(|(p, _)| *p);
    for (side, losses) in &chosen {
        for (p, u) in &losses.units {
            cx.board.remove_units(at, *p, false, *u);
            cx.note(Event::Losses {
                power: *p,
                units: *u,
            });
            if *side == attacker
                && let Some((_, mu)) = mv.force.units.iter_mut().find(|(q, _)| q == p)
            {
                *mu = mu.minus(*u).unwrap_or_default();
            }
        }
    }
    mv.force.units.retain(|(_, u)| !u.is_empty());

    // Step 10: leaders of a side with no land units left are captured.
    if mv.force.land_units() == 0 {
        for l in mv.force.leaders.clone() {
            capture(cx, l, lead, side_eliminated());
        }
        mv.force.leaders.clear();
    }
    let defence_left: u32 = groups
        .iter()
        .map(|g| side_force(cx, at, g.side).land_units())
        .sum();
    if defence_left == 0 {
        for l in defence.leaders.clone() {
            capture(cx, l, attacker, side_eliminated());
        }
    }
    Ok(Fought {
        attacker_won,
        lead,
        sides: defenders,
    })
}

/// What makes up a side's battle dice, as a roll's details: `8 units`, `+2 Suleiman`, `+1
/// defender`.
fn dice_details(map: &Map, d: &BattleDice) -> Vec<String> {
    let mut out = vec![en_count(d.units, "unit", "units")];
    if let Some((l, r)) = d.leader {
        out.push(format!("+{r} {}", map.leader(l).name));
    }
    if d.defender_bonus > 0 {
        out.push(format!("+{} defender", d.defender_bonus));
    }
    out
}

fn names(powers: &[Power]) -> String {
    powers
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(" and ")
}

fn side_eliminated() -> Message {
    msg!("his.battle.side_eliminated")
}

/// Splits `losses` between allied defending groups evenly, a 1d6 roll giving each odd loss
/// [R §9.2; ruling: the die's faces are shared in equal bands in impulse order].
fn split(
    cx: &mut Cx<'_>,
    groups: &[Group],
    losses: u32,
    shares: &mut [(Power, u32)],
    lead: Power,
    at: &str,
) -> Result<(), Stop> {
    let units: Vec<u32> = groups.iter().map(|g| g.force.land_units()).collect();
    let mut left = losses;
    while left > 0 {
        let alive: Vec<usize> = (0..groups.len())
            .filter(|&i| units[i] > shares[i].1)
            .collect();
        if alive.is_empty() {
            break;
        }
        if left as usize >= alive.len() {
            for &i in &alive {
                shares[i].1 += 1;
            }
            left -= alive.len() as u32;
            continue;
        }
        let mut candidates = alive;
        while left > 0 && !candidates.is_empty() {
            let n = candidates.len();
            // `1-3 Hapsburg`, `4-6 England`: which faces give the loss to whom.
            let bands: Vec<String> = candidates
                .iter()
                .enumerate()
                .map(|(k, &i)| {
                    let faces: Vec<u8> = (1..=6u8).filter(|v| band(*v, n) == k).collect();
                    let (first, last) = (faces[0], faces[faces.len() - 1]);
                    let side = groups[i].side;
                    if first == last {
                        format!("{first} {side}")
                    } else {
                        format!("{first}-{last} {side}")
                    }
                })
                .collect();
            let values = cx.roll(
                1,
                lead,
                format!("Odd loss in the field battle at {at}"),
                bands,
            )?;
            let k = band(values.first().copied().unwrap_or(1), n);
            let i = candidates.remove(k);
            shares[i].1 += 1;
            cx.note(Event::OddLoss {
                power: groups[i].side,
                roll: values.first().copied().unwrap_or(1),
            });
            left -= 1;
        }
    }
    Ok(())
}

/// Which of `n` candidates a face picks: the faces in equal bands (as equal as six allows).
fn band(face: u8, n: usize) -> usize {
    ((face.clamp(1, 6) as usize - 1) * n) / 6
}

fn has_choice(c: &Casualty) -> bool {
    let kinds = c
        .available
        .units
        .iter()
        .map(|(_, u)| UnitKind::ALL.iter().filter(|k| u.get(**k) > 0).count())
        .sum::<usize>();
    c.losses > 0 && c.losses < c.available.land_units() && kinds > 1
}

/// The documented default: cheapest kinds first, the major power's own units before its
/// minors' (powers in order).
fn default_losses(c: &Casualty) -> Force {
    let mut left = c.losses;
    let mut out = Force::default();
    let mut order: Vec<(Power, Units)> = c.available.units.clone();
    order.sort_by_key(|(p, _)| (p.is_minor(), *p));
    for kind in DEFAULT_LOSSES {
        for (p, u) in &order {
            let have = u.get(kind).saturating_sub(out.units_of(*p).get(kind));
            let t = have.min(left);
            if t > 0 {
                let mut x = Units::NONE;
                *x.get_mut(kind) = t;
                out.add(*p, x);
                left -= t;
            }
        }
    }
    out
}

fn check_losses(table: &[Casualty], power: Power, answer: &Answer) -> Result<(), Message> {
    let Some(c) = table.iter().find(|c| c.power == power) else {
        return Err(msg!(
            "his.battle.no_losses",
            power = power.named(Case::Nom),
            power_gen = power.named(Case::Gen)
        ));
    };
    let Answer::Losses(f) = answer else {
        return Err(msg!(
            "his.parse.answer",
            form = msg!("his.forms.casualties")
        ));
    };
    if !f.leaders.is_empty() {
        return Err(msg!("his.battle.leaders_no_losses"));
    }
    for (p, u) in &f.units {
        let there = c.available.units_of(*p);
        if !there.contains(*u) {
            return Err(msg!(
                "his.battle.units_not_there",
                power = p.named(Case::Nom),
                power_gen = p.named(Case::Gen),
                there = there.describe(),
                named = u.describe()
            ));
        }
    }
    if f.land_units() != c.losses {
        return Err(msg!(
            "his.battle.wrong_losses",
            power = power.named(Case::Nom),
            power_n = power.number(),
            losses = c.losses,
            given = f.land_units()
        ));
    }
    Ok(())
}
