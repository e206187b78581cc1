//! Here I Stand games by mail: the referee holds the board and runs land movement through its
//! windows. A game is kept as its history (the master's adjustments and every move with the
//! inputs it received, as text) and rebuilt by replaying it with the rules core in `crate::his`;
//! dice come from the game's secret seed (`crate::dice`), committed to in the first report and
//! revealed when the game ends, so every roll in the archive can be checked.
//!
//! The interface is narrow and the dependency goes one way: the letters' side
//! (`judge/commands/his.rs`: signing on, passwords, seats, secrecy, what a letter answers) calls
//! the operations here (`create`, `lines`, `list`, `reveal_line`, `deadline`), which return what
//! to say and send; what they need of the judge around them is `Desk` (the configuration, the
//! templates, the words a game and a member read, when a window closes), which the judge
//! implements. Nothing here uses the session or the phases of Diplomacy games.

use crate::game::GameState;
use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::dice::{Dice, Seed};
use crate::game::settings::GameSettings;
use crate::his::adjust::{apply, parse_adjustment};
use crate::his::event::Event;
use crate::his::lang::{Case, commas, each, lines as lines_of};
use crate::his::procedure::Finish;
use crate::his::text::{
    describe_space, describe_status, parse_answer, parse_instruction, parse_move,
};
use crate::his::{Power, Procedure, Question, Status};
use crate::letter::OutgoingLetter;
use crate::report::Templates;
use crate::report::messages::{Arg, Message, Words};
use crate::store::{GameRow, MemberRow, Tx};
use crate::{msg, tr};

use crate::game::his::{Entry, Line, MoveRecord, Record, Referee, standing_of};

