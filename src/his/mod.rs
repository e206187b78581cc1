//! The Here I Stand referee's rules core: the map as data, the board, and the land movement
//! procedure (response cards, interception, avoiding battle, withdrawal into fortifications,
//! field battle, retreat) as a pure state machine the mail layer drives. Pure: no files,
//! network, database, clock or randomness; dice come in from outside as answers to requests.
//!
//! - `map`: spaces, connections, leaders (read from `variants/his/here-i-stand.toml` by
//!   `variant::his`).
//! - `power`: the powers and their relations.
//! - `board`: control, unrest, units, leaders, sieges, the impulse.
//! - `procedure`: `Procedure`, run over its inputs; `question`: what a window asks and what a
//!   power answers.
//! - `movement`: the eight steps in order; `check`, `interception`, `avoid`, `battle`,
//!   `retreat`: the steps, which never import one another.
//! - `course`: what the steps share (the move, the running context with its windows and rolls,
//!   a side's forces, closed spaces, lone leaders, fortifications, the 2d6 modifiers).
//! - `event`: the record of a move, with the reason for everything; `refusal`: why a move is
//!   refused.
//! - `standing`: standing instructions that answer windows in advance.
//! - `lang`: the languages the referee writes in (English, Russian) and the values its
//!   sentences (`Message`s, keys `his.*` in the catalogs) need: power names in Russian cases.
//! - `text`: moves, answers and adjustments as players and the master write them.
//! - `adjust`: the game master's changes to the board.

pub mod adjust;
pub mod avoid;
pub mod battle;
pub mod board;
pub mod check;
mod course;
pub mod event;
pub mod interception;
pub mod lang;
pub mod map;
pub mod movement;
pub mod power;
pub mod procedure;
pub mod question;
pub mod refusal;
pub mod retreat;
pub mod standing;
pub mod text;

pub use board::{Board, Force, Units};
pub use lang::Lang;
pub use map::{LeaderId, Map, SpaceId};
pub use power::Power;
pub use procedure::{Answer, DiceRequest, Input, MoveRequest, Procedure, Question, Status, Window};
pub use standing::{Instruction, Standing};
