//! One incoming letter, command by command, and the answer it gets: what was understood,
//! each error with its line, the power's orders in force, the deadline and who still owes.

use crate::game::{GameKind, GameState};
use chrono::{DateTime, Utc};

use crate::judge::Handled;

use crate::judge::Judge;
use crate::letter::{Address, IncomingLetter, OutgoingLetter};
use crate::report::{Message, Words};
use crate::store::{GameRow, Tx};
use crate::text::Severity;
use crate::text::command::{Command, CommandKind, parse_commands, render};
use crate::{msg, tr};

/// What reading one letter is building up.
pub(crate) struct Session<'j> {
    pub(crate) judge: &'j Judge,
    pub(crate) now: DateTime<Utc>,
    /// The address the letter came from.
    pub(crate) sender: String,
    /// Where the answer goes: the registered address of the power signed on to, else the sender.
    pub(crate) answer_to: String,
    /// The game and power signed on to.
    pub(crate) signed_on: Option<(GameRow, String)>,
    /// The forming game the sender joined in this letter.
    pub(crate) joined: Option<GameRow>,
    /// Games this letter filled: they start once the whole letter is read, so that a
    /// SET PREFERENCE after the joining SIGNON counts.
    pub(crate) filled: Vec<i64>,
    /// Announcements to games, sent at the end of the letter, one letter per member in
    /// their language: `(game, subject, text)`.
    pub(crate) notices: Vec<(GameRow, Message, Message)>,
    /// The game the sender watches, signed on as an observer.
    pub(crate) watching: Option<GameRow>,
    /// The powers a master acted for with BECOME in this letter, each with what was done for
    /// it (its player gets a copy of that, and only that).
    pub(crate) acted_for: Vec<ActedFor>,
    /// The entry of `acted_for` in force: commands a power gives (orders, press, its own
    /// SETs...) are done for it until the next BECOME.
    pub(crate) became: Option<usize>,
    /// Games whose orders, waits or pauses this letter changed: once the whole letter is read,
    /// each is processed if every order is in and no one waits (so a WAIT or press later in the
    /// letter counts, and press goes out before the results); `true` where orders were given.
    pub(crate) touched: Vec<(i64, bool)>,
    /// The language of the answer: `en` or `ru`.
    pub(crate) language: String,
    /// The game the sender is signed on to as its master.
    pub(crate) master_of: Option<GameRow>,
    /// The paragraphs of the answer, rendered at the end in the language then in force.
    pub(crate) sections: Vec<Section>,
    pub(crate) errors: usize,
    /// Other letters caused: start notices, reports, warnings to owners.
    pub(crate) caused: Vec<OutgoingLetter>,
    /// The sender's address has proven it wants the judge's letters (it confirmed a token
    /// once, or the operator is writing).
    pub(crate) proven: bool,
    /// The account whose password this letter proved (by a SIGNON to one of its seats, or
    /// REGISTER with its password).
    pub(crate) account_proven: Option<i64>,
    /// Wrong passwords (and tokens) so far in this letter.
    pub(crate) failures: u32,
    /// Passwords not checked because the letter had its share of wrong ones.
    pub(crate) unchecked: u32,
    /// Commands past the letter's limit, not read.
    pub(crate) unread: usize,
    /// Order lines past `limits.order_lines_per_letter`, not read.
    pub(crate) unread_orders: usize,
    /// The subject prefix of the game the letter first signed on to, as it stood then (the
    /// answer's subject carries it, as njudge's does, whatever the letter went on to process).
    pub(crate) reply_prefix: Option<String>,
    /// New passwords hashed for this letter (each costs argon2's time; see `new_password`).
    pub(crate) passwords_set: u32,
    /// Help files already sent in this letter (each is sent once).
    pub(crate) helped: Vec<String>,
    /// Files the answer carries: the pictures GET MAP asked for (one per game).
    pub(crate) attachments: Vec<(String, crate::letter::Attachment)>,
    /// What in this letter waits for the sender's address to confirm (then the whole letter
    /// waits for it).
    pub(crate) pending: Vec<Message>,
    /// Seats a wrong password was given for in this letter (counted again if the letter is
    /// rolled back to wait for a confirmation).
    pub(crate) failed_seats: Vec<crate::judge::access::lockout::Seat>,
    /// Whether this letter is a held one whose token came back.
    pub(crate) confirmed: Confirmed,
    /// The later phase the order lines go to, after a PHASE line.
    pub(crate) phase_for: Option<crate::judge::commands::future::Later>,
    /// Orders were read for a power signed on (the closing advice about orders is for them).
    pub(crate) orders_read: bool,
    /// Games the letter asked about by name (for the log).
    pub(crate) named_games: Vec<String>,
    /// The sender's own words (`text::command::own_text`), when the letter sends a token
    /// back: a token inside a copy of the judge's letter confirms nothing.
    pub(crate) own_words: String,
    /// When a held letter was written (it waited for its token): its orders are for the
    /// phase then being played (`held.rs`).
    pub(crate) written_at: Option<DateTime<Utc>>,
    /// Address moves asked in this letter (one a letter).
    pub(crate) moves_asked: u32,
}