/// What a Here I Stand game needs of the judge around it.
pub(crate) trait Desk {
    fn config(&self) -> &Config;
    fn templates(&self) -> &Templates;
    /// The words of the game's own language: its archive is kept in them.
    fn game_words(&self, game: &GameRow) -> Words<'_>;
    /// The words a member reads the game's letters in.
    fn member_words(
        &self,
        tx: &Tx,
        game: &GameRow,
        member: &MemberRow,
    ) -> rusqlite::Result<Words<'_>>;
    /// When a window opened at `now` closes (the game's movement deadline).
    fn window_deadline(&self, game: &GameRow, now: DateTime<Utc>) -> DateTime<Utc>;
    /// What every letter about the game begins its subject with (`STRA:game -`).
    fn subject_prefix(&self, game: &GameRow) -> String;
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

/// The letter of a major power in a sign-on (`Hvienna`).
pub(crate) fn letter_of(power: Power) -> char {
    match power {
        Power::Ottoman => 'O',
        Power::Hapsburg => 'H',
        Power::England => 'E',
        Power::France => 'F',
        Power::Papacy => 'P',
        _ => 'R',
    }
}

/// How a question is answered, and what silence means, for the letter asking it.
fn answer_forms(question: &Question) -> (Message, Message) {
    match question {
        Question::Response { .. } => (msg!("his.forms.response"), msg!("his.defaults.no_card")),
        Question::Intercept { .. } => (
            msg!("his.forms.intercept"),
            msg!("his.defaults.no_interception"),
        ),
        Question::AvoidBattle { .. } => (msg!("his.forms.avoid"), msg!("his.defaults.stay")),
        Question::Withdraw { .. } => (
            msg!("his.forms.withdraw"),
            msg!("his.defaults.stay_and_fight"),
        ),
        Question::Janissaries { .. } => {
            (msg!("his.forms.janissaries"), msg!("his.defaults.no_card"))
        }
        Question::Casualties { .. } => (
            msg!("his.forms.casualties"),
            msg!("his.defaults.casualties"),
        ),
        Question::WithdrawAfterDefeat { .. } => (
            msg!("his.forms.withdraw_inside"),
            msg!("his.defaults.withdraw_inside"),
        ),
        Question::Retreat { .. } => (msg!("his.forms.retreat"), msg!("his.defaults.retreat")),
        Question::MoveOn { .. } => (msg!("his.forms.move_on"), msg!("his.defaults.move_on")),
    }
}

/// A power's name in every language.
pub(crate) fn name(power: Power) -> Arg {
    power.named(Case::Nom)
}

/// Powers named in a list: `France, Papacy, Protestant`.
fn names(powers: &[Power]) -> Arg {
    commas(powers.iter().map(|p| name(*p)).collect())
}

/// The text ending as a sentence: a full stop unless it asks or already ends.
fn sentence(text: String) -> String {
    if text.ends_with(['.', '?', '!']) {
        text
    } else {
        text + "."
    }
}

/// The report's lines in `words`.
fn render(lines: &[Line], referee: &Referee, words: Words) -> String {
    let mut out = String::new();
    for line in lines {
        match line {
            Line::Say(message) => out.push_str(&words.message(message)),
            Line::Verbatim(text) => out.push_str(text),
            Line::Event(event) => out.push_str(&words.message(&event.describe(&referee.map))),
            Line::Space(space) => {
                out.push_str("  ");
                out.push_str(&words.message(&describe_space(&referee.map, &referee.board, *space)));
            }
            Line::Blank => {}
        }
        out.push('\n');
    }
    out
}

/// A window's deadline passed: the silent get the default, and the move goes on.
pub(crate) fn deadline(
    desk: &dyn Desk,
    tx: &Tx,
    game: &mut GameRow,
    now: DateTime<Utc>,
) -> rusqlite::Result<Vec<OutgoingLetter>> {
    let settings = game.settings.clone();
    // `games_due` also lists games whose reminder is due; a window waits for its deadline.
    let due = game.deadline_at.is_some_and(|d| d <= now);
    if settings.paused || game.state != GameState::Active || !due {
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
    let silent = names(&window.waiting_for());
    if p.deadline_passed(&referee.map).is_err() {
        return Ok(Vec::new());
    }
    m.inputs.push(format!("deadline {}", window.number));
    let heading = Line::Say(msg!(
        "his.deadline_passed",
        window = window.number,
        powers = silent
    ));
    progress(desk, tx, game, &mut referee, vec![heading], now)
}

/// After the move changed: rolls, the report to everyone (each in their language, the archive
/// in the game's), the letters asking the next window's powers, the deadline, and the game
/// saved.
fn progress(
    desk: &dyn Desk,
    tx: &Tx,
    game: &mut GameRow,
    referee: &mut Referee,
    mut lines: Vec<Line>,
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
    let (mover, request) = referee
        .record
        .current
        .as_ref()
        .map(|m| {
            let power = Power::from_word(&m.power).map_or(Arg::Text(m.power.clone()), name);
            (power, m.request.clone())
        })
        .unwrap_or((Arg::Text(String::new()), String::new()));
    let mut asked = Vec::new();
    let status_line = match referee.current.as_ref().map(|p| p.status().clone()) {
        Some(Status::Waiting(window)) => {
            if referee.record.open_window != Some(window.number) {
                referee.record.open_window = Some(window.number);
                game.deadline_at = Some(desk.window_deadline(game, now));
                asked = window.waiting_for();
            }
            // Everyone the window asks, answered or not: who has answered (or filed a
            // standing instruction) is not told until the window closes.
            let map = &referee.map;
            let question = window.question.describe(map);
            let question = each(|lang| sentence(desk.templates().words(lang).message(&question)));
            Some(msg!(
                "his.now",
                window = window.number,
                powers = names(&window.asked),
                question = question,
                deadline = crate::judge::deadline_of(game)
            ))
        }
        _ => None,
    };
    let finished = referee.settle();
    if finished {
        game.deadline_at = None;
        game.phase_serial += 1;
        if matches!(lines.last(), Some(Line::Event(Event::Ended))) {
            lines.pop();
        }
        lines.push(Line::Blank);
        lines.push(Line::Say(msg!("his.move_over")));
        lines.extend(referee.board_spaces().into_iter().map(Line::Space));
    } else if let Some(status) = status_line {
        lines.push(Line::Blank);
        lines.push(Line::Say(status));
    }
    referee.save(game);
    tx.save_game(game)?;
    let title = msg!(
        "his.report_subject",
        game = desk.subject_prefix(game),
        power = mover,
        request = request
    );
    let mut written: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut write = |words: Words| {
        written
            .entry(words.language().to_string())
            .or_insert_with(|| (words.message(&title), render(&lines, referee, words)))
            .clone()
    };
    let (subject, body) = write(desk.game_words(game));
    tx.archive(game.id, game.phase_serial, &subject, &body, now)?;
    let members = tx.members(game.id)?;
    let mut letters = Vec::new();
    // A move over: the report carries the picture of the new board (map.png), drawn once
    // per language, for the members who want it (SET MAP, SET GAME MAP).
    let game_map = finished && game.settings.clone().map;
    let mut pictures: BTreeMap<String, Option<crate::letter::Attachment>> = BTreeMap::new();
    for m in &members {
        let words = desk.member_words(tx, game, m)?;
        let (subject, body) = write(words);
        let mut letter = OutgoingLetter::fresh(&m.email, subject, body).about(&game.name);
        let wants = tx.member_wishes(game.id, m.player_id)?.map.unwrap_or(true);
        if game_map && wants {
            let picture = pictures
                .entry(words.language().to_string())
                .or_insert_with(|| board_picture(referee, words));
            letter.attachments.extend(picture.clone());
        }
        letters.push(letter);
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
            let words = desk.member_words(tx, game, member)?;
            letters.push(
                OutgoingLetter::fresh(
                    &member.email,
                    tr!(
                        words,
                        "his.asked_subject",
                        game = desk.subject_prefix(game),
                        power = name(power),
                        window = window.number
                    ),
                    tr!(
                        words,
                        "his.asked",
                        question = window.question.describe(&referee.map),
                        deadline = crate::judge::deadline_of(game),
                        signon = format!("{}{}", letter_of(power), game.name),
                        forms = forms,
                        default = default
                    ),
                )
                .about(&game.name),
            );
        }
    }
    Ok(letters)
}

/// CREATE ?game pw his: a game of Here I Stand on the 1517 board with `sender` as its master,
/// its dice seed drawn (or the configuration's fixed seed) and committed to in its first
/// report. Returns the game and the commitment line, or why not.
pub(crate) fn create(
    desk: &dyn Desk,
    tx: &Tx,
    name: &str,
    sender: &str,
    password_hash: &str,
    now: DateTime<Utc>,
) -> rusqlite::Result<Result<(GameRow, String), Message>> {
    let config = desk.config();
    let fixed = config.judge.dice_seed.as_deref().and_then(Seed::from_hex);
    let seed = match fixed {
        Some(seed) => seed,
        None => {
            let mut bytes = [0u8; 32];
            if getrandom::fill(&mut bytes).is_err() {
                return Ok(Err(msg!("his.no_randomness")));
            }
            Seed::from_bytes(bytes)
        }
    };
    let player = tx.register_player(sender, None, None, now)?;
    let d = &config.deadlines;
    let mut row = tx.create_game(
        name,
        crate::game::HERE_I_STAND,
        player.id,
        &config.judge.time_zone,
        [24, d.retreat_hours, d.adjustment_hours, d.reminder_hours],
        now,
    )?;
    let mut settings = GameSettings::with_hours(24, d.retreat_hours, d.adjustment_hours);
    settings.moderated = true;
    settings.masters.push(player.id);
    row.settings = settings;
    row.state = GameState::Active;
    let record = Record {
        seed: seed.to_hex(),
        ..Record::default()
    };
    row.position = Some(serde_json::to_string(&record).expect("a record is JSON"));
    tx.save_game(&row)?;
    tx.set_member(row.id, player.id, None, "master", password_hash, now)?;
    let commitment = Dice::new(seed, &row.name).commitment_line();
    let words = desk.game_words(&row);
    tx.archive(
        row.id,
        0,
        &tr!(words, "his.start_title", game = row.name),
        &tr!(words, "his.start", game = row.name, commitment = commitment),
        now,
    )?;
    Ok(Ok((row, commitment)))
}

/// What a letter's lines did in a game.
pub(crate) struct Lines {
    /// Each line written (its number in the letter, its text), with what it did or why not,
    /// in the writer's words.
    pub replies: Vec<(usize, String, Result<String, String>)>,
    /// The master's changes of the board (or the move cancelled), one a line, to announce to
    /// the game.
    pub announcement: Option<Arg>,
    /// The reports and window letters the lines caused.
    pub letters: Vec<OutgoingLetter>,
}

/// Lines a letter wrote in a game: by whom (a power, or `None` for the master), from which
/// line of the letter, and the words its writer reads.
pub(crate) struct Written<'a> {
    pub power: Option<Power>,
    pub text: &'a str,
    pub first_line: usize,
    pub words: Words<'a>,
}

