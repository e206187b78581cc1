//! The land movement procedure in its eight steps [R §13.1; spec §3.2]: declare, check, spend
//! CP, the response window (Foul Weather, Gout), interception, placing the formation, avoiding
//! battle, withdrawal into the fortifications, then a field battle or a siege.

use super::avoid;
use super::battle;
use super::board::{Force, LeaderPlace, Marks};
use super::check::check_move;
use super::course::{
    Alone, Cx, Finish, Move, MoveRequest, Stop, defenders, go_inside, lay_siege, lone_leaders,
    siege_due,
};
use super::event::Event;
use super::interception;
use super::lang::{Case, Phrase, count};
use super::power::Power;
use super::question::{Answer, Question};
use super::retreat;

/// Runs the whole procedure over the inputs in `cx`.
pub(super) fn run(cx: &mut Cx<'_>, req: &MoveRequest) -> Result<Finish, Stop> {
    cx.note(Event::Declared {
        power: req.power,
        force: req.force.clone(),
        from: req.from,
        to: req.to,
    });
    let plan = match check_move(cx.map, &cx.board, req) {
        Ok(plan) => plan,
        Err(reasons) => {
            cx.note(Event::Refused { reasons });
            return Ok(Finish::Refused);
        }
    };
    cx.board.cp -= plan.cost;
    cx.note(Event::CpSpent {
        power: req.power,
        crossing: plan.crossing,
        cost: plan.cost,
        left: cx.board.cp,
    });
    let mut mv = Move {
        power: req.power,
        from: req.from,
        to: req.to,
        force: req.force.clone(),
    };
    if response(cx, &mut mv)? {
        let intercepted = interception::run(cx, &mv)?;
        place(cx, &mv)?;
        if let Some(p) = intercepted {
            cx.note(Event::NoAvoid {
                power: None,
                reason: Phrase::new(
                    format!(
                        "{p} intercepted: no avoiding battle and no withdrawal, straight to battle"
                    ),
                    format!(
                        "перехват удался ({}): ни уклонения, ни отхода в укрепления — сразу сражение",
                        p.ru(Case::Nom)
                    ),
                ),
            });
        } else {
            avoid::run(cx, &mv)?;
            withdraw(cx, &mv)?;
        }
        if defenders(cx, &mv).is_empty() {
            siege_or_move_on(cx, &mut mv)?;
        } else {
            let fought = battle::run(cx, &mut mv)?;
            retreat::after_battle(cx, &mut mv, &fought)?;
        }
        retreat::siege_check(cx, mv.to)?;
    }
    cx.board.tidy();
    cx.note(Event::Ended);
    Ok(Finish::Done)
}

