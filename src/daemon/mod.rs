//! The daemon: the only loop and the only clock. Mail in is stored raw (with its first
//! attempt counted), then handled in one transaction with the state it changes and the
//! letters it queues; deadlines are processed; the outbox is flushed with retries. One letter
//! or one game failing is logged and kept, never fatal: a letter whose handling panics, kills
//! or stalls the judge `limits.handling_attempts` times is quarantined and its sender told.

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use tracing::{error, info, warn};

use crate::judge::Judge;
use crate::letter::{Address, OutgoingLetter};
use crate::mail::compose::{Encodings, compose_sharing};
use crate::mail::imap::{ImapInbox, ImapSettings};
use crate::mail::maildir::Maildir;
use crate::mail::read::{Unreadable, read_letter};
use crate::mail::redact::{purged, redacted};
use crate::mail::send::{SendError, Transport};
use crate::store::{MessageState, RawState, Store, Tx};
use crate::tr;
use fault::Fault;
use watchdog::{Watchdog, Watching};

mod ahead;
mod due;
pub mod fault;
mod keeping;
mod outbox;
pub mod watchdog;

use outbox::process_alive;
pub use outbox::process_token;

/// Where the time comes from: the system, or a time tests (and `--now`) set.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    System,
    Fixed(DateTime<Utc>),
}

impl Clock {
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => *t,
        }
    }
}

/// Where mail comes from.
pub enum Inbox {
    Maildir(Maildir),
    Imap {
        settings: Box<ImapSettings>,
        connection: Option<Box<ImapInbox>>,
        idle: bool,
    },
    /// No mailbox: letters come only through `accept` (`strategos deliver`).
    None,
}

/// What becomes of a letter read.
struct Settlement {
    state: MessageState,
    sender: Option<String>,
    reason: Option<String>,
    /// What a letter handled was, for the log.
    summary: Option<crate::judge::LetterSummary>,
}

/// What one round did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub letters_in: usize,
    pub letters_out: usize,
    pub phases: usize,
}

/// The running judge.
pub struct Daemon {
    pub judge: Judge,
    pub store: Store,
    pub inbox: Inbox,
    pub transport: Box<dyn Transport>,
    pub clock: Clock,
    /// Ends the process when one letter's handling outlasts `limits.letter_seconds`; the
    /// binary starts one, a daemon built in a test has none unless the test starts it.
    pub watchdog: Option<Watchdog>,
    /// A failure injected on purpose (`fault`): tests and benchmarks only.
    pub fault: Option<Fault>,
    /// A letter was handled since the archive was last written (`accept`, as `deliver`
    /// does): the next round writes it again.
    pub archive_due: bool,
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Whether a failure is the database's (busy, locked, full, unwritable), not the letter's:
/// such an attempt is given back, the letter tried again next round.
fn database_at_fault(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::*;
    matches!(
        e.sqlite_error_code(),
        Some(
            DatabaseBusy
                | DatabaseLocked
                | DiskFull
                | SystemIoFailure
                | CannotOpen
                | OutOfMemory
                | ReadOnly
                | FileLockingProtocolFailed
                | DatabaseCorrupt
                | NotADatabase
        )
    )
}

impl Daemon {
    /// One round: stored letters left unhandled by a crash, new mail, deadlines, outbox.
    pub fn round(&mut self) -> Round {
        let mut round = Round::default();
        round.letters_in += self.recover();
        round.letters_in += self.poll_inbox();
        round.phases += self.tick();
        self.purge_quarantine();
        self.purge_sent_attachments();
        if round.phases > 0 || round.letters_in > 0 || self.archive_due {
            self.archive_due = false;
            self.refresh_archive();
        }
        round.letters_out += self.flush();
        round
    }

    /// Waits up to `max` for new mail (IMAP IDLE when the server offers it, else a plain
    /// wait); returns whether mail arrived.
    pub fn wait(&mut self, max: StdDuration) -> bool {
        if let Inbox::Imap {
            connection: Some(c),
            idle: true,
            ..
        } = &mut self.inbox
            && c.can_idle()
        {
            return match c.wait_for_mail(max) {
                Ok(arrived) => arrived,
                Err(_) => {
                    self.drop_imap();
                    false
                }
            };
        }
        std::thread::sleep(max);
        false
    }

