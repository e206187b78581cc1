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

use super::board::{Board, Force};
use super::event::{Event, Source};
use super::lang::{Case, Phrase};
use super::map::{Map, SpaceId};
use super::movement;
use super::power::Power;
use super::standing::Standing;

/// A move as declared: `MOVE <units and leaders> FROM <space> TO <space>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    pub power: Power,
    pub force: Force,
    pub from: SpaceId,
    pub to: SpaceId,
}

pub use super::question::{Answer, Casualty, Question};

/// A window: a question, who must answer it, who has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The n-th window of this move, from 1.
    pub number: u32,
    pub question: Question,
    pub asked: Vec<Power>,
    pub answered: Vec<Power>,
}

impl Window {
    /// The powers still to answer.
    pub fn waiting_for(&self) -> Vec<Power> {
        self.asked
            .iter()
            .filter(|p| !self.answered.contains(p))
            .copied()
            .collect()
    }
}

/// Dice to roll, with their purpose stated before the roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceRequest {
    /// The n-th roll of this move, from 1.
    pub number: u32,
    pub dice: u32,
    /// For whom.
    pub power: Power,
    /// What is rolled, and which modifiers will apply.
    pub purpose: String,
}

/// How a procedure ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The move was refused as declared; the board is unchanged.
    Refused,
    /// The move was carried out (or cancelled after its CP were spent).
    Done,
}

/// Where the procedure stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting(Window),
    Rolling(DiceRequest),
    Finished(Finish),
}