/// Step 4: every other major power may play Foul Weather or Gout. Foul Weather thwarts the move
/// [seed 004 step 4]; Gout does what its own text says, no more: 1 CP is lost and that leader
/// may not move this impulse, so the rest of the formation moves if it is legal without him
/// [C 32; ruling 6]. Returns whether the move goes ahead.
fn response(cx: &mut Cx<'_>, mv: &mut Move) -> Result<bool, Stop> {
    let asked: Vec<Power> = Power::MAJOR
        .into_iter()
        .filter(|p| *p != mv.power)
        .collect();
    let leaders = mv.force.leaders.clone();
    let check = |_: &Cx<'_>, _: Power, a: &Answer| match a {
        Answer::NoCard | Answer::FoulWeather => Ok(()),
        Answer::Gout(l) if leaders.contains(l) => Ok(()),
        Answer::Gout(_) => Err(Phrase::new(
            "Gout strikes a leader of the moving formation",
            "Gout играется на полководца движущегося соединения",
        )),
        _ => Err(Phrase::new(
            "answer NO CARD, FOUL WEATHER or GOUT <leader>",
            "ответьте NO CARD, FOUL WEATHER или GOUT <полководец>",
        )),
    };
    let answers = cx.ask(
        Question::Response {
            mover: mv.power,
            from: mv.from,
            to: mv.to,
            leaders: leaders.clone(),
        },
        asked,
        &check,
        &|_, _| Answer::NoCard,
    )?;
    let mut foul_weather = false;
    let mut gout = None;
    for (by, answer) in answers {
        match answer {
            Answer::FoulWeather if foul_weather => cx.note(Event::CardVoid {
                by,
                card: "Foul Weather".into(),
                reason: Phrase::new(
                    "Foul Weather was already played on this move",
                    "Foul Weather в этом движении уже сыграна",
                ),
            }),
            Answer::FoulWeather => {
                foul_weather = true;
                cx.board.cp = cx.board.cp.saturating_sub(1);
                cx.board.effects.foul_weather = true;
                cx.note(Event::CardPlayed {
                    by,
                    card: "Foul Weather".into(),
                    effect: Phrase::new(
                        format!(
                            "the move is thwarted; {} loses 1 CP ({} left); for the rest of the impulse no {} land unit moves more than one space, and no assault",
                            mv.power, cx.board.cp, mv.power
                        ),
                        format!(
                            "движение сорвано; {} {} 1 КО (осталось КО: {}); до конца импульса ни одна сухопутная часть {} не проходит больше одной области, и штурмов нет",
                            mv.power.ru(Case::Nom),
                            mv.power.ru_verb("теряет", "теряют"),
                            cx.board.cp,
                            mv.power.ru(Case::Gen)
                        ),
                    ),
                });
            }
            Answer::Gout(_) if gout.is_some() => cx.note(Event::CardVoid {
                by,
                card: "Gout".into(),
                reason: Phrase::new(
                    "Gout was already played on this move",
                    "Gout в этом движении уже сыграна",
                ),
            }),
            Answer::Gout(l) => {
                gout = Some(l);
                cx.board.cp = cx.board.cp.saturating_sub(1);
                cx.board.effects.gout.push(l);
                cx.note(Event::CardPlayed {
                    by,
                    card: "Gout".into(),
                    effect: Phrase::new(
                        format!(
                            "{} loses 1 CP ({} left); {} may not move or assault this impulse",
                            mv.power,
                            cx.board.cp,
                            cx.map.leader(l).name
                        ),
                        format!(
                            "{} {} 1 КО (осталось КО: {}); {} в этот импульс не может ни двигаться, ни штурмовать",
                            mv.power.ru(Case::Nom),
                            mv.power.ru_verb("теряет", "теряют"),
                            cx.board.cp,
                            cx.map.leader(l).name
                        ),
                    ),
                });
            }
            _ => {}
        }
    }
    // Seed 004, step 4: the response card is played "чтобы расстроить эту акцию движения",
    // to thwart this move: the formation stays where it is and the CP spent on the move stay
    // spent; the card's own CP loss and its limits for the rest of the impulse come on top.
    if foul_weather {
        let name = &cx.map.space(mv.from).name;
        cx.note(Event::Cancelled {
            reason: Phrase::new(
                format!("Foul Weather thwarts it: the formation stays in {name}, its CP spent"),
                format!(
                    "Foul Weather срывает его: соединение остаётся в {name}, КО на него потрачены"
                ),
            ),
        });
        return Ok(false);
    }
    if let Some(l) = gout {
        mv.force.leaders.retain(|x| *x != l);
        let name = &cx.map.leader(l).name;
        if mv.force.is_empty() {
            cx.note(Event::Cancelled {
                reason: Phrase::new(
                    format!("Gout: {name} was the whole formation"),
                    format!("Gout: {name} и был всем соединением"),
                ),
            });
            return Ok(false);
        }
        let limit = mv.force.command_limit(cx.map);
        if mv.force.land_units() > limit {
            cx.note(Event::Cancelled {
                reason: Phrase::new(
                    format!(
                        "Gout: without {name} the formation of {} land units is above its limit of {limit}",
                        mv.force.land_units()
                    ),
                    format!(
                        "Gout: без {name} соединение из {} больше своего предела ({limit})",
                        count(
                            mv.force.land_units(),
                            "сухопутной части",
                            "сухопутных частей",
                            "сухопутных частей"
                        )
                    ),
                ),
            });
            return Ok(false);
        }
    }
    Ok(true)
}

/// After interceptions: the formation is placed in the destination.
fn place(cx: &mut Cx<'_>, mv: &Move) -> Result<(), Stop> {
    let foul_weather = cx.board.effects.foul_weather;
    for (p, u) in &mv.force.units {
        let parts = cx
            .board
            .take_units(mv.from, *p, false, *u, |m| {
                !(m.lost_battle || m.placed_siege || foul_weather && m.moved)
            })
            .unwrap_or_default();
        cx.board
            .put_detachments(parts, mv.to, false, |m: &mut Marks| m.moved = true);
    }
    for l in &mv.force.leaders {
        let state = cx.board.leader_mut(*l);
        state.place = LeaderPlace::Space {
            space: mv.to,
            inside: false,
        };
        state.marks.moved = true;
    }
    cx.note(Event::Arrived {
        force: mv.force.clone(),
        at: mv.to,
    });
    retreat::siege_check(cx, mv.from)?;
    lone_leaders(cx, mv.to, mv.power, Alone::Entered);
    Ok(())
}