    fn drop_imap(&mut self) {
        if let Inbox::Imap { connection, .. } = &mut self.inbox {
            *connection = None;
        }
    }

    /// Rewrites the HTML archive when the configuration asks for one; a failure is logged.
    fn refresh_archive(&mut self) {
        let Some(folder) = self.judge.config.paths.archive.clone() else {
            return;
        };
        let result = self
            .store
            .begin()
            .map_err(|e| e.to_string())
            .and_then(|tx| {
                crate::archive::write_site_with(
                    &tx,
                    &self.judge.variants,
                    &folder,
                    &self.judge.config.judge.code,
                    &self.judge.templates,
                )
            });
        if let Err(e) = result {
            warn!(error = %e, folder = %folder.display(), "cannot write the archive");
        }
    }

    /// Handles one raw message (from any source). Returns whether it was new; a message that
    /// could not be stored is logged and `false` (use `try_accept` to tell the two apart).
    pub fn accept(&mut self, raw: &[u8], source: &str) -> bool {
        self.try_accept(raw, source).unwrap_or(false)
    }

    /// Stores one raw message, then handles it. `Ok(new)` once the message is safely in the
    /// database (`false`: it was there already), so its source copy may go; `Err` when it
    /// could not be stored (the database busy, the disk full), so the source must keep it and
    /// offer it again. The message is stored with its first attempt counted, in a transaction
    /// of its own, before the handling begins: should the handling kill the judge, the letter
    /// is known after the restart, with the attempts it cost (see `attempt`).
    pub fn try_accept(&mut self, raw: &[u8], source: &str) -> rusqlite::Result<bool> {
        let _watching = self.watching("a letter as it arrives");
        let now = self.clock.now();
        let limit = self.judge.config.limits.max_message_bytes;
        let own = vec![self.judge.config.judge.address.to_lowercase()];
        let read = read_letter(&raw[..raw.len().min(limit.saturating_mul(2))], &own);
        // Stored under the Message-ID, sender and body (`letter::dedup_key`): the same letter
        // offered again is known, another letter reusing its Message-ID is not.
        let (message_id, key) = match &read {
            Ok(letter) => (letter.message_id.clone(), letter.dedup_key()),
            Err(_) => {
                let id = format!("unreadable-{:016x}@strategos.invalid", fnv(raw));
                let key = crate::letter::dedup_key(&id, "", &String::from_utf8_lossy(raw));
                (id, key)
            }
        };
        let stored = &raw[..raw.len().min(limit)];
        let recorded = (|| -> rusqlite::Result<Option<i64>> {
            let tx = self.store.begin()?;
            let id = tx.record_message(&key, &message_id, source, stored, now)?;
            if let Some(id) = id {
                tx.record_size(id, raw.len())?;
                tx.begin_attempt(id)?;
                tx.mark_handling(id, &process_token())?;
            }
            tx.commit()?;
            Ok(id)
        })();
        match recorded {
            Ok(Some(id)) => {
                self.attempt(id, stored, raw.len(), read, now);
                self.archive_due = true;
                Ok(true)
            }
            Ok(None) => Ok(false),
            Err(e) => {
                warn!(%message_id, error = %e, "could not store a letter; it stays in the inbox");
                Err(e)
            }
        }
    }

    /// The watchdog's watch over one letter's handling, if there is a watchdog.
    fn watching(&self, what: &str) -> Option<Watching> {
        self.watchdog.as_ref().map(|w| w.watch(what))
    }

