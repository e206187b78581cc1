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
use super::lang::Case;
use super::power::Power;
use super::question::{Answer, Question};
use super::retreat;
use crate::msg;

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
                reason: msg!("his.movement.intercepted", power = p.named(Case::Nom)),
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
        Answer::Gout(_) => Err(msg!("his.movement.gout_on_mover")),
        _ => Err(msg!("his.parse.answer", form = msg!("his.forms.response"))),
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
                reason: msg!("his.movement.foul_weather_again"),
            }),
            Answer::FoulWeather => {
                foul_weather = true;
                cx.board.cp = cx.board.cp.saturating_sub(1);
                cx.board.effects.foul_weather = true;
                cx.note(Event::CardPlayed {
                    by,
                    card: "Foul Weather".into(),
                    effect: msg!(
                        "his.movement.foul_weather",
                        power = mv.power.named(Case::Nom),
                        power_gen = mv.power.named(Case::Gen),
                        power_n = mv.power.number(),
                        left = cx.board.cp
                    ),
                });
            }
            Answer::Gout(_) if gout.is_some() => cx.note(Event::CardVoid {
                by,
                card: "Gout".into(),
                reason: msg!("his.movement.gout_again"),
            }),
            Answer::Gout(l) => {
                gout = Some(l);
                cx.board.cp = cx.board.cp.saturating_sub(1);
                cx.board.effects.gout.push(l);
                cx.note(Event::CardPlayed {
                    by,
                    card: "Gout".into(),
                    effect: msg!(
                        "his.movement.gout",
                        power = mv.power.named(Case::Nom),
                        power_n = mv.power.number(),
                        left = cx.board.cp,
                        leader = cx.map.leader(l).name
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
        let name = cx.map.space(mv.from).names();
        cx.note(Event::Cancelled {
            reason: msg!("his.movement.thwarted", space = name),
        });
        return Ok(false);
    }
    if let Some(l) = gout {
        mv.force.leaders.retain(|x| *x != l);
        let name = &cx.map.leader(l).name;
        if mv.force.is_empty() {
            cx.note(Event::Cancelled {
                reason: msg!("his.movement.gout_whole", leader = name),
            });
            return Ok(false);
        }
        let limit = mv.force.command_limit(cx.map);
        if mv.force.land_units() > limit {
            cx.note(Event::Cancelled {
                reason: msg!(
                    "his.movement.gout_over_limit",
                    leader = name,
                    units = mv.force.land_units(),
                    limit = limit
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
    let name = cx.map.space(mv.to).names();
    if !defenders
        .iter()
        .any(|p| *p == controller || d.allied(*p, controller))
    {
        cx.note(Event::NoWithdrawal {
            reason: msg!(
                "his.movement.not_defenders",
                space = name,
                controller = controller.named(Case::Nom),
                controller_gen = controller.named(Case::Gen)
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
            reason: msg!(
                "his.movement.too_many_inside",
                units = force.land_units(),
                space = name
            ),
        });
        return Ok(());
    }
    let withdraw = if d.acts(controller) {
        let decider = d.side(controller);
        let check = |_: &Cx<'_>, _: Power, a: &Answer| match a {
            Answer::Withdraw | Answer::Stay => Ok(()),
            _ => Err(msg!("his.parse.answer", form = msg!("his.forms.withdraw"))),
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
            msg!(
                "his.movement.chose_to_withdraw",
                power = controller.named(Case::Nom),
                power_n = controller.number()
            )
        } else {
            msg!(
                "his.movement.always_withdraws",
                power = controller.named(Case::Nom),
                power_n = controller.number()
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
            _ => Err(msg!("his.parse.answer", form = msg!("his.forms.move_on"))),
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
            msg!("his.movement.no_cp_to_move_on")
        } else {
            msg!("his.movement.not_larger")
        };
        retreat::attacker(cx, mv, by, false, &reason);
    }
    Ok(())
}