/// One input to a procedure, in the order received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Answer {
        window: u32,
        power: Power,
        answer: Answer,
    },
    /// The window's deadline passed: the powers still silent get the default.
    Deadline {
        window: u32,
    },
    Dice {
        roll: u32,
        values: Vec<u8>,
    },
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
    ) -> Result<Procedure, String> {
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
                _ => Err(Phrase::same("it does not answer what the procedure awaits")),
            };
            if let Err(why) = result {
                return Err(format!("input {}: {}", i + 1, why.en));
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
    pub fn answer(&mut self, map: &Map, power: Power, answer: Answer) -> Result<(), Phrase> {
        let Status::Waiting(window) = &self.status else {
            return Err(no_window());
        };
        if !window.asked.contains(&power) {
            return Err(Phrase::new(
                format!("{power} is not asked in this window"),
                format!("в этом окне ответа от {} не ждут", power.ru(Case::Gen)),
            ));
        }
        if window.answered.contains(&power) {
            return Err(Phrase::new(
                format!("{power} has already answered this window"),
                format!("ответ {} в этом окне уже получен", power.ru(Case::Gen)),
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
    pub fn deadline_passed(&mut self, map: &Map) -> Result<(), Phrase> {
        let Status::Waiting(window) = &self.status else {
            return Err(no_window());
        };
        let number = window.number;
        self.inputs.push(Input::Deadline { window: number });
        self.rerun(map)
    }

    /// The dice asked for, rolled (values 1 to 6, as many as asked).
    pub fn give_dice(&mut self, map: &Map, values: &[u8]) -> Result<(), Phrase> {
        let Status::Rolling(request) = &self.status else {
            return Err(Phrase::new("no dice are awaited", "броска не ждут"));
        };
        if values.len() != request.dice as usize {
            return Err(Phrase::new(
                format!("{} dice are awaited, {} given", request.dice, values.len()),
                format!("ждут костей: {}, дано: {}", request.dice, values.len()),
            ));
        }
        if values.iter().any(|v| !(1..=6).contains(v)) {
            return Err(Phrase::new(
                "a die shows 1 to 6",
                "на кости бывает от 1 до 6",
            ));
        }
        let number = request.number;
        self.inputs.push(Input::Dice {
            roll: number,
            values: values.to_vec(),
        });
        self.rerun(map)
    }

    /// Runs from the start over the inputs; if the last input does not fit, drops it.
    fn rerun(&mut self, map: &Map) -> Result<(), Phrase> {
        let mut cx = Cx {
            map,
            board: self.before.clone(),
            standing: &self.standing,
            inputs: &self.inputs,
            windows: 0,
            rolls: 0,
            log: Vec::new(),
        };
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

fn no_window() -> Phrase {
    Phrase::new("no window is open", "ни одно окно не открыто")
}

/// Why a run stopped before the end.
pub(super) enum Stop {
    Wait(Box<Window>),
    Roll(DiceRequest),
    /// The input for this window or roll does not fit it.
    Invalid(Phrase),
}

/// The running procedure: the board being changed, the inputs, the record.
pub(super) struct Cx<'a> {
    pub map: &'a Map,
    pub board: Board,
    standing: &'a Standing,
    inputs: &'a [Input],
    windows: u32,
    rolls: u32,
    pub log: Vec<Event>,
}

/// Checks an answer of a power to a window.
pub(super) type CheckAnswer<'f> = &'f dyn Fn(&Cx<'_>, Power, &Answer) -> Result<(), Phrase>;
/// The answer given when the deadline passes.
pub(super) type DefaultAnswer<'f> = &'f dyn Fn(&Cx<'_>, Power) -> Answer;

impl Cx<'_> {
    pub fn note(&mut self, event: Event) {
        self.log.push(event);
    }

    /// Opens a window: returns every asked power's answer (from its letter, its standing
    /// instructions, or the default once the deadline passed), or stops to wait for them.
    pub fn ask(
        &mut self,
        question: Question,
        asked: Vec<Power>,
        check: CheckAnswer<'_>,
        default: DefaultAnswer<'_>,
    ) -> Result<Vec<(Power, Answer)>, Stop> {
        self.windows += 1;
        let number = self.windows;
        let mut got: Vec<(Power, Answer, Source)> = Vec::new();
        let mut deadline = false;
        for input in self.inputs {
            match input {
                Input::Answer {
                    window,
                    power,
                    answer,
                } if *window == number => {
                    if !asked.contains(power) || got.iter().any(|(p, _, _)| p == power) {
                        return Err(Stop::Invalid(Phrase::new(
                            format!("{power} is not asked in window {number}"),
                            format!("в окне {number} ответа от {} не ждут", power.ru(Case::Gen)),
                        )));
                    }
                    if let Err(why) = check(self, *power, answer) {
                        return Err(Stop::Invalid(why));
                    }
                    got.push((*power, answer.clone(), Source::Letter));
                }
                Input::Deadline { window } if *window == number => deadline = true,
                _ => {}
            }
        }
        for &p in &asked {
            if got.iter().any(|(q, _, _)| *q == p) {
                continue;
            }
            if let Some(a) = self.standing.answer(self.map, p, &question)
                && check(self, p, &a).is_ok()
            {
                got.push((p, a, Source::Standing));
            }
        }
        if got.len() < asked.len() {
            if !deadline {
                let answered = asked
                    .iter()
                    .filter(|p| got.iter().any(|(q, _, _)| q == *p))
                    .copied()
                    .collect();
                return Err(Stop::Wait(Box::new(Window {
                    number,
                    question,
                    asked,
                    answered,
                })));
            }
            for &p in &asked {
                if !got.iter().any(|(q, _, _)| *q == p) {
                    got.push((p, default(self, p), Source::Deadline));
                }
            }
        }
        let mut out = Vec::new();
        for &p in &asked {
            if let Some((_, a, source)) = got.iter().find(|(q, _, _)| *q == p) {
                self.log.push(Event::Answered {
                    window: number,
                    power: p,
                    answer: a.clone(),
                    source: *source,
                });
                out.push((p, a.clone()));
            }
        }
        Ok(out)
    }

    /// Asks one power; returns its answer.
    pub fn ask_one(
        &mut self,
        question: Question,
        power: Power,
        check: CheckAnswer<'_>,
        default: DefaultAnswer<'_>,
    ) -> Result<Answer, Stop> {
        let mut answers = self.ask(question, vec![power], check, default)?;
        Ok(answers.pop().map(|(_, a)| a).unwrap_or(Answer::Decline))
    }

    /// Rolls `dice` dice for `power`, for the stated purpose; stops until they are given.
    pub fn roll(&mut self, dice: u32, power: Power, purpose: String) -> Result<Vec<u8>, Stop> {
        if dice == 0 {
            return Ok(Vec::new());
        }
        self.rolls += 1;
        let number = self.rolls;
        for input in self.inputs {
            if let Input::Dice { roll, values } = input
                && *roll == number
            {
                self.log.push(Event::Rolled {
                    number,
                    purpose,
                    values: values.clone(),
                });
                return Ok(values.clone());
            }
        }
        Err(Stop::Roll(DiceRequest {
            number,
            dice,
            power,
            purpose,
        }))
    }
}