/// Lines written in a Here I Stand game, answered in the writer's words: a power's MOVE,
/// answers and standing instructions, or the master's adjustments and CANCEL MOVE. Every line
/// is done or refused on its own. Refused as a whole (with why) if the game is over or its
/// record unreadable.
pub(crate) fn lines(
    desk: &dyn Desk,
    tx: &Tx,
    row: &GameRow,
    written: Written<'_>,
    now: DateTime<Utc>,
) -> rusqlite::Result<Result<Lines, Message>> {
    let mut game = tx.game(row.id)?;
    if game.state != GameState::Active {
        return Ok(Err(msg!("his.not_active", game = game.name)));
    }
    let mut referee = match Referee::load(&game) {
        Ok(r) => r,
        Err(why) => return Ok(Err(msg!("his.broken", game = game.name, why = why))),
    };
    let Written {
        power,
        text,
        first_line,
        words,
    } = written;
    let mut heading = Vec::new();
    let mut changed = false;
    let mut announcements: Vec<Arg> = Vec::new();
    let mut replies = Vec::new();
    for (i, written) in text.lines().enumerate() {
        let line = first_line + i;
        let written = written.trim();
        if written.is_empty() {
            continue;
        }
        let upper = written.to_ascii_uppercase();
        let result: Result<String, String> = match power {
            None if upper == "CANCEL MOVE" => match referee.current.take() {
                Some(_) => {
                    referee.record.current = None;
                    referee.record.open_window = None;
                    game.deadline_at = None;
                    announcements.push(Arg::Message(msg!("his.cancelled_notice")));
                    Ok(tr!(words, "his.cancelled"))
                }
                None => Err(tr!(words, "his.no_move")),
            },
            None if referee.current.is_some() => Err(tr!(words, "his.move_under_way")),
            None => parse_adjustment(&referee.map, written)
                .and_then(|adjustment| {
                    let said = apply(&referee.map, &mut referee.board, &adjustment)?;
                    referee.record.log.push(Entry::Adjust {
                        line: written.to_string(),
                    });
                    let text = words.message(&said);
                    announcements.push(Arg::Message(said));
                    Ok(text)
                })
                .map_err(|why| words.message(&why)),
            Some(power) if upper.starts_with("STANDING") => {
                let rest = written[8..].trim();
                if rest.eq_ignore_ascii_case("clear") {
                    referee.record.standing.retain(|(p, _)| p != power.id());
                    Ok(tr!(words, "his.standing_cleared"))
                } else {
                    parse_instruction(&referee.map, rest)
                        .map(|_| {
                            referee
                                .record
                                .standing
                                .push((power.id().to_string(), rest.to_string()));
                            tr!(words, "his.standing_filed", instruction = rest)
                        })
                        .map_err(|why| words.message(&why))
                }
            }
            Some(power) if upper.starts_with("MOVE ") && !upper.starts_with("MOVE ON") => {
                if referee.current.is_some() {
                    Err(tr!(words, "his.one_move_at_a_time"))
                } else {
                    match parse_move(&referee.map, power, written) {
                        Err(why) => Err(words.message(&why)),
                        Ok(request) => {
                            let standing = standing_of(&referee.map, &referee.record.standing);
                            let p =
                                Procedure::start(&referee.map, &referee.board, request, standing);
                            if matches!(p.status(), Status::Finished(Finish::Refused)) {
                                // The move as read, then why it is refused.
                                let why: Vec<String> = p
                                    .events()
                                    .iter()
                                    .map(|e| words.message(&e.describe(&referee.map)))
                                    .collect();
                                Err(why.join("; "))
                            } else {
                                referee.record.current = Some(MoveRecord {
                                    power: power.id().to_string(),
                                    request: written.to_string(),
                                    standing: referee.record.standing.clone(),
                                    inputs: Vec::new(),
                                    reported: 0,
                                });
                                referee.current = Some(p);
                                changed = true;
                                heading.push(Line::Say(msg!(
                                    "his.declared",
                                    power = name(power),
                                    request = written
                                )));
                                Ok(tr!(words, "his.move_declared"))
                            }
                        }
                    }
                }
            }
            Some(power) => match (referee.current.as_mut(), referee.record.current.as_mut()) {
                (Some(p), Some(m)) => match p.status().clone() {
                    Status::Waiting(window) if window.waiting_for().contains(&power) => {
                        parse_answer(&referee.map, power, &window.question, written)
                            .map_err(|why| words.message(&why))
                            .and_then(|answer| {
                                let said = words.message(&answer.describe(&referee.map));
                                p.answer(&referee.map, power, answer)
                                    .map_err(|why| words.message(&why))?;
                                m.inputs.push(format!(
                                    "answer {} {} {written}",
                                    window.number,
                                    power.id()
                                ));
                                changed = true;
                                Ok(tr!(
                                    words,
                                    "his.your_answer",
                                    window = window.number,
                                    answer = said
                                ))
                            })
                    }
                    _ => Err(tr!(words, "his.nothing_asked")),
                },
                _ => Err(tr!(words, "his.no_move")),
            },
        };
        replies.push((line, written.to_string(), result));
    }
    let mut announcement = None;
    if !announcements.is_empty() {
        referee.save(&mut game);
        tx.save_game(&game)?;
        announcement = Some(lines_of(announcements));
    }
    let letters = if changed {
        progress(desk, tx, &mut game, &mut referee, heading, now)?
    } else {
        referee.save(&mut game);
        tx.save_game(&game)?;
        Vec::new()
    };
    Ok(Ok(Lines {
        replies,
        announcement,
        letters,
    }))
}