/// A power a master acted for with BECOME, and the paragraphs of the answer written for it.
pub(crate) struct ActedFor {
    pub(crate) game: String,
    /// The game's subject prefix (`STRA:game - S1901M`).
    pub(crate) prefix: String,
    /// The power's name.
    pub(crate) power: String,
    /// The address of the power's player, if it has one.
    pub(crate) player: Option<String>,
    /// The paragraphs of the answer (indices into `Session::sections`) done for the power.
    pub(crate) sections: Vec<std::ops::Range<usize>>,
}

/// A paragraph of the answer: a message, or text already written.
pub(crate) enum Section {
    Message(Message),
    Text(String),
}

/// Cuts `body` to at most `most` bytes at a line's end, saying how many lines were left out.
fn cut_to(words: Words, body: &mut String, most: usize) {
    if body.len() <= most {
        return;
    }
    // Room for the closing sentence.
    let keep = most.saturating_sub(200);
    let mut end = body[..keep.min(body.len())]
        .rfind('\n')
        .map_or(0, |at| at + 1);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let left_out = body[end..].lines().count();
    body.truncate(end);
    body.push_str(&tr!(
        words,
        "limits.lines_not_shown",
        count = left_out,
        most = most
    ));
    body.push('\n');
}

/// Whether a command is a power's own (orders, press, its SETs, its password, credit,
/// resigning): after BECOME it is done for that power, and shown in the power's copy.
fn acts_for_power(kind: &CommandKind) -> bool {
    match kind {
        CommandKind::Orders { .. }
        | CommandKind::Press { .. }
        | CommandKind::SetPassword { .. }
        | CommandKind::Credit { .. }
        | CommandKind::Phase(_)
        | CommandKind::Clear
        | CommandKind::Diary(_)
        | CommandKind::Resign => true,
        CommandKind::Set(setting) => setting.is_for_players(),
        _ => false,
    }
}

/// Handles `letter`; returns the letters to send and whether anything was done.
pub(crate) fn handle(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
) -> rusqlite::Result<Handled> {
    handle_as(judge, tx, letter, now, None)
}

/// Handles `letter`, as the master of `master_of` when given (the operator's own commands,
/// which need no password).
pub(crate) fn handle_as(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
    master_of: Option<GameRow>,
) -> rusqlite::Result<Handled> {
    handle_inner(judge, tx, letter, now, master_of, Confirmed::No, None)
}

/// How a letter was confirmed, when it was held and its token came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Confirmed {
    /// A letter as it came.
    No,
    /// The sender's address sent its token back: the letter acts as that address's own.
    BySender,
    /// The registered player of these locked seats sent the token back: the letter may sign
    /// on to them.
    ForSeats(Vec<String>),
}