/// Step 7: withdrawal into the fortifications [R §13.4; spec §6].
fn withdraw(cx: &mut Cx<'_>, mv: &Move) -> Result<(), Stop> {
    let defenders = defenders(cx, mv);
    if defenders.is_empty() || !cx.board.fortified(cx.map, mv.to) {
        return Ok(());
    }
    let d = cx.board.diplomacy.clone();
    let controller = cx.board.controller(mv.to);
    let name = cx.map.space(mv.to).name.clone();
    if !defenders
        .iter()
        .any(|p| *p == controller || d.allied(*p, controller))
    {
        cx.note(Event::NoWithdrawal {
            reason: Phrase::new(
                format!("{name} is controlled by {controller}, neither a defender nor its ally"),
                format!(
                    "{name} под контролем {}: это ни защитник, ни его союзник",
                    controller.ru(Case::Gen)
                ),
            ),
        });
        return Ok(());
    }
    let mut force = Force::default();
    for p in &defenders {
        force.add(*p, cx.board.units(mv.to, *p, false));
    }
    force.leaders = cx
        .board
        .leaders_in(mv.to, false)
        .into_iter()
        .filter(|l| defenders.contains(&cx.board.leader(*l).power))
        .collect();
    if force.land_units() > 4 {
        cx.note(Event::NoWithdrawal {
            reason: Phrase::new(
                format!(
                    "{} land units are in {name}; at most 4 withdraw",
                    force.land_units()
                ),
                format!(
                    "в {name} {}; отойти в укрепления могут не больше 4",
                    count(
                        force.land_units(),
                        "сухопутная часть",
                        "сухопутные части",
                        "сухопутных частей"
                    )
                ),
            ),
        });
        return Ok(());
    }
    let withdraw = if d.acts(controller) {
        let decider = d.side(controller);
        let check = |_: &Cx<'_>, _: Power, a: &Answer| match a {
            Answer::Withdraw | Answer::Stay => Ok(()),
            _ => Err(Phrase::new(
                "answer WITHDRAW or STAY",
                "ответьте WITHDRAW или STAY",
            )),
        };
        let answer = cx.ask_one(
            Question::Withdraw {
                power: decider,
                at: mv.to,
                defenders: force.clone(),
            },
            decider,
            &check,
            &|_, _| Answer::Stay,
        )?;
        answer == Answer::Withdraw
    } else {
        true
    };
    if withdraw {
        let reason = if d.acts(controller) {
            Phrase::new(
                format!("{controller} chose to withdraw"),
                format!(
                    "{} {} отойти",
                    controller.ru(Case::Nom),
                    controller.ru_verb("решает", "решают")
                ),
            )
        } else {
            Phrase::new(
                format!("{controller} never fights with 4 units or fewer: always withdraws"),
                format!(
                    "{} с 4 частями или меньше никогда не {}, а всегда {}",
                    controller.ru(Case::Nom),
                    controller.ru_verb("сражается", "сражаются"),
                    controller.ru_verb("отходит", "отходят")
                ),
            )
        };
        go_inside(cx, mv.to, &force);
        cx.note(Event::Withdrew {
            force,
            at: mv.to,
            reason,
        });
    }
    Ok(())
}

/// No battle: in an enemy fortified space the formation lays a siege, or (not larger than the
/// units inside) moves on or retreats [R §13.4].
fn siege_or_move_on(cx: &mut Cx<'_>, mv: &mut Move) -> Result<(), Stop> {
    if !siege_due(cx, mv) || lay_siege(cx, mv) {
        return Ok(());
    }
    let answer = if cx.board.cp == 0 {
        Answer::Retreat
    } else {
        let check = |_: &Cx<'_>, _: Power, a: &Answer| match a {
            Answer::MoveOn | Answer::Retreat => Ok(()),
            _ => Err(Phrase::new(
                "answer MOVE ON or RETREAT",
                "ответьте MOVE ON или RETREAT",
            )),
        };
        cx.ask_one(
            Question::MoveOn {
                power: mv.power,
                at: mv.to,
            },
            mv.power,
            &check,
            &|_, _| Answer::Retreat,
        )?
    };
    if answer == Answer::MoveOn {
        let at = mv.to;
        for (p, _) in &mv.force.units {
            cx.board
                .mark_units(at, *p, false, |m| m.passed_fortification = Some(at));
        }
        cx.note(Event::MovesOn {
            force: mv.force.clone(),
            at,
        });
    } else {
        let by = cx.board.controller(mv.to);
        let reason = if cx.board.cp == 0 {
            Phrase::new(
                "not more land units than inside and no CP left to move on",
                "сухопутных частей не больше, чем внутри, и не осталось КО, чтобы идти дальше",
            )
        } else {
            Phrase::new(
                "not more land units than inside",
                "сухопутных частей не больше, чем внутри",
            )
        };
        retreat::attacker(cx, mv, by, false, &reason);
    }
    Ok(())
}
