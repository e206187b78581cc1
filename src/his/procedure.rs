//! The movement procedure as a pure state machine the mail layer drives.
//!
//! A `Procedure` is the move, the board before it, the standing instructions and the inputs
//! received so far (answers to windows, deadlines passed, dice). Everything else (the board
//! now, the record, what is awaited) is worked out by running the procedure from the start
//! over those inputs until it needs one it does not have: a window answered (`Status::Waiting`)
//! or dice rolled (`Status::Rolling`). Running again gives the same result, so the inputs are
//! all the mail layer stores, a roll is asked for once and used once, and a reader can check
//! the whole move from the inputs. An answer that does not fit its window is refused with a
//! reason and leaves the procedure as it was.

use super::board::Board;
use super::course::{Cx, Stop};
use super::event::Event;
use super::lang::Case;
use super::map::Map;
use super::movement;
use super::power::Power;
use super::standing::Standing;
use crate::message::Message;
use crate::msg;

pub use super::course::{DiceRequest, Finish, Input, MoveRequest, Window};
pub use super::question::{Answer, Casualty, Question};

/// Where the procedure stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting(Window),
    Rolling(DiceRequest),
    Finished(Finish),
}

/// A move under resolution.
#[derive(Clone, Debug)]
pub struct Procedure {
    before: Board,
    request: MoveRequest,
    standing: Standing,
    inputs: Vec<Input>,
    board: Board,
    events: Vec<Event>,
    status: Status,
}

impl Procedure {
    /// Declares `request` on `board` and runs the procedure to its first window or roll.
    pub fn start(map: &Map, board: &Board, request: MoveRequest, standing: Standing) -> Procedure {
        let mut p = Procedure {
            before: board.clone(),
            request,
            standing,
            inputs: Vec::new(),
            board: board.clone(),
            events: Vec::new(),
            status: Status::Finished(Finish::Refused),
        };
        let _ = p.rerun(map);
        p
    }

    /// Rebuilds a procedure from its stored inputs, checking each as when it was received: it
    /// must answer the window open (or the roll awaited) at that point, and fit it.
    pub fn replay(
        map: &Map,
        board: &Board,
        request: MoveRequest,
        standing: Standing,
        inputs: &[Input],
    ) -> Result<Procedure, ReplayError> {
        let mut p = Procedure::start(map, board, request, standing);
        for (i, input) in inputs.iter().enumerate() {
            let current = match &p.status {
                Status::Waiting(w) => Some(w.number),
                Status::Rolling(r) => Some(r.number),
                Status::Finished(_) => None,
            };
            let result = match input {
                Input::Answer {
                    window,
                    power,
                    answer,
                } if current == Some(*window) && matches!(p.status, Status::Waiting(_)) => {
                    p.answer(map, *power, answer.clone())
                }
                Input::Deadline { window }
                    if current == Some(*window) && matches!(p.status, Status::Waiting(_)) =>
                {
                    p.deadline_passed(map)
                }
                Input::Dice { roll, values }
                    if current == Some(*roll) && matches!(p.status, Status::Rolling(_)) =>
                {
                    p.give_dice(map, values)
                }
                _ => Err(msg!("his.procedure.not_awaited")),
            };
            if let Err(why) = result {
                return Err(ReplayError { input: i + 1, why });
            }
        }
        Ok(p)
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The board as it stands (after the move, once finished).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board before the move.
    pub fn board_before(&self) -> &Board {
        &self.before
    }

    pub fn request(&self) -> &MoveRequest {
        &self.request
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    pub fn is_finished(&self) -> bool {
        matches!(self.status, Status::Finished(_))
    }

    /// `power` answers the open window. Refused, with a reason and no change, if no window is
    /// open, `power` is not asked or has answered, or the answer does not fit.
    pub fn answer(&mut self, map: &Map, power: Power, answer: Answer) -> Result<(), Message> {
        let Status::Waiting(window) = &self.status else {
            return Err(no_window());
        };
        if !window.asked.contains(&power) {
            return Err(msg!(
                "his.procedure.not_asked",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            ));
        }
        if window.answered.contains(&power) {
            return Err(msg!(
                "his.procedure.answered",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            ));
        }
        let number = window.number;
        self.inputs.push(Input::Answer {
            window: number,
            power,
            answer,
        });
        self.rerun(map)
    }

    /// The open window's deadline passed: everyone silent gets the default answer.
    pub fn deadline_passed(&mut self, map: &Map) -> Result<(), Message> {
        let Status::Waiting(window) = &self.status else {
            return Err(no_window());
        };
        let number = window.number;
        self.inputs.push(Input::Deadline { window: number });
        self.rerun(map)
    }

    /// The dice asked for, rolled (values 1 to 6, as many as asked).
    pub fn give_dice(&mut self, map: &Map, values: &[u8]) -> Result<(), Message> {
        let Status::Rolling(request) = &self.status else {
            return Err(msg!("his.procedure.no_dice"));
        };
        if values.len() != request.dice as usize {
            return Err(msg!(
                "his.procedure.dice_count",
                awaited = request.dice,
                given = values.len()
            ));
        }
        if values.iter().any(|v| !(1..=6).contains(v)) {
            return Err(msg!("his.procedure.die_face"));
        }
        let number = request.number;
        self.inputs.push(Input::Dice {
            roll: number,
            values: values.to_vec(),
        });
        self.rerun(map)
    }

    /// Runs from the start over the inputs; if the last input does not fit, drops it.
    fn rerun(&mut self, map: &Map) -> Result<(), Message> {
        let mut cx = Cx::new(map, self.before.clone(), &self.standing, &self.inputs);
        let result = movement::run(&mut cx, &self.request);
        let status = match result {
            Ok(finish) => Status::Finished(finish),
            Err(Stop::Wait(w)) => Status::Waiting(*w),
            Err(Stop::Roll(r)) => Status::Rolling(r),
            Err(Stop::Invalid(why)) => {
                self.inputs.pop();
                return Err(why);
            }
        };
        self.board = cx.board;
        self.events = cx.log;
        self.status = status;
        Ok(())
    }
}

fn no_window() -> Message {
    msg!("his.procedure.no_window")
}

/// Why a stored procedure could not be replayed: which input (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub input: usize,
    pub why: Message,
}

impl ReplayError {
    /// `input 4: a die shows 1 to 6`.
    pub fn describe(&self) -> Message {
        msg!("his.procedure.replay", input = self.input, why = self.why)
    }
}