    /// One attempt at handling stored letter `id`, already counted and committed: handled and
    /// settled in one transaction. If it fails the letter stays `new` for the next round: a
    /// panic (caught, its transaction rolled back) or an error of the letter's own keeps the
    /// attempt counted with its reason, and once `limits.handling_attempts` are spent the
    /// letter is quarantined (`set_aside`); a database that cannot take the work (busy, full)
    /// gives the attempt back. Returns whether the letter was settled.
    fn attempt(
        &mut self,
        id: i64,
        raw: &[u8],
        size: usize,
        read: Result<crate::letter::IncomingLetter, Unreadable>,
        now: DateTime<Utc>,
    ) -> bool {
        let (judge, fault, store) = (&self.judge, self.fault.as_ref(), &mut self.store);
        let outcome = catch_unwind(AssertUnwindSafe(|| -> rusqlite::Result<()> {
            let tx = store.begin()?;
            // Another judge process on the database (`deliver` beside `run`, each recovering
            // stored letters) may have handled it meanwhile: a letter is handled once.
            if tx.unhandled_message(id)?.is_none() {
                return Ok(());
            }
            Self::handle_stored(judge, &tx, id, raw, size, read, fault, now)?;
            tx.commit()
        }));
        let why = match outcome {
            Ok(Ok(())) => return true,
            Ok(Err(e)) if database_at_fault(&e) => {
                warn!(id, error = %e, "could not handle a stored letter; it is tried again next round");
                let given_back = self.store.begin().and_then(|tx| {
                    tx.give_back_attempt(id)?;
                    tx.commit()
                });
                if let Err(e) = given_back {
                    warn!(id, error = %e, "could not take back the attempt");
                }
                return false;
            }
            Ok(Err(e)) => format!("the database refused its handling: {e}"),
            Err(panic) => format!("the judge panicked: {}", panic_text(panic.as_ref())),
        };
        error!(id, reason = %why, "handling a letter failed");
        let max = self.judge.config.limits.handling_attempts;
        let settled = (|| -> rusqlite::Result<bool> {
            let tx = self.store.begin()?;
            let attempts = tx.attempts(id)?;
            let why = format!("attempt {attempts}: {why}");
            tx.note_failed_attempt(id, &why)?;
            let spent = attempts >= max;
            if spent {
                Self::set_aside(&self.judge, &tx, id, raw, attempts, Some(&why), now)?;
            }
            tx.commit()?;
            Ok(spent)
        })();
        settled.unwrap_or_else(|e| {
            warn!(id, error = %e, "could not record a failed attempt");
            false
        })
    }

    /// Quarantines letter `id`, whose handling did not finish in `attempts` attempts, and tells
    /// its sender once; the letters behind it go on. `last` is the reason noted by the last
    /// attempt that failed without killing the judge. Only the letter's headers are read
    /// again: its body may be what stopped the judge.
    fn set_aside(
        judge: &Judge,
        tx: &Tx,
        id: i64,
        raw: &[u8],
        attempts: u32,
        last: Option<&str>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        let stopped = "the judge stopped during it (killed, or ended by its watchdog)";
        let reason = match last {
            Some(noted) if noted.starts_with(&format!("attempt {attempts}:")) => {
                format!("its handling did not finish in {attempts} attempt(s); {noted}")
            }
            Some(noted) => format!(
                "its handling did not finish in {attempts} attempt(s); at the last {stopped}; \
                 before, {noted}"
            ),
            None => {
                format!("its handling did not finish in {attempts} attempt(s); at each {stopped}")
            }
        };
        error!(id, %reason, "letter quarantined");
        let own = vec![judge.config.judge.address.to_lowercase()];
        let headers = read_letter(&purged(raw), &own).ok();
        let sender = headers
            .as_ref()
            .and_then(|letter| letter.from.as_ref())
            .map(|a| a.email.to_lowercase());
        if let (Some(letter), Some(sender)) = (&headers, &sender)
            && letter.automatic.is_none()
            && tx.count_letter(sender, now)? <= judge.config.limits.letters_per_hour
        {
            let words = judge
                .templates
                .words(tx.player_language(sender)?.unwrap_or_default());
            let keeper = &judge.config.judge.keeper;
            let notice = Self::answer(
                letter,
                sender,
                true,
                tr!(
                    words,
                    "handling.set_aside",
                    attempts = attempts,
                    keeper = keeper
                ),
            );
            Self::queue_answer(judge, tx, &notice, id, now)?;
        }
        tx.settle_message(
            id,
            MessageState::Quarantined,
            sender.as_deref(),
            Some(&reason),
            now,
        )
    }