/// Handles a held letter, written at `written_at`, whose token came back.
pub(crate) fn handle_confirmed(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
    confirmed: Confirmed,
    written_at: DateTime<Utc>,
) -> rusqlite::Result<Handled> {
    handle_inner(judge, tx, letter, now, None, confirmed, Some(written_at))
}

fn handle_inner(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
    master_of: Option<GameRow>,
    confirmed: Confirmed,
    written_at: Option<DateTime<Utc>>,
) -> rusqlite::Result<Handled> {
    let Some(from) = &letter.from else {
        return Ok(Handled::default());
    };
    if letter.automatic.is_some() {
        return Ok(Handled::default());
    }
    let sender = from.email.to_lowercase();
    let (mut commands, diagnostics) = parse_commands(&letter.body);
    // At most so many commands a letter: the rest are not read (and said so).
    let most = judge.config.limits.commands_per_letter as usize;
    let unread = commands.len().saturating_sub(most);
    commands.truncate(most);
    let unread_orders = keep_order_lines(
        &mut commands,
        judge.config.limits.order_lines_per_letter as usize,
    );
    let mut session = Session::new(judge, tx, now, sender, master_of, confirmed)?;
    session.answer_in_letter_language(tx, letter)?;
    session.unread = unread;
    session.unread_orders = unread_orders;
    session.written_at = written_at;
    if commands
        .iter()
        .any(|c| matches!(c.kind, CommandKind::Confirm { .. }))
    {
        session.own_words = crate::text::command::own_text(&letter.body);
    }
    if session.stopped_by_lock(tx, &commands, letter)? {
        // Nothing of the letter was done (whether it was held is not told).
        let mut handled = session.answer(tx, letter, &commands)?;
        handled.effective = false;
        return Ok(handled);
    }
    // The letter is tried; if it asks for anything that needs its address's confirmation
    // (from an address not yet proven, anything that would make the judge write to it
    // regularly; from any address, a change to an account without its password), nothing of it
    // is kept: the whole letter waits for the address to send its token back, and is then
    // carried out as sent.
    tx.savepoint("letter")?;
    session.read(tx, letter, &commands, &diagnostics)?;
    if session.pending.is_empty() {
        tx.release("letter")?;
        return session.answer(tx, letter, &commands);
    }
    tx.rollback_to("letter")?;
    tx.release("letter")?;
    let waiting = std::mem::take(&mut session.pending);
    let failed = std::mem::take(&mut session.failed_seats);
    let mut held = Session::new(judge, tx, now, session.sender.clone(), None, Confirmed::No)?;
    held.answer_in_letter_language(tx, letter)?;
    // Wrong passwords count whatever becomes of the letter.
    for seat in &failed {
        held.wrong_password(tx, seat)?;
    }
    let requested = held.hold_for_sender(tx, letter, waiting)?;
    let mut handled = held.answer(tx, letter, &[])?;
    handled.summary = crate::judge::LetterSummary {
        held: true,
        ..session.logged(&commands)
    };
    // A request was made: not an answer to a letter that did nothing (with too many waiting
    // already, nothing was done, and identical answers back off).
    handled.effective = requested;
    Ok(handled)
}

