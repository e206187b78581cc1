//! Here I Stand games by mail: the referee holds the board and runs land movement through its
//! windows. A game is kept as its history (the master's adjustments and every move with the
//! inputs it received, as text) and rebuilt by replaying it with the rules core in `crate::his`;
//! dice come from the game's secret seed (`crate::dice`), committed to in the first report and
//! revealed when the game ends, so every roll in the archive can be checked.

use chrono::{DateTime, Utc};

use super::Judge;
use super::letter::Session;
use super::password::{hash_password, password_matches};
use super::phase::next_deadline;
use super::settings::GameSettings;
use crate::dice::{Dice, Seed};
use crate::diplomacy::turn::PhaseKind;
use crate::his::adjust::{apply, parse_adjustment};
use crate::his::procedure::Finish;
use crate::his::text::{parse_answer, parse_instruction, parse_move};
use crate::his::{Power, Procedure, Question, Status};
use crate::letter::{Address, OutgoingLetter};
use crate::msg;
use crate::store::{GameRow, Tx};

mod referee;

use referee::{Entry, MoveRecord, Record, Referee, standing_of};

/// The variant name a Here I Stand game is stored under.
pub const VARIANT: &str = "here-i-stand";

/// Whether a CREATE names Here I Stand.
pub fn is_his(variant: &str) -> bool {
    matches!(
        variant.to_ascii_lowercase().as_str(),
        "here-i-stand" | "his" | "hereistand"
    )
}

/// The letter a major power signs on with (`SIGNON Hvienna pw`).
pub fn power_by_letter(letter: char) -> Option<Power> {
    Some(match letter.to_ascii_uppercase() {
        'O' => Power::Ottoman,
        'H' => Power::Hapsburg,
        'E' => Power::England,
        'F' => Power::France,
        'P' => Power::Papacy,
        'R' => Power::Protestant,
        _ => return None,
    })
}

fn letter_of(power: Power) -> char {
    match power {
        Power::Ottoman => 'O',
        Power::Hapsburg => 'H',
        Power::England => 'E',
        Power::France => 'F',
        Power::Papacy => 'P',
        _ => 'R',
    }
}

/// How a question is answered, for the letter asking it.
fn answer_forms(question: &Question) -> (&'static str, &'static str) {
    match question {
        Question::Response { .. } => ("NO CARD, FOUL WEATHER or GOUT <leader>", "no card"),
        Question::Intercept { .. } => (
            "INTERCEPT FROM <space> WITH <units and leaders>, or DECLINE",
            "no interception",
        ),
        Question::AvoidBattle { .. } => (
            "AVOID TO <space> [WITH <units and leaders>], or STAY",
            "you stay",
        ),
        Question::Withdraw { .. } => ("WITHDRAW or STAY", "you stay and fight"),
        Question::Janissaries { .. } => ("JANISSARIES or NO CARD", "no card"),
        Question::Casualties { .. } => (
            "LOSE <units>",
            "mercenaries are lost first, then cavalry, then regulars",
        ),
        Question::WithdrawAfterDefeat { .. } => (
            "WITHDRAW <units and leaders> or STAY",
            "four units and every leader withdraw inside",
        ),
        Question::Retreat { .. } => (
            "RETREAT TO <space>",
            "the retreat goes to your own fortified space first",
        ),
        Question::MoveOn { .. } => ("MOVE ON or RETREAT", "you retreat"),
    }
}