    /// Handles a stored message and settles it; a letter handled or ignored keeps only its
    /// headers and its commands with passwords hidden (`mail::redact`), a quarantined one
    /// stays whole until `limits.keep_quarantined_days` have passed.
    #[allow(clippy::too_many_arguments)]
    fn handle_stored(
        judge: &Judge,
        tx: &Tx,
        id: i64,
        raw: &[u8],
        size: usize,
        read: Result<crate::letter::IncomingLetter, Unreadable>,
        fault: Option<&Fault>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        let letter = match read {
            Ok(letter) => letter,
            Err(why) => {
                info!(id, reason = %why, "letter quarantined");
                return tx.settle_message(
                    id,
                    MessageState::Quarantined,
                    None,
                    Some(&why.to_string()),
                    now,
                );
            }
        };
        let settled = Self::handle_read(judge, tx, id, size, &letter, fault, now)?;
        // One line a letter: who, which games, which commands, what came of it.
        let from = settled.sender.as_deref().unwrap_or("-");
        match (&settled.summary, settled.state) {
            (Some(summary), _) => info!("letter {id} from {from}: {summary}"),
            (None, state) => info!(
                "letter {id} from {from}: {}: {}",
                state.word(),
                settled.reason.as_deref().unwrap_or("-")
            ),
        }
        tx.settle_message(
            id,
            settled.state,
            settled.sender.as_deref(),
            settled.reason.as_deref(),
            now,
        )?;
        if matches!(settled.state, MessageState::Handled | MessageState::Ignored) {
            tx.replace_raw(id, &redacted(raw, &letter.body), RawState::Redacted)?;
        }
        Ok(())
    }

