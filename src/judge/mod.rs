//! The game master: a letter in gives state changes and letters out; time passing gives
//! reminders and processed phases. Everything happens inside one store transaction, which
//! the caller commits together with the letters it queues.
//!
//! - `session/`: one incoming letter's session: what it builds up (`mod.rs`), its handling
//!   (`handle.rs`), the one table from command to handler (`dispatch.rs`), its answer.
//! - `commands/`: what each command does, by family (seats, information, play, press, a
//!   player's and a master's settings, forming games, help).
//! - `access/`: who a letter may act as: passwords and locks, proof past the hourly limit,
//!   tokens sent back (CONFIRM), held letters, who may see a game, robots.
//! - `phases/`: a game's phases: starting and processing, results letters and subjects,
//!   deadlines and late notices, timing, the pictures letters carry.
//! - `his/`: Here I Stand games by mail.

use crate::game::{GameKind, GameState};
pub(crate) mod access;
pub(crate) mod commands;
pub mod his;
pub(crate) mod phases;
pub(crate) mod session;

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::letter::{IncomingLetter, OutgoingLetter};
use crate::report::{Templates, When, Words};
use crate::store::{GameRow, Tx};
use crate::variant::Variant;

/// The judge: its configuration, variants and templates.
pub struct Judge {
    pub config: Config,
    pub variants: Vec<Variant>,
    pub templates: Templates,
    /// The position last read from its stored text (`game_position`).
    pub last_position: LastPosition,
    /// Results pictures painted ahead on other cores for a busy deadline (the daemon's).
    pub pictures_ahead: phases::pictures::PicturesAhead,
}

/// The position last read from its stored text, with its variant's id and that text: a
/// letter's commands ask for their game's position several times (the orders, whether every
/// order is in, who still owes), and each asking read the stored JSON again. Like a map's
/// lexicon, it changes how fast an answer comes, never what it says: the position is read
/// again whenever the text or the variant differs, and a judge's variants do not change.
#[derive(Debug, Default)]
pub struct LastPosition(
    std::sync::Mutex<Option<(String, String, crate::diplomacy::position::Position)>>,
);

/// What handling one letter gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handled {
    /// The answer first (none for automatic mail), then the letters it caused: copies,
    /// announcements, start notices, reports.
    pub letters: Vec<OutgoingLetter>,
    /// Something was done: the letter held commands and none was refused (its answer has no
    /// `[Error Flag]`). The answer to a letter in which nothing was done is the kind a robot
    /// gets again and again, so the daemon holds back identical ones (`answers`).
    pub effective: bool,
    /// What the letter was, for the daemon's log: never a password, nor a word of press.
    pub summary: LetterSummary,
}

/// A letter in a few words, for the log: the games it was about, its commands by their
/// keywords (`SIGNON`, `orders`, `SET WAIT`, `PRESS`), how many errors its answer told, and
/// whether it waits for its address's confirmation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LetterSummary {
    pub games: Vec<String>,
    pub commands: Vec<String>,
    pub errors: usize,
    pub held: bool,
}

impl std::fmt::Display for LetterSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let games = if self.games.is_empty() {
            "-".to_string()
        } else {
            self.games.join(",")
        };
        let commands = if self.commands.is_empty() {
            "none".to_string()
        } else {
            self.commands.join(", ")
        };
        let outcome = match (self.held, self.errors) {
            (true, _) => "held for confirmation".to_string(),
            (false, 0) => "done".to_string(),
            (false, n) => format!("{n} error(s)"),
        };
        write!(f, "games {games}; commands {commands}; {outcome}")
    }
}

/// A game's deadline as its players read it in English, in the game's time zone.
pub fn deadline_text(game: &GameRow) -> String {
    deadline_text_in(Words::english(), game)
}

/// A game's deadline in the reader's words, in the game's time zone.
pub fn deadline_text_in(words: Words, game: &GameRow) -> String {
    words.when(&deadline_of(game))
}

/// A game's deadline, to put in a message for readers of any language.
pub fn deadline_of(game: &GameRow) -> When {
    When {
        at: game.deadline_at,
        zone: game.time_zone.clone(),
    }
}

impl Judge {
    /// The variant with this id.
    pub fn variant(&self, id: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.id.eq_ignore_ascii_case(id))
    }

    /// Handles one letter; returns the letters it causes (an answer, start notices,
    /// reports) and whether anything was done. Automatic mail gets no answer.
    pub fn handle_letter(
        &self,
        tx: &Tx,
        letter: &IncomingLetter,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Handled> {
        crate::judge::session::handle::handle(self, tx, letter, now)
    }

    /// The operator's commands for `game` (`strategos game do`): run as its master, through
    /// the same code as mail, answered to the keeper.
    pub fn operate(
        &self,
        tx: &Tx,
        game: &str,
        commands: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Result<Vec<OutgoingLetter>, String>> {
        let Some(row) = tx.game_by_name(game)? else {
            return Ok(Err(format!("there is no game called '{game}'")));
        };
        let keeper = crate::letter::Address::new(&self.config.judge.keeper);
        let letter = IncomingLetter {
            message_id: format!(
                "operator.{}.{}@strategos.invalid",
                row.name,
                now.timestamp()
            ),
            from: Some(keeper.clone()),
            refused_from: None,
            reply_to: None,
            to: Vec::new(),
            subject: format!("Operator: game '{}'", row.name),
            body: commands.to_string(),
            automatic: None,
            references: Vec::new(),
            size: commands.len(),
            warnings: Vec::new(),
        };
        crate::judge::session::handle::handle_as(self, tx, &letter, now, Some(row))
            .map(|handled| Ok(handled.letters))
    }

    /// What time asks of the running games: reminders before deadlines, phases at their
    /// deadlines (or after the grace, by the game's policy). The games the clock has something
    /// for now (a deadline, a reminder, processing after the delay), for `tick_game`, each in a
    /// transaction of its own; requests whose token
    /// never came back are forgotten first, held letters with them.
    pub fn due_games(&self, tx: &Tx, now: DateTime<Utc>) -> rusqlite::Result<Vec<i64>> {
        tx.expire_requests(now)?;
        Ok(tx.games_due(now)?.into_iter().map(|g| g.id).collect())
    }

    /// One game's turn with the clock (read afresh: another judge process may have handled
    /// it since `due_games`).
    pub fn tick_game(
        &self,
        tx: &Tx,
        id: i64,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let mut game = tx.game(id)?;
        if game.state != GameState::Active {
            return Ok(Vec::new());
        }
        if game.kind() == GameKind::HereIStand {
            return self.his_deadline(tx, &mut game, now);
        }
        self.at_deadline(tx, &mut game, now)
    }
}