impl<'j> Session<'j> {
    pub(crate) fn new(
        judge: &'j Judge,
        tx: &Tx,
        now: DateTime<Utc>,
        sender: String,
        master_of: Option<GameRow>,
        confirmed: Confirmed,
    ) -> rusqlite::Result<Session<'j>> {
        let proven =
            master_of.is_some() || confirmed == Confirmed::BySender || tx.is_confirmed(&sender)?;
        let language = tx
            .player_language(&sender)?
            .unwrap_or_else(|| "en".to_string());
        Ok(Session {
            judge,
            now,
            answer_to: sender.clone(),
            sender,
            signed_on: None,
            watching: None,
            joined: None,
            filled: Vec::new(),
            notices: Vec::new(),
            acted_for: Vec::new(),
            became: None,
            touched: Vec::new(),
            language,
            master_of,
            sections: Vec::new(),
            errors: 0,
            caused: Vec::new(),
            proven,
            account_proven: None,
            failures: 0,
            unchecked: 0,
            unread: 0,
            unread_orders: 0,
            reply_prefix: None,
            passwords_set: 0,
            helped: Vec::new(),
            attachments: Vec::new(),
            pending: Vec::new(),
            failed_seats: Vec::new(),
            confirmed,
            phase_for: None,
            orders_read: false,
            named_games: Vec::new(),
            own_words: String::new(),
            written_at: None,
            moves_asked: 0,
        })
    }

    /// Runs the letter's commands, then what waits for the whole letter: games it filled
    /// start, games whose orders are all in are processed.
    fn read(
        &mut self,
        tx: &Tx,
        letter: &IncomingLetter,
        commands: &[Command],
        diagnostics: &[crate::text::Diagnostic],
    ) -> rusqlite::Result<()> {
        for warning in &letter.warnings {
            self.say(msg!("letter.note", warning = warning));
        }
        for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
            self.fail(d.line, d.said.clone());
        }
        if commands.is_empty() && diagnostics.is_empty() {
            self.say(msg!("letter.no_commands"));
        }
        for command in commands {
            self.run(tx, command)?;
        }
        if self.unread > 0 {
            self.say(msg!(
                "limits.commands",
                most = self.judge.config.limits.commands_per_letter,
                count = self.unread
            ));
        }
        if self.unread_orders > 0 {
            self.say(msg!(
                "limits.order_lines",
                most = self.judge.config.limits.order_lines_per_letter,
                count = self.unread_orders
            ));
        }
        self.start_filled(tx)?;
        if self.unchecked > 1 {
            self.say(msg!("lockout.unchecked", count = self.unchecked));
        }
        self.process_touched(tx)
    }

    /// The answer to `letter`, then every other letter it caused.
    fn answer(
        mut self,
        tx: &Tx,
        letter: &IncomingLetter,
        commands: &[Command],
    ) -> rusqlite::Result<Handled> {
        let session = &mut self;
        let judge = session.judge;
        let limits = &judge.config.limits;
        // Every letter caused to others: the BECOME copies, the announcements, the rest.
        session.send_notices(tx)?;
        let mut others = session.copies();
        others.append(&mut session.caused);
        // At most so many letters to other people; the answer says what was not sent.
        let (mut to_others, mut not_sent) = (0, 0);
        let own = [session.sender.clone(), session.answer_to.clone()];
        others.retain(|l| {
            if l.to.iter().all(|a| own.contains(&a.email.to_lowercase())) {
                return true;
            }
            to_others += 1;
            let keep = to_others <= limits.letters_to_others_per_letter as usize;
            not_sent += usize::from(!keep);
            keep
        });
        if not_sent > 0 {
            session.say(msg!(
                "limits.letters_to_others",
                most = limits.letters_to_others_per_letter,
                count = not_sent
            ));
        }
        let code = &judge.config.judge.code;
        let prefix = session.reply_prefix.clone().or_else(|| {
            let game = session.signed_on.as_ref().map(|(g, _)| g);
            game.or(session.master_of.as_ref())
                .map(|g| crate::judge::phases::results::prefix(code, g))
        });
        let subject = crate::judge::phases::results::reply_subject(
            code,
            prefix.as_deref(),
            session.errors > 0,
            &letter.subject,
        );
        if session.errors > 0 {
            // The advice about orders only where orders (or lines that may have been meant as
            // orders) were in the letter.
            let orders_in_letter = session.orders_read;
            // In a Here I Stand game every line is done or refused on its own.
            let his = session
                .signed_on
                .as_ref()
                .map(|(g, _)| g)
                .or(session.master_of.as_ref())
                .is_some_and(|g| g.kind() == GameKind::HereIStand);
            session.say(if his {
                msg!("his.errors_found", count = session.errors)
            } else if orders_in_letter {
                msg!("letter.errors_found", count = session.errors)
            } else {
                msg!("letter.errors_found_no_orders", count = session.errors)
            });
        }
        let sections = session.written(session.master_of.as_ref().map(|g| g.id));
        let body = session.reply(&sections);
        let mut references = letter.references.clone();
        references.push(letter.message_id.clone());
        let mut letters = vec![OutgoingLetter {
            to: vec![Address::new(&session.answer_to)],
            subject,
            body,
            in_reply_to: Some(letter.message_id.clone()),
            references,
            attachments: std::mem::take(&mut session.attachments)
                .into_iter()
                .map(|(_, a)| a)
                .collect(),
        }];
        letters.append(&mut others);
        // No letter the judge writes is larger than the limit; the rest is summed up.
        let words = session.words();
        for letter in &mut letters {
            cut_to(words, &mut letter.body, limits.answer_bytes);
        }
        // Whether anything was done: identical answers to letters that did nothing back off.
        let effective = session.errors == 0
            && commands
                .iter()
                .any(|c| !matches!(c.kind, CommandKind::Signoff));
        let summary = session.logged(commands);
        Ok(Handled {
            letters,
            effective,
            summary,
        })
    }

    /// The answer's paragraphs as a master of `master_of` reads them (members are named for
    /// the reader).
    fn written(&self, master_of: Option<i64>) -> Vec<String> {
        self.sections
            .iter()
            .map(|section| match section {
                Section::Message(message) => self.text(message, master_of),
                Section::Text(text) => text.clone(),
            })
            .collect()
    }

    /// A letter of the judge's from its paragraphs.
    fn reply(&self, sections: &[String]) -> String {
        let judge = self.judge;
        judge.templates.render_in(
            &self.language,
            "reply.txt",
            serde_json::json!({
                "sections": sections, "judge_name": judge.config.judge.name, "judge_address": judge.config.judge.address,
            }),
        )
    }

    /// The copies for the players whose powers the master BECAME: what was done for that
    /// power, as a player reads it, and nothing else the letter did (NJ:data/master warns that
    /// njudge's copy shows all).
    fn copies(&mut self) -> Vec<OutgoingLetter> {
        let acted_for = std::mem::take(&mut self.acted_for);
        if acted_for.is_empty() {
            return Vec::new();
        }
        let for_players = self.written(None);
        let words = self.words();
        let mut copies = Vec::new();
        for acted in acted_for {
            let Some(player) = acted.player else {
                continue;
            };
            let mut done = vec![tr!(
                words,
                "master.became_copy",
                game = acted.game,
                power = acted.power
            )];
            done.extend(
                acted
                    .sections
                    .iter()
                    .flat_map(|range| for_players[range.clone()].iter().cloned()),
            );
            if done.len() == 1 {
                done.push(tr!(words, "master.became_nothing"));
            }
            let subject = tr!(
                words,
                "master.became_copy_subject",
                game = acted.prefix,
                power = acted.power
            );
            copies.push(OutgoingLetter::fresh(&player, subject, self.reply(&done)));
        }
        copies
    }
}