impl Judge {
    /// A window's deadline passed: the silent get the default, and the move goes on.
    pub(super) fn his_deadline(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let settings = GameSettings::from_json(&game.settings);
        // `games_due` also lists games whose reminder is due; a window waits for its deadline.
        let due = game.deadline_at.is_some_and(|d| d <= now);
        if settings.paused || game.state != "active" || !due {
            return Ok(Vec::new());
        }
        let Ok(mut referee) = Referee::load(game) else {
            game.deadline_at = None;
            tx.save_game(game)?;
            return Ok(Vec::new());
        };
        let (Some(p), Some(m)) = (referee.current.as_mut(), referee.record.current.as_mut()) else {
            game.deadline_at = None;
            tx.save_game(game)?;
            return Ok(Vec::new());
        };
        let Status::Waiting(window) = p.status().clone() else {
            return Ok(Vec::new());
        };
        let silent: Vec<&str> = window.waiting_for().iter().map(|p| p.name()).collect();
        let silent = silent.join(", ");
        if p.deadline_passed(&referee.map).is_err() {
            return Ok(Vec::new());
        }
        m.inputs.push(format!("deadline {}", window.number));
        let heading = format!(
            "The deadline of window {} passed; no answer from {silent}: the defaults apply.",
            window.number
        );
        self.his_progress(tx, game, &mut referee, vec![heading], now)
    }

    /// After the move changed: rolls, the report to everyone, the letters asking the next
    /// window's powers, the deadline, and the game saved.
    fn his_progress(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        referee: &mut Referee,
        mut lines: Vec<String>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let window_before = referee.record.open_window;
        let rolls = referee.roll(&game.name);
        // An answer that leaves the same window open is told to no one else yet: who has
        // answered, and how fast, is nobody's business until the window closes.
        let still_open = matches!(
            referee.current.as_ref().map(|p| p.status()),
            Some(Status::Waiting(w)) if Some(w.number) == window_before
        );
        if still_open && rolls.is_empty() && lines.is_empty() {
            referee.save(game);
            tx.save_game(game)?;
            return Ok(Vec::new());
        }
        lines.extend(referee.news(rolls));
        let title_move = referee
            .record
            .current
            .as_ref()
            .map(|m| {
                let power = Power::from_word(&m.power).map_or(m.power.clone(), |p| p.name().into());
                format!("{power}: {}", m.request)
            })
            .unwrap_or_default();
        let mut letters = Vec::new();
        let mut asked = Vec::new();
        let status_line = match referee.current.as_ref().map(|p| p.status().clone()) {
            Some(Status::Waiting(window)) => {
                if referee.record.open_window != Some(window.number) {
                    referee.record.open_window = Some(window.number);
                    game.deadline_at = Some(next_deadline(game, PhaseKind::Movement, now));
                    asked = window.waiting_for();
                }
                // Everyone the window asks, answered or not: who has answered (or filed a
                // standing instruction) is not told until the window closes.
                let who: Vec<&str> = window.asked.iter().map(|p| p.name()).collect();
                format!(
                    "Now: window {} asks {}: {}. Answers are due by {}.",
                    window.number,
                    who.join(", "),
                    window.question.describe(&referee.map),
                    super::deadline_text(game)
                )
            }
            _ => String::new(),
        };
        let finished = referee.settle();
        if finished {
            game.deadline_at = None;
            game.phase_serial += 1;
            if lines.last().is_some_and(|l| l == "the move is over") {
                lines.pop();
            }
            lines.push(String::new());
            lines.push("The move is over. The board where anything stands:".into());
            lines.extend(referee.board_lines().into_iter().map(|l| format!("  {l}")));
        } else if !status_line.is_empty() {
            lines.push(String::new());
            lines.push(status_line);
        }
        referee.save(game);
        tx.save_game(game)?;
        let title = format!("Game '{}' (Here I Stand): {title_move}", game.name);
        let body = lines.join("\n") + "\n";
        tx.archive(game.id, game.phase_serial, &title, &body, now)?;
        let members = tx.members(game.id)?;
        for m in &members {
            letters.push(OutgoingLetter {
                to: vec![Address::new(&m.email)],
                subject: title.clone(),
                body: body.clone(),
                in_reply_to: None,
                references: Vec::new(),
            });
        }
        // Each power asked gets its own letter saying how to answer (every eligible power is
        // asked, whether or not it can do anything, so that silence tells nothing).
        if let Some(Status::Waiting(window)) = referee.current.as_ref().map(|p| p.status()) {
            let (forms, default) = answer_forms(&window.question);
            for power in asked {
                let Some(member) = members
                    .iter()
                    .find(|m| m.power.as_deref() == Some(power.id()))
                else {
                    continue;
                };
                letters.push(OutgoingLetter {
                    to: vec![Address::new(&member.email)],
                    subject: format!(
                        "Game '{}': {} is asked (window {})",
                        game.name,
                        power.name(),
                        window.number
                    ),
                    body: format!(
                        "{}\n\nAnswer by {} in a letter:\n  SIGNON {}{} <your password>\n  {forms}\n\nWithout an answer by then: {default}.\n",
                        window.question.describe(&referee.map),
                        super::deadline_text(game),
                        letter_of(power),
                        game.name,
                    ),
                    in_reply_to: None,
                    references: Vec::new(),
                });
            }
        }
        Ok(letters)
    }
}