    /// What becomes of a letter read: ignored, quarantined or handled (its letters queued).
    fn handle_read(
        judge: &Judge,
        tx: &Tx,
        id: i64,
        size: usize,
        letter: &crate::letter::IncomingLetter,
        fault: Option<&Fault>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Settlement> {
        let settled = |state, sender: Option<&str>, reason: Option<&str>| Settlement {
            state,
            sender: sender.map(str::to_string),
            reason: reason.map(str::to_string),
            summary: None,
        };
        let sender = letter.from.as_ref().map(|a| a.email.to_lowercase());
        if let Some(reason) = &letter.automatic {
            return Ok(settled(
                MessageState::Ignored,
                sender.as_deref(),
                Some(reason),
            ));
        }
        if let Some(reason) = judge.answers_the_judge_automatically(letter) {
            return Ok(settled(
                MessageState::Ignored,
                sender.as_deref(),
                Some(&reason),
            ));
        }
        let Some(sender) = sender else {
            let reason = if letter.refused_from.is_some() {
                "the sender's address cannot be used"
            } else {
                "the letter has no sender"
            };
            return Ok(settled(MessageState::Quarantined, None, Some(reason)));
        };
        // Every letter counts toward the hourly limit, refused ones too. Past it a letter is
        // read only if it signs on with a seat's password, so that letters forged in a
        // player's name cannot silence the player; the sender hears of the limit once.
        let per_hour = judge.config.limits.letters_per_hour;
        let count = tx.count_letter(&sender, now)?;
        let over = count > per_hour;
        let words = judge
            .templates
            .words(tx.player_language(&sender)?.unwrap_or_default());
        if count == per_hour.saturating_add(1) {
            let notice = Self::answer(
                letter,
                &sender,
                false,
                tr!(words, "limits.over_rate", limit = per_hour),
            );
            Self::queue_answer(judge, tx, &notice, id, now)?;
        }
        let limit = judge.config.limits.max_message_bytes;
        if size > limit {
            if !over {
                let refusal = Self::answer(
                    letter,
                    &sender,
                    true,
                    tr!(words, "limits.too_large", size = size, limit = limit),
                );
                Self::queue_answer(judge, tx, &refusal, id, now)?;
            }
            return Ok(settled(
                MessageState::Quarantined,
                Some(&sender),
                Some("larger than the size limit"),
            ));
        }
        if over {
            let proof = judge.proof_past_limit(tx, letter, now)?;
            for out in &proof.letters {
                Self::queue(judge, tx, out, Some(id), now)?;
            }
            if !proof.read {
                return Ok(settled(
                    MessageState::Ignored,
                    Some(&sender),
                    Some("rate limit"),
                ));
            }
        }
        let handled = judge.handle_letter(tx, letter, now)?;
        // An injected fault strikes once the letter's work is done but not committed.
        if let Some(fault) = fault {
            fault.strike(&letter.body);
        }
        let mut held_back = None;
        // A letter that completes a game's orders causes its results, one picture for all.
        let mut encodings = Encodings::default();
        for out in &handled.letters {
            if out.in_reply_to.is_some() && !handled.effective {
                let why = Self::queue_answer(judge, tx, out, id, now)?;
                held_back = held_back.or(why);
            } else {
                Self::queue_sharing(judge, tx, out, Some(id), now, &mut encodings)?;
            }
        }
        Ok(Settlement {
            summary: Some(handled.summary),
            ..settled(MessageState::Handled, Some(&sender), held_back.as_deref())
        })
    }

    /// Queues an answer to a letter in which nothing was done (an error, no command, a
    /// refusal) unless an identical answer went to the same address too recently: the second
    /// identical answer waits a day after the first, the third two days after the second,
    /// then 4, 8... days, so that a robot answering every letter cannot keep the judge
    /// answering it. Returns why the answer was held back, if it was.
    fn queue_answer(
        judge: &Judge,
        tx: &Tx,
        answer: &OutgoingLetter,
        caused_by: i64,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Option<String>> {
        let recipient = answer
            .to
            .iter()
            .map(|a| a.email.to_lowercase())
            .collect::<Vec<_>>()
            .join(",");
        let digest = answer.answer_digest();
        if let Some((count, last)) = tx.answers_sent(&recipient, &digest)? {
            let next = last + chrono::Duration::days(1i64 << count.saturating_sub(1).min(30));
            if now < next {
                return Ok(Some(format!(
                    "an identical answer went to {recipient} {count} time(s), last at {}; \
                     not sent again before {}",
                    crate::store::time_text(last),
                    crate::store::time_text(next)
                )));
            }
        }
        tx.record_answer(&recipient, &digest, now)?;
        Self::queue(judge, tx, answer, Some(caused_by), now)?;
        Ok(None)
    }

    /// The judge's own answer to `letter` (not the game master's): `text` to the sender, as
    /// a reply, flagged as an error when it refuses the letter.
    fn answer(
        letter: &crate::letter::IncomingLetter,
        sender: &str,
        refusal: bool,
        text: String,
    ) -> OutgoingLetter {
        let mut subject = crate::mail::compose::reply_subject(&letter.subject);
        if refusal {
            subject.push_str(" [Error Flag]");
        }
        OutgoingLetter {
            to: vec![Address::new(sender)],
            subject,
            body: text + "\n",
            in_reply_to: Some(letter.message_id.clone()),
            references: vec![letter.message_id.clone()],
            attachments: Vec::new(),
            game: None,
        }
    }

    /// Handles messages stored but not settled: the judge stopped in between (killed, or
    /// ended by its watchdog), or their last attempt failed. Returns how many were settled.
    fn recover(&mut self) -> usize {
        // A letter another live judge process is handling (`deliver` beside `run`) is its own.
        let me = process_token();
        let pending = match self.store.begin().and_then(|tx| tx.unhandled_by()) {
            Ok(p) => p
                .into_iter()
                .filter(|(_, by)| {
                    by.as_deref()
                        .is_none_or(|by| by == me || !process_alive(by))
                })
                .map(|(id, _)| id)
                .collect::<Vec<_>>(),
            Err(e) => {
                warn!(error = %e, "could not read unhandled letters");
                return 0;
            }
        };
        let mut n = 0;
        for id in pending {
            match self.retry(id) {
                Ok(settled) => n += usize::from(settled),
                Err(e) => warn!(id, error = %e, "could not handle a stored letter"),
            }
        }
        n
    }

    /// Tries stored letter `id` once more, its attempt counted and committed first; or, when
    /// its attempts are spent, quarantines it. Returns whether it was settled.
    fn retry(&mut self, id: i64) -> rusqlite::Result<bool> {
        let _watching = self.watching(&format!("letter {id}"));
        let now = self.clock.now();
        let tx = self.store.begin()?;
        let Some(message) = tx.unhandled_message(id)? else {
            return Ok(false);
        };
        if message.attempts >= self.judge.config.limits.handling_attempts {
            let (raw, attempts, last) = (&message.raw, message.attempts, message.reason.as_deref());
            Self::set_aside(&self.judge, &tx, id, raw, attempts, last, now)?;
            tx.commit()?;
            return Ok(true);
        }
        tx.begin_attempt(id)?;
        tx.mark_handling(id, &process_token())?;
        tx.commit()?;
        let own = vec![self.judge.config.judge.address.to_lowercase()];
        let read = read_letter(&message.raw, &own);
        Ok(self.attempt(id, &message.raw, message.size, read, now))
    }

    /// Reads new mail from the inbox; each message is marked at the source only once it is
    /// safely stored (its handling committed, or left to `recover` should it have failed).
    fn poll_inbox(&mut self) -> usize {
        let mut n = 0;
        match &mut self.inbox {
            Inbox::None => {}
            Inbox::Maildir(maildir) => {
                let maildir = maildir.clone();
                let messages = match maildir.pending() {
                    Ok(m) => m,
                    Err(e) => {
                        warn!(error = %e, "cannot list the inbox Maildir");
                        return 0;
                    }
                };
                for message in messages {
                    let raw = match maildir.read(&message) {
                        Ok(raw) => raw,
                        Err(e) => {
                            warn!(id = %message.id, error = %e, "cannot read a message from the inbox");
                            continue;
                        }
                    };
                    // Removed only once stored (now or before): the database holds it, and
                    // the raw letter with its passwords stays nowhere else. Otherwise it stays
                    // for the next round.
                    let Ok(new) = self.try_accept(&raw, &format!("maildir:{}", message.id)) else {
                        continue;
                    };
                    n += usize::from(new);
                    if let Err(e) = maildir.remove(&message) {
                        warn!(id = %message.id, error = %e, "cannot remove a stored letter from the inbox");
                    }
                }
            }
            Inbox::Imap {
                settings,
                connection,
                ..
            } => {
                if connection.is_none() {
                    match ImapInbox::connect(settings) {
                        Ok(c) => *connection = Some(Box::new(c)),
                        Err(e) => {
                            warn!(error = %e, "cannot connect to the IMAP server");
                            return 0;
                        }
                    }
                }
                let Some(c) = connection.as_mut() else {
                    return 0;
                };
                let messages = match c.pending() {
                    Ok(m) => m,
                    Err(e) => {
                        warn!(error = %e, "IMAP fetch failed; reconnecting next round");
                        *connection = None;
                        return 0;
                    }
                };
                for (uid, raw) in messages {
                    // Marked only once stored (now or before); otherwise it stays unseen for
                    // the next round.
                    let Ok(new) = self.try_accept(&raw, &format!("imap:{uid}")) else {
                        continue;
                    };
                    n += usize::from(new);
                    let done = match &mut self.inbox {
                        Inbox::Imap {
                            connection: Some(c),
                            ..
                        } => c.mark_handled(uid),
                        _ => Ok(()),
                    };
                    if let Err(e) = done {
                        warn!(uid, error = %e, "cannot mark an IMAP message handled");
                        self.drop_imap();
                        break;
                    }
                }
            }
        }
        n
    }
}

/// FNV-1a, to name a message that has no Message-ID and cannot be read.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