/// A command's keyword for the log (`SIGNON`, `SET WAIT`, `orders`): never its arguments,
/// which may hold a password or a word of press.
fn command_label(kind: &CommandKind) -> String {
    match kind {
        CommandKind::Orders { .. } => "orders".into(),
        CommandKind::Press { kind, .. } => match kind {
            crate::text::command::PressKind::Press => "PRESS".into(),
            crate::text::command::PressKind::Broadcast => "BROADCAST".into(),
            crate::text::command::PressKind::Postal => "POSTAL PRESS".into(),
        },
        CommandKind::Diary(_) => "DIARY".into(),
        CommandKind::Register { .. } => "REGISTER".into(),
        CommandKind::Set(setting) => {
            let text = crate::text::command::render_setting(setting);
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        }
        other => {
            let text = render(&Command {
                line: 0,
                kind: other.clone(),
            });
            let first = text.split_whitespace().next().unwrap_or("");
            match first {
                "SIGNON" | "GET" | "WHO" | "I" | "FORCE" | "BECOME" => text
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" "),
                _ => first.to_string(),
            }
        }
    }
}

impl<'j> Session<'j> {
    /// A sender who chose no language is answered in the language the letter is written
    /// in, where the judge has it: a word of Cyrillic in the subject or the text is Russian.
    pub(crate) fn answer_in_letter_language(
        &mut self,
        tx: &Tx,
        letter: &IncomingLetter,
    ) -> rusqlite::Result<()> {
        if tx.player_language(&self.sender)?.is_some() {
            return Ok(());
        }
        let cyrillic_word = |text: &str| {
            text.split(|c: char| !c.is_alphabetic())
                .take(20_000)
                .any(|word| {
                    word.chars().count() >= 2
                        && word.chars().all(|c| ('\u{400}'..='\u{4ff}').contains(&c))
                })
        };
        let body: String = letter.body.chars().take(20_000).collect();
        if (cyrillic_word(&letter.subject) || cyrillic_word(&body))
            && self.judge.templates.messages().catalog("ru").is_some()
        {
            self.language = "ru".to_string();
        }
        Ok(())
    }