impl Session<'_> {
    /// The Here I Stand game called `name`, if that is what it is.
    pub(super) fn his_game(&self, tx: &Tx, name: &str) -> rusqlite::Result<Option<GameRow>> {
        Ok(tx.game_by_name(name)?.filter(|g| g.variant == VARIANT))
    }

    /// CREATE ?game pw his: the sender referees it as its master; the 1517 board; the dice
    /// committed to in the first report.
    pub(super) fn his_create(
        &mut self,
        tx: &Tx,
        line: usize,
        game: &str,
        password: &str,
    ) -> rusqlite::Result<()> {
        if tx.game_by_name(game)?.is_some() {
            self.fail(line, msg!("seats.game_exists", game = game));
            return Ok(());
        }
        let fixed = self
            .judge
            .config
            .judge
            .dice_seed
            .as_deref()
            .and_then(Seed::from_hex);
        let seed = match fixed {
            Some(seed) => seed,
            None => {
                let mut bytes = [0u8; 32];
                if getrandom::fill(&mut bytes).is_err() {
                    self.fail(line, msg!("his.no_randomness"));
                    return Ok(());
                }
                Seed::from_bytes(bytes)
            }
        };
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        let d = &self.judge.config.deadlines;
        let mut row = tx.create_game(
            game,
            VARIANT,
            player.id,
            &self.judge.config.judge.time_zone,
            [24, d.retreat_hours, d.adjustment_hours, d.reminder_hours],
            self.now,
        )?;
        let mut settings = GameSettings::with_hours(24, d.retreat_hours, d.adjustment_hours);
        settings.moderated = true;
        settings.masters.push(player.id);
        row.settings = settings.to_json();
        row.state = "active".into();
        let record = Record {
            seed: seed.to_hex(),
            ..Record::default()
        };
        row.position = Some(serde_json::to_string(&record).expect("a record is JSON"));
        tx.save_game(&row)?;
        tx.set_member(
            row.id,
            player.id,
            None,
            "master",
            &hash_password(password),
            self.now,
        )?;
        let commitment = Dice::new(seed, &row.name).commitment_line();
        let body = format!(
            "Game '{}' of Here I Stand starts on the 1517 board; the referee runs land movement.\n\n{commitment}\n",
            row.name
        );
        tx.archive(
            row.id,
            0,
            &format!("Game '{}' (Here I Stand) is created", row.name),
            &body,
            self.now,
        )?;
        self.say(msg!(
            "his.created",
            game = row.name,
            commitment = commitment
        ));
        self.master_of = Some(row);
        Ok(())
    }

    /// SIGNON <letter><game> pw in a Here I Stand game: takes a power without a player, or
    /// signs on as the power's player.
    pub(super) fn his_signon(
        &mut self,
        tx: &Tx,
        line: usize,
        letter: char,
        row: GameRow,
        password: &str,
    ) -> rusqlite::Result<()> {
        let Some(power) = power_by_letter(letter) else {
            self.fail(
                line,
                msg!("his.no_such_power", letter = letter, game = row.name),
            );
            return Ok(());
        };
        let members = tx.members(row.id)?;
        match members
            .iter()
            .find(|m| m.power.as_deref() == Some(power.id()))
        {
            Some(member) if password_matches(password, &member.password_hash) => {
                self.answer_to = member.email.clone();
                self.say(msg!("his.signed_on", power = power.name(), game = row.name));
            }
            Some(_) => {
                self.fail(line, msg!("seats.wrong_password", game = row.name));
                return Ok(());
            }
            None => {
                let player = tx.register_player(&self.sender, None, None, self.now)?;
                if members.iter().any(|m| m.player_id == player.id) {
                    self.fail(line, msg!("his.one_seat", game = row.name));
                    return Ok(());
                }
                tx.set_member(
                    row.id,
                    player.id,
                    Some(power.id()),
                    "player",
                    &hash_password(password),
                    self.now,
                )?;
                self.say(msg!("his.joined", power = power.name(), game = row.name));
                self.announce(
                    tx,
                    &row,
                    msg!("his.joined_subject", game = row.name, power = power.name()),
                    msg!(
                        "his.joined_notice",
                        game = row.name,
                        power = power.name(),
                        player = self.sender
                    ),
                )?;
            }
        }
        self.signed_on = Some((row, power.id().to_string()));
        Ok(())
    }

    /// Lines written in a Here I Stand game: a power's MOVE, answers and standing
    /// instructions; the master's adjustments of the board.
    pub(super) fn his_lines(
        &mut self,
        tx: &Tx,
        row: GameRow,
        power: Option<Power>,
        text: &str,
        first_line: usize,
    ) -> rusqlite::Result<()> {
        let mut game = tx.game(row.id)?;
        if game.state != "active" {
            self.fail(first_line, msg!("his.not_active", game = game.name));
            return Ok(());
        }
        let mut referee = match Referee::load(&game) {
            Ok(r) => r,
            Err(why) => {
                self.fail(first_line, msg!("his.broken", game = game.name, why = why));
                return Ok(());
            }
        };
        let mut heading = Vec::new();
        let mut changed = false;
        let mut announcements = Vec::new();
        for (i, written) in text.lines().enumerate() {
            let line = first_line + i;
            let written = written.trim();
            if written.is_empty() {
                continue;
            }
            self.say_text(format!("> {written}"));
            let upper = written.to_ascii_uppercase();
            let result: Result<String, String> = match power {
                None if upper == "CANCEL MOVE" => match referee.current.take() {
                    Some(_) => {
                        referee.record.current = None;
                        referee.record.open_window = None;
                        game.deadline_at = None;
                        announcements.push("The master cancelled the move under way.".to_string());
                        Ok("The move under way is cancelled; the board is as before it.".into())
                    }
                    None => Err("no move is under way".into()),
                },
                None if referee.current.is_some() => {
                    Err("a move is under way: adjust the board after it, or CANCEL MOVE".into())
                }
                None => parse_adjustment(&referee.map, written).and_then(|adjustment| {
                    let said = apply(&referee.map, &mut referee.board, &adjustment)?;
                    referee.record.log.push(Entry::Adjust {
                        line: written.to_string(),
                    });
                    announcements.push(said.clone());
                    Ok(said)
                }),
                Some(power) if upper.starts_with("STANDING") => {
                    let rest = written[8..].trim();
                    if rest.eq_ignore_ascii_case("clear") {
                        referee.record.standing.retain(|(p, _)| p != power.id());
                        Ok("Your standing instructions are cleared.".into())
                    } else {
                        parse_instruction(&referee.map, rest).map(|_| {
                            referee
                                .record
                                .standing
                                .push((power.id().to_string(), rest.to_string()));
                            format!("Standing instruction filed: {rest}")
                        })
                    }
                }
                Some(power) if upper.starts_with("MOVE ") && !upper.starts_with("MOVE ON") => {
                    if referee.current.is_some() {
                        Err("a move is under way; it must end before the next".into())
                    } else {
                        parse_move(&referee.map, power, written).and_then(|request| {
                            let standing = standing_of(&referee.map, &referee.record.standing);
                            let p =
                                Procedure::start(&referee.map, &referee.board, request, standing);
                            if matches!(p.status(), Status::Finished(Finish::Refused)) {
                                let why: Vec<String> = p
                                    .events()
                                    .iter()
                                    .map(|e| e.describe(&referee.map))
                                    .collect();
                                return Err(why.join(" "));
                            }
                            referee.record.current = Some(MoveRecord {
                                power: power.id().to_string(),
                                request: written.to_string(),
                                standing: referee.record.standing.clone(),
                                inputs: Vec::new(),
                                reported: 0,
                            });
                            referee.current = Some(p);
                            changed = true;
                            heading.push(format!("{} declares: {written}", power.name()));
                            Ok("The move is declared; the report follows.".into())
                        })
                    }
                }
                Some(power) => match (referee.current.as_mut(), referee.record.current.as_mut()) {
                    (Some(p), Some(m)) => match p.status().clone() {
                        Status::Waiting(window) if window.waiting_for().contains(&power) => {
                            parse_answer(&referee.map, power, &window.question, written).and_then(
                                |answer| {
                                    let said = answer.describe(&referee.map);
                                    p.answer(&referee.map, power, answer)?;
                                    m.inputs.push(format!(
                                        "answer {} {} {written}",
                                        window.number,
                                        power.id()
                                    ));
                                    changed = true;
                                    Ok(format!("Your answer to window {}: {said}", window.number))
                                },
                            )
                        }
                        _ => Err("nothing is asked of you now".into()),
                    },
                    _ => Err("no move is under way".into()),
                },
            };
            match result {
                Ok(said) => self.say_text(said),
                Err(why) => self.fail(line, msg!("letter.text", text = why)),
            }
        }
        if !announcements.is_empty() {
            referee.save(&mut game);
            tx.save_game(&game)?;
            self.announce(
                tx,
                &game,
                msg!("his.adjusted_subject", game = game.name),
                msg!("letter.text", text = announcements.join("\n")),
            )?;
        }
        if changed {
            let letters =
                self.judge
                    .his_progress(tx, &mut game, &mut referee, heading, self.now)?;
            self.caused.extend(letters);
        } else {
            referee.save(&mut game);
            tx.save_game(&game)?;
        }
        Ok(())
    }

    /// LIST game for a Here I Stand game: the board where anything stands, and the move.
    pub(super) fn his_list(&mut self, row: &GameRow) {
        let Ok(referee) = Referee::load(row) else {
            self.say(msg!("his.broken", game = row.name, why = "unreadable"));
            return;
        };
        let mut lines = vec![format!(
            "Game '{}' (Here I Stand), {}. Impulse {}: {} has {} CP.",
            row.name,
            row.state,
            referee.board.impulse,
            referee.board.active.name(),
            referee.board.cp
        )];
        lines.extend(referee.board_lines().into_iter().map(|l| format!("  {l}")));
        if let Some(p) = &referee.current {
            lines.push(format!(
                "A move is under way: {}",
                crate::his::text::describe_status(&referee.map, p.status())
            ));
        }
        self.say_text(lines.join("\n"));
    }

    /// TERMINATE in a Here I Stand game also reveals the dice seed, so anyone can check.
    pub(super) fn his_reveal(&mut self, tx: &Tx, row: &GameRow) -> rusqlite::Result<()> {
        let Ok(referee) = Referee::load(row) else {
            return Ok(());
        };
        let reveal = Dice::resume(referee.seed(), &row.name, referee.record.rolls).reveal_line();
        let body = format!(
            "{reveal}\nCheck every roll of the game with: strategos verify-dice <the game's archive>\n"
        );
        self.say_text(body.trim_end().to_string());
        self.announce(
            tx,
            row,
            msg!("his.revealed_subject", game = row.name),
            msg!("letter.text", text = body.trim_end()),
        )
    }
}