/// LIST game for a Here I Stand game, in `words`: the board where anything stands (`state` is
/// the game's state in those words) and the move under way; or why the game cannot be read.
/// The board as the picture a report carries (`map.png`).
fn board_picture(referee: &Referee, words: Words<'_>) -> Option<crate::letter::Attachment> {
    let svg = crate::drawing::his::draw_board(&referee.map, &referee.board, None, words)?;
    Some(crate::letter::Attachment {
        name: "map.png".to_string(),
        media_type: "image/png".to_string(),
        bytes: crate::drawing::png::render_png(&svg, 1.0)?,
    })
}

/// Here I Stand's 1517 board, for `GET MAP here-i-stand`.
pub(crate) fn starting_picture(words: Words<'_>) -> Option<String> {
    let map = crate::variant::his::embedded_map().ok()?;
    let board = crate::his::board::Board::scenario_1517(&map);
    crate::drawing::his::draw_board(&map, &board, None, words)
}

pub(crate) fn list(row: &GameRow, words: Words<'_>, state: &str) -> Result<String, Message> {
    let Ok(referee) = Referee::load(row) else {
        return Err(msg!(
            "his.broken",
            game = row.name,
            why = msg!("his.unreadable")
        ));
    };
    let mut lines = vec![tr!(
        words,
        "his.list",
        game = row.name,
        state = state,
        impulse = referee.board.impulse,
        power = name(referee.board.active),
        cp = referee.board.cp
    )];
    lines.extend(referee.board_spaces().into_iter().map(|s| {
        format!(
            "  {}",
            words.message(&describe_space(&referee.map, &referee.board, s))
        )
    }));
    if let Some(p) = &referee.current {
        lines.push(tr!(
            words,
            "his.list_move",
            status = describe_status(&referee.map, p.status())
        ));
    }
    Ok(lines.join("\n"))
}

/// The line revealing the game's dice seed (TERMINATE), so anyone can check every roll.
pub(crate) fn reveal_line(row: &GameRow) -> Option<String> {
    let referee = Referee::load(row).ok()?;
    Some(Dice::resume(referee.seed(), &row.name, referee.record.rolls).reveal_line())
}
