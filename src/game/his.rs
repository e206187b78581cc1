//! A Here I Stand game as stored and rebuilt: its history (the master's adjustments and each
//! move with the inputs it received, as text) replayed with the rules core onto the 1517 board,
//! the move under way, and the dice rolled from the game's seed.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, Seed};
use crate::his::adjust::{apply, parse_adjustment};
use crate::his::board::LeaderPlace;
use crate::his::event::Event;
use crate::his::procedure::Finish;
use crate::his::text::{parse_answer, parse_instruction, parse_move};
use crate::his::{Board, Map, Power, Procedure, SpaceId, Standing, Status};
use crate::store::GameRow;

use crate::report::{Message, Words};

/// What is stored for a game (in `games.position`, as JSON).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The secret seed of the game's dice, hex; revealed when the game ends.
    pub(crate) seed: String,
    /// Rolls made so far in the game.
    pub(crate) rolls: u64,
    /// Everything done to the board, in order.
    pub(crate) log: Vec<Entry>,
    /// The move under way.
    pub(crate) current: Option<MoveRecord>,
    /// Standing instructions: (power id, text as written).
    pub(crate) standing: Vec<(String, String)>,
    /// The window whose deadline is set (so a new window gets a new deadline).
    pub(crate) open_window: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum Entry {
    Adjust { line: String },
    Move(MoveRecord),
}

/// A move as declared and every input it received, as text:
/// `answer <window> <power> <text>`, `deadline <window>`, `dice <roll> <values...>`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct MoveRecord {
    pub(crate) power: String,
    pub(crate) request: String,
    pub(crate) standing: Vec<(String, String)>,
    pub(crate) inputs: Vec<String>,
    /// Events already reported.
    pub(crate) reported: usize,
}

/// A game rebuilt: the board before the move under way, and that move.
pub(crate) struct Referee {
    pub(crate) map: Map,
    pub(crate) record: Record,
    pub(crate) board: Board,
    pub(crate) current: Option<Procedure>,
}

pub(crate) fn standing_of(map: &Map, list: &[(String, String)]) -> Standing {
    let mut standing = Standing::new();
    for (power, text) in list {
        if let (Some(power), Ok(instruction)) =
            (Power::from_word(power), parse_instruction(map, text))
        {
            standing.file(power, instruction);
        }
    }
    standing
}

/// Why a stored record does not replay, in English (the keeper's words).
fn english(why: Message) -> String {
    Words::english().message(&why)
}

fn feed(map: &Map, procedure: &mut Procedure, input: &str) -> Result<(), String> {
    let mut parts = input.splitn(4, ' ');
    match parts.next() {
        Some("answer") => {
            let window: u32 = parts.next().and_then(|w| w.parse().ok()).ok_or("window")?;
            let power = parts.next().and_then(Power::from_word).ok_or("power")?;
            let text = parts.next().unwrap_or("");
            let Status::Waiting(open) = procedure.status() else {
                return Err("no window is open".into());
            };
            if open.number != window {
                return Err(format!("window {window} is not open"));
            }
            let answer = parse_answer(map, power, &open.question, text).map_err(english)?;
            procedure.answer(map, power, answer).map_err(english)
        }
        Some("deadline") => procedure.deadline_passed(map).map_err(english),
        Some("dice") => {
            let _roll = parts.next();
            let rest: Vec<&str> = parts.collect();
            let values: Vec<u8> = rest
                .join(" ")
                .split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect();
            procedure.give_dice(map, &values).map_err(english)
        }
        _ => Err(format!("unknown input `{input}`")),
    }
}

fn replay(map: &Map, board: &Board, record: &MoveRecord) -> Result<Procedure, String> {
    let power = Power::from_word(&record.power).ok_or("power")?;
    let request = parse_move(map, power, &record.request).map_err(english)?;
    let mut procedure = Procedure::start(map, board, request, standing_of(map, &record.standing));
    for input in &record.inputs {
        feed(map, &mut procedure, input)?;
    }
    Ok(procedure)
}

