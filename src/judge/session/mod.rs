//! What one letter's reading builds up (`Session`): who wrote it, what it signed on to, the
//! answer's paragraphs, the letters it causes, the passwords it checked; and the small things
//! every command does with it: say, fail, sign on, speak the answer's language.

pub(crate) mod answer;
pub(crate) mod dispatch;
pub(crate) mod handle;
pub(crate) mod notices;

use chrono::{DateTime, Utc};

use crate::judge::Judge;
use crate::lang::Lang;
use crate::letter::{IncomingLetter, OutgoingLetter};
use crate::msg;
use crate::report::{Message, Words};
use crate::store::{GameRow, Tx};

/// Pictures of boards one answer carries at most (`GET MAP`, the map of a game the letter
/// ended).
pub(crate) const PICTURES_PER_LETTER: usize = 3;

/// What reading one letter is building up.
pub(crate) struct Session<'j> {
    pub(crate) judge: &'j Judge,
    pub(crate) now: DateTime<Utc>,
    /// The address the letter came from.
    pub(crate) sender: String,
    /// Where the answer goes: the registered address of the power signed on to (the sender
    /// when it is an address of the same account), else the sender.
    pub(crate) answer_to: String,
    /// The account the sender's address is one of when the letter came, if any.
    pub(crate) account: Option<i64>,
    /// That account's addresses (the sender alone, with no account): the letter's own.
    pub(crate) addresses: Vec<String>,
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
    /// Games this letter ended (a draw or a concession voted): their end letters close with
    /// the board as the game ends, its centres and its map.
    pub(crate) closing: Vec<i64>,
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
    pub(crate) language: Lang,
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
    /// The name of that game: the answer is in its thread.
    pub(crate) reply_game: Option<String>,
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
    pub(crate) failed_seats: Vec<crate::judge::access::seat::Seat>,
    /// Whether this letter is a held one whose token came back.
    pub(crate) confirmed: Confirmed,
    /// The later phase the order lines go to, after a PHASE line.
    pub(crate) phase_for: Option<crate::judge::session::Later>,
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

/// The phase the order lines of a letter go to after a PHASE line; `None` after a PHASE line
/// that was refused, whose order lines are then read for no phase at all.
#[derive(Clone, Debug)]
pub(crate) struct Later {
    pub turn: Option<crate::diplomacy::turn::Turn>,
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
        let language = tx.player_language(&sender)?.unwrap_or_default();
        let account = tx.account_of(&sender)?;
        let addresses = match account {
            Some(id) => tx.addresses_of(id)?,
            None => vec![sender.clone()],
        };
        Ok(Session {
            judge,
            now,
            answer_to: sender.clone(),
            account,
            addresses,
            sender,
            signed_on: None,
            watching: None,
            joined: None,
            filled: Vec::new(),
            notices: Vec::new(),
            closing: Vec::new(),
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
            reply_game: None,
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
            && self.judge.templates.messages().catalog(Lang::Ru).is_some()
        {
            self.language = Lang::Ru;
        }
        Ok(())
    }

    /// Signs the letter on to `row` as `power`; the first game signed on to names the answer.
    pub(crate) fn sign_on(&mut self, row: GameRow, power: String) {
        if self.reply_prefix.is_none() {
            self.reply_prefix = Some(crate::judge::phases::subjects::prefix(
                &self.judge.config.judge.code,
                &row,
            ));
            self.reply_game = Some(row.name.clone());
        }
        self.signed_on = Some((row, power));
        self.phase_for = None;
    }

    /// The words of the answer's language.
    pub(crate) fn words(&self) -> Words<'j> {
        self.judge.templates.words(self.language)
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

    /// Notes that this letter changed what decides whether `game` is processed early.
    pub(crate) fn touch(&mut self, game: i64, orders: bool) {
        match self.touched.iter_mut().find(|(g, _)| *g == game) {
            Some(entry) => entry.1 |= orders,
            None => self.touched.push((game, orders)),
        }
    }

    /// Whether `address` is one of the sender's own (its account's, when it has one).
    pub(crate) fn is_own(&self, address: &str) -> bool {
        self.addresses
            .iter()
            .any(|a| a.eq_ignore_ascii_case(address))
    }

    /// Where the answer goes after signing on to a seat of account `owner` whose chosen
    /// address is `chosen`: to the sender, when it is an address of that account; else there.
    pub(crate) fn answer_for(&mut self, owner: i64, chosen: &str) {
        self.answer_to = if self.account == Some(owner) {
            self.sender.clone()
        } else {
            chosen.to_string()
        };
    }

    /// Whether the letter's sender is signed on as a master of `game`.
    pub(crate) fn is_master_of(&self, game: &GameRow) -> bool {
        self.master_of.as_ref().is_some_and(|g| g.id == game.id)
    }

    /// Keeps the session's copies of a game current after a change.
    pub(crate) fn refresh(&mut self, game: GameRow) {
        if let Some((g, _)) = &mut self.signed_on
            && g.id == game.id
        {
            *g = game.clone();
        }
        if let Some(g) = &mut self.master_of
            && g.id == game.id
        {
            *g = game;
        }
    }

    /// Notes that something the letter asks for needs its sender's address to confirm: the
    /// whole letter will wait for it.
    pub(crate) fn hold(&mut self, what: Message) {
        self.pending.push(what);
    }

    /// A time as the answer's reader reads it (UTC).
    pub(crate) fn when(&self, at: DateTime<Utc>) -> crate::report::When {
        crate::report::When {
            at: Some(at),
            zone: "UTC".into(),
        }
    }
}