    /// The letter in a few words, for the daemon's log.
    pub(crate) fn logged(&self, commands: &[Command]) -> crate::judge::LetterSummary {
        let mut games: Vec<String> = Vec::new();
        let signed = [
            self.signed_on.as_ref().map(|(g, _)| g),
            self.master_of.as_ref(),
            self.joined.as_ref(),
            self.watching.as_ref(),
        ];
        for game in signed.into_iter().flatten() {
            if !games.contains(&game.name) {
                games.push(game.name.clone());
            }
        }
        for name in &self.named_games {
            if !games.contains(name) {
                games.push(name.clone());
            }
        }
        crate::judge::LetterSummary {
            games,
            commands: commands.iter().map(|c| command_label(&c.kind)).collect(),
            errors: self.errors,
            held: false,
        }
    }

    /// Signs the letter on to `row` as `power`; the first game signed on to names the answer.
    pub(crate) fn sign_on(&mut self, row: GameRow, power: String) {
        if self.reply_prefix.is_none() {
            self.reply_prefix = Some(crate::judge::phases::results::prefix(
                &self.judge.config.judge.code,
                &row,
            ));
        }
        self.signed_on = Some((row, power));
        self.phase_for = None;
    }

    /// The words of the answer's language.
    pub(crate) fn words(&self) -> Words<'j> {
        self.judge.templates.words(&self.language)
    }

    /// A message in the answer's language, as a master of game `master_of` (none: anyone
    /// else) reads it.
    pub(crate) fn text(&self, message: &Message, master_of: Option<i64>) -> String {
        self.words()
            .message(&crate::game::secrecy::as_read_by(message, master_of))
    }

    /// An error: counted, and said.
    pub(crate) fn error(&mut self, message: Message) {
        self.errors += 1;
        self.say(msg!("letter.error", message = message));
    }

    /// An error about line `line` of the letter.
    pub(crate) fn fail(&mut self, line: usize, message: Message) {
        self.error(msg!("letter.line", line = line, message = message));
    }

    /// A paragraph of the answer.
    pub(crate) fn say(&mut self, message: Message) {
        self.sections.push(Section::Message(message));
    }

    /// A paragraph of the answer already written (in the answer's language).
    pub(crate) fn say_text(&mut self, text: String) {
        self.sections.push(Section::Text(text));
    }

    /// Runs one command; what it writes while a master acts for a power, if the command is the
    /// power's own, is kept for that power's copy.
    fn run(&mut self, tx: &Tx, command: &Command) -> rusqlite::Result<()> {
        let start = self.sections.len();
        let for_power = self.became.filter(|_| acts_for_power(&command.kind));
        self.run_command(tx, command)?;
        if let Some(i) = for_power {
            self.acted_for[i].sections.push(start..self.sections.len());
        }
        Ok(())
    }

    fn run_command(&mut self, tx: &Tx, command: &Command) -> rusqlite::Result<()> {
        let line = command.line;
        // In a Here I Stand game WITHDRAW (read as RESIGN) answers the withdrawal window.
        if let (CommandKind::Resign, Some((row, power))) = (&command.kind, &self.signed_on)
            && row.kind() == GameKind::HereIStand
        {
            let (row, power) = (row.clone(), crate::his::Power::from_word(power));
            return self.his_lines(tx, row, power, "withdraw", line);
        }
        match &command.kind {
            CommandKind::Orders { text } => return self.orders(tx, text, line),
            CommandKind::Press {
                kind,
                options,
                text,
            } => return self.press(tx, line, *kind, options, text),
            _ => {}
        }
        self.say_text(format!("> {}", render(command)));
        match &command.kind {
            CommandKind::Help { topic } => self.help(tx, line, topic.as_deref())?,
            CommandKind::GetMap { game } => self.get_map(tx, line, game.as_deref())?,
            CommandKind::Register { name, password } => {
                self.register(tx, line, name.as_deref(), password.as_deref())?
            }
            CommandKind::SetPassword { password } => self.set_password(tx, line, password)?,
            CommandKind::Confirm { token } => self.confirm(tx, line, token)?,
            CommandKind::Create {
                game,
                password,
                variant,
                moderated,
                private,
                anonymous,
            } => self.creating(tx, game, *private, *anonymous, |s| {
                s.create(tx, line, game, password, variant.as_deref(), *moderated)
            })?,
            CommandKind::Signon {
                power: None,
                game,
                password,
            } => self.join(tx, line, game, password)?,
            CommandKind::Signon {
                power: Some(letter),
                game,
                password,
            } => match self.his_game(tx, game, Some((*letter, password)))? {
                Some(row) => self.his_signon(tx, line, *letter, row, password)?,
                None => self.signon(tx, line, *letter, game, password)?,
            },
            CommandKind::Observe { game, password } => self.observe(tx, line, game, password)?,
            CommandKind::List {
                game: Some(name), ..
            } if self.his_game(tx, name, None)?.is_some() => {
                let row = self.his_game(tx, name, None)?.expect("checked");
                self.his_list(&row);
            }
            CommandKind::List {
                game: None,
                full: true,
            } => self.list_full(tx)?,
            CommandKind::List { game, .. } => self.list(tx, line, game.as_deref())?,
            CommandKind::History {
                game,
                from,
                to,
                lines,
                exclude,
            } => self.history(
                tx,
                line,
                game.as_deref(),
                crate::judge::commands::info::Span {
                    from: from.as_ref(),
                    to: to.as_ref(),
                    lines: *lines,
                    exclude: exclude.as_ref(),
                },
            )?,
            CommandKind::Summary { game } => self.summary(tx, line, game.as_deref())?,
            CommandKind::Whois { who } => self.whois(tx, who)?,
            CommandKind::WhoGame { game, full } => {
                self.who_game(tx, line, game.as_deref(), *full)?
            }
            CommandKind::Version => self.version(),
            CommandKind::IAmAlso { address } => self.i_am_also(line, address),
            CommandKind::Unsupported { phrase, what } => {
                self.unsupported(line, phrase, *what, false)
            }
            CommandKind::Set(crate::text::command::Setting::Unsupported {
                phrase,
                what,
                already,
            }) => self.unsupported(line, phrase, *what, *already),
            CommandKind::Phase(phase) => self.phase(tx, line, phase)?,
            CommandKind::Clear => self.clear(tx, line)?,
            CommandKind::Diary(action) => self.diary(tx, line, action)?,
            CommandKind::Unstart => self.unstart(tx, line)?,
            CommandKind::BecomeMaster => self.become_master(tx, line)?,
            CommandKind::SignonAny { password } => self.join_any(tx, line, password)?,
            CommandKind::Set(setting) if setting.is_for_players() => {
                self.player_setting(tx, line, setting)?
            }
            CommandKind::Set(setting) => self.master_setting(tx, line, setting)?,
            CommandKind::Process { phase } => self.process_now(tx, line, phase.as_deref())?,
            CommandKind::Predict => self.predict(tx, line)?,
            CommandKind::Pause => self.pause(tx, line, true)?,
            CommandKind::Resume => self.pause(tx, line, false)?,
            CommandKind::Terminate => {
                self.terminate(tx, line)?;
                if let Some(row) = self.master_of.clone()
                    && row.kind() == GameKind::HereIStand
                    && tx.game(row.id)?.state == GameState::Finished
                {
                    let row = tx.game(row.id)?;
                    self.his_reveal(tx, &row)?;
                }
            }
            CommandKind::Extend { hours } => self.extend(tx, line, *hours)?,
            CommandKind::Become { power } => self.become_power(tx, line, power)?,
            CommandKind::Eject { who } => self.eject(tx, line, who)?,
            CommandKind::Promote { who } => self.promote(tx, line, who)?,
            CommandKind::ForceBegin => self.force_begin(tx, line)?,
            CommandKind::Rollback { phase } => self.rollback(tx, line, *phase)?,
            CommandKind::Credit {
                action,
                amount,
                power,
            } => self.credit(tx, line, *action, *amount, power)?,
            CommandKind::Resign => self.resign(tx, line)?,
            CommandKind::Signoff | CommandKind::Orders { .. } | CommandKind::Press { .. } => {}
        }
        Ok(())
    }

    /// The game named `name`, or an error for the player when there is none.
    /// The game a command names, or else the one the letter is signed on to (as a player,
    /// master or observer); `needs` is said when there is neither. `None` when there is none
    /// the letter may see (said too).
    pub(crate) fn game_asked(
        &mut self,
        tx: &Tx,
        line: usize,
        game: Option<&str>,
        needs: Message,
    ) -> rusqlite::Result<Option<GameRow>> {
        let signed = self
            .signed_on
            .as_ref()
            .map(|(g, _)| g)
            .or(self.master_of.as_ref())
            .or(self.watching.as_ref());
        let name = match (game, signed) {
            (Some(name), _) => name.to_string(),
            (None, Some(row)) => row.name.clone(),
            (None, None) => {
                self.fail(line, needs);
                return Ok(None);
            }
        };
        self.find_game(tx, line, &name)
    }

    pub(crate) fn find_game(
        &mut self,
        tx: &Tx,
        line: usize,
        name: &str,
    ) -> rusqlite::Result<Option<GameRow>> {
        let mut found = tx.game_by_name(name)?;
        if !self.named_games.iter().any(|n| n == name) {
            self.named_games.push(name.to_string());
        }
        // A private game the letter may not see is answered as one that does not exist.
        if let Some(game) = &found
            && !self.may_see(tx, game)?
        {
            found = None;
        }
        if found.is_none() {
            self.fail(line, msg!("letter.no_such_game", game = name));
        }
        Ok(found)
    }
}

/// Keeps the first `most` non-blank order lines of the letter's order blocks (in order) and
/// drops the rest, blocks left empty included; returns how many lines were dropped.
fn keep_order_lines(commands: &mut Vec<Command>, most: usize) -> usize {
    let mut left = most;
    let mut dropped = 0;
    commands.retain_mut(|command| {
        let CommandKind::Orders { text } = &mut command.kind else {
            return true;
        };
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        if lines <= left {
            left -= lines;
            return true;
        }
        dropped += lines - left;
        if left == 0 {
            return false;
        }
        let mut kept = 0;
        let cut = text
            .lines()
            .take_while(|l| {
                if kept == left {
                    return false;
                }
                kept += usize::from(!l.trim().is_empty());
                true
            })
            .collect::<Vec<_>>()
            .join("\n");
        *text = cut;
        left = 0;
        true
    });
    dropped
}