impl Referee {
    pub(crate) fn load(row: &GameRow) -> Result<Referee, String> {
        let map = crate::variant::his::embedded_map().map_err(|e| format!("the map: {e:?}"))?;
        let record: Record = row
            .position
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| e.to_string())?
            .unwrap_or_default();
        let mut board = Board::scenario_1517(&map);
        for entry in &record.log {
            match entry {
                Entry::Adjust { line } => {
                    let adjustment = parse_adjustment(&map, line).map_err(english)?;
                    apply(&map, &mut board, &adjustment).map_err(english)?;
                }
                Entry::Move(m) => board = replay(&map, &board, m)?.board().clone(),
            }
        }
        let current = match &record.current {
            Some(m) => Some(replay(&map, &board, m)?),
            None => None,
        };
        Ok(Referee {
            map,
            record,
            board,
            current,
        })
    }

    pub(crate) fn save(&self, row: &mut GameRow) {
        row.position = Some(serde_json::to_string(&self.record).expect("a record is JSON"));
    }

    pub(crate) fn seed(&self) -> Seed {
        Seed::from_hex(&self.record.seed).unwrap_or_else(|| Seed::from_bytes([0; 32]))
    }

    /// Rolls every die the move awaits; returns the roll lines for the report.
    pub(crate) fn roll(&mut self, game: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let seed = self.seed();
        while let (Some(p), Some(m)) = (self.current.as_mut(), self.record.current.as_mut()) {
            let Status::Rolling(request) = p.status().clone() else {
                break;
            };
            let mut dice = Dice::resume(seed.clone(), game, self.record.rolls);
            let details: Vec<&str> = request.details.iter().map(String::as_str).collect();
            let Ok(roll) = dice.roll(&request.what, request.dice as usize, &details) else {
                break;
            };
            if p.give_dice(&self.map, &roll.dice).is_err() {
                break;
            }
            self.record.rolls = dice.made();
            let values: Vec<String> = roll.dice.iter().map(|d| d.to_string()).collect();
            m.inputs
                .push(format!("dice {} {}", request.number, values.join(" ")));
            lines.push(roll.line());
        }
        lines
    }

    /// The move's events not yet reported, with each roll as the game's verifiable roll line
    /// (from `rolls`, in order, the same in every language) where the procedure rolled; marks
    /// them reported.
    pub(crate) fn news(&mut self, rolls: Vec<String>) -> Vec<Line> {
        let (Some(p), Some(m)) = (self.current.as_ref(), self.record.current.as_mut()) else {
            return rolls.into_iter().map(Line::Verbatim).collect();
        };
        let events = p.events();
        let mut rolls = rolls.into_iter().peekable();
        let mut fresh: Vec<Line> = Vec::new();
        for event in &events[m.reported.min(events.len())..] {
            match (
                event,
                rolls.next_if(|_| matches!(event, Event::Rolled { .. })),
            ) {
                (_, Some(line)) => fresh.push(Line::Verbatim(line)),
                (event, None) => fresh.push(Line::Event(event.clone())),
            }
        }
        fresh.extend(rolls.map(Line::Verbatim));
        m.reported = events.len();
        fresh
    }

    /// Files a finished move into the log.
    pub(crate) fn settle(&mut self) -> bool {
        let finished = self.current.as_ref().is_some_and(|p| p.is_finished());
        if finished {
            let p = self.current.take().expect("checked");
            let m = self.record.current.take().expect("kept with the procedure");
            if matches!(p.status(), Status::Finished(Finish::Done)) {
                self.board = p.board().clone();
                self.record.log.push(Entry::Move(m));
            }
            self.record.open_window = None;
        }
        finished
    }

    /// The spaces where anything stands, in the order of their names.
    pub(crate) fn board_spaces(&self) -> Vec<SpaceId> {
        let mut spaces: Vec<_> = self
            .board
            .detachments
            .iter()
            .filter(|d| !d.units.is_empty())
            .map(|d| d.space)
            .chain(self.board.leaders.iter().filter_map(|l| match l.place {
                LeaderPlace::Space { space, .. } => Some(space),
                _ => None,
            }))
            .collect();
        spaces.sort_by_key(|s| self.map.space(*s).name.clone());
        spaces.dedup();
        spaces
    }
}

/// A line of a Here I Stand report, written in each reader's language when the letters go
/// out.
pub(crate) enum Line {
    /// A sentence of the catalog.
    Say(Message),
    /// The same in every language: a roll line, which programs read back.
    Verbatim(String),
    /// An entry of the move's record.
    Event(Event),
    /// A space where anything stands once the move is over, indented.
    Space(SpaceId),
    Blank,
}

/// The game's board as SVG, with the move under way, if any; `None` if it cannot be read.
pub(crate) fn picture(row: &GameRow, words: Words<'_>) -> Option<String> {
    let referee = Referee::load(row).ok()?;
    let moving = referee.current.as_ref().map(|p| {
        let request = p.request();
        crate::drawing::his::MoveShown {
            power: request.power,
            from: request.from,
            to: request.to,
            text: words.message(&crate::his::text::describe_status(&referee.map, p.status())),
        }
    });
    crate::drawing::his::draw_board(&referee.map, &referee.board, moving.as_ref(), words)
}
