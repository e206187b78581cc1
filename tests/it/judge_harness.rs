//! A judge to test with: an SQLite file in a temporary folder, no inbox (letters are handed
//! in), a Maildir of sent mail read back letter by letter, and a clock the test sets.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use strategos::config::Config;
use strategos::daemon::{Clock, Daemon, Inbox};
use strategos::judge::Judge;
use strategos::letter::IncomingLetter;
use strategos::mail::maildir::Maildir;
use strategos::mail::read::read_letter;
use strategos::mail::send::MaildirTransport;
use strategos::report::Templates;
use strategos::store::Store;
use strategos::variant::{self, load_variant};

/// A temporary folder removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("strategos-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The judge under test and what it has sent.
pub struct Harness {
    pub daemon: Daemon,
    pub dir: TempDir,
    sent: Maildir,
    /// Every letter `take_sent` has returned, oldest first (for `confirm`).
    taken: Vec<IncomingLetter>,
    /// Confirmations sent so far (to number their Message-IDs).
    confirmations: usize,
}

/// The test configuration: the judge at judge@example.test, everything else by default but
/// the timing (`no_grace_nor_delay`).
pub fn test_config() -> Config {
    let mut config = test_config_with_defaults();
    no_grace_nor_delay(&mut config);
    config
}

/// The test configuration with the shipped timing: a grace after each deadline, and a short
/// delay before a phase whose orders are all in is processed.
pub fn test_config_with_defaults() -> Config {
    let mut config = Config::default();
    config.judge.address = "judge@example.test".into();
    config.judge.keeper = "keeper@example.test".into();
    // Here I Stand games roll the same dice in every run.
    config.judge.dice_seed = Some("5eed".repeat(16));
    // Confirmation tokens are the same in every run, so mail exchanges can send them back.
    config.judge.token_key = Some("70ce".repeat(16));
    config
}

/// The timing the tests written before the classic defaults (issue 14) play by: no grace
/// after a deadline and no delay before early processing, so a phase is processed the moment
/// its last orders come. Flows that show the defaults keep them (`flow.rs`: `defaults` file).
pub fn no_grace_nor_delay(config: &mut Config) {
    config.deadlines.movement_grace_hours = 0;
    config.deadlines.retreat_grace_hours = 0;
    config.deadlines.adjustment_grace_hours = 0;
    config.deadlines.delay_minutes = 0;
}

/// The built-in variants plus the small test variants of `tests/data/variants/`.
pub fn test_variants() -> Vec<variant::Variant> {
    let mut variants = variant::embedded().unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/variants/tiny.toml");
    variants
        .push(load_variant("tiny", "tiny.toml", &std::fs::read_to_string(path).unwrap()).unwrap());
    variants
}

impl Harness {
    pub fn new(tag: &str) -> Harness {
        Harness::with_config(tag, test_config())
    }

    pub fn with_config(tag: &str, config: Config) -> Harness {
        let dir = TempDir::new(tag);
        let daemon = Harness::open(&dir, config);
        let sent = Maildir::open(dir.0.join("sent")).unwrap();
        Harness {
            daemon,
            dir,
            sent,
            taken: Vec::new(),
            confirmations: 0,
        }
    }

    /// A daemon on the harness's database and sent folder (as after a restart).
    pub fn open(dir: &TempDir, config: Config) -> Daemon {
        let store = Store::open(&dir.0.join("judge.db")).unwrap();
        let transport = MaildirTransport::open(dir.0.join("sent")).unwrap();
        let judge = Judge {
            config,
            variants: test_variants(),
            templates: Templates::built_in(),
            last_position: Default::default(),
            pictures_ahead: Default::default(),
        };
        Daemon {
            judge,
            store,
            inbox: Inbox::None,
            transport: Box::new(transport),
            clock: Clock::System,
            watchdog: None,
            fault: None,
            archive_due: false,
        }
    }

    /// A judge of its own on a copy of this one's database (at this one's time), sending to a
    /// sent Maildir of its own: to try a letter on a game without changing it.
    pub fn copy(&self, tag: &str) -> Harness {
        let dir = TempDir::new(tag);
        self.daemon.store.back_up(&dir.0.join("judge.db")).unwrap();
        let mut daemon = Harness::open(&dir, self.daemon.judge.config.clone());
        daemon.clock = self.daemon.clock;
        let sent = Maildir::open(dir.0.join("sent")).unwrap();
        Harness {
            daemon,
            dir,
            sent,
            taken: Vec::new(),
            confirmations: 0,
        }
    }

    /// Stops the judge without sending anything and starts it again on the same files.
    pub fn restart(&mut self) {
        let config = self.daemon.judge.config.clone();
        self.daemon = Harness::open(&self.dir, config);
    }

    pub fn set_time(&mut self, now: DateTime<Utc>) {
        self.daemon.clock = Clock::Fixed(now);
    }

    /// Hands in a raw message and lets the judge do a round; returns whether it was new.
    pub fn deliver(&mut self, raw: &[u8]) -> bool {
        let new = self.daemon.accept(raw, "test");
        self.daemon.round();
        new
    }

    /// Lets time pass to `now` and does a round.
    pub fn tick(&mut self, now: DateTime<Utc>) {
        self.set_time(now);
        self.daemon.round();
    }

    /// Where a letter the judge sent stands in its outbox's queue (its Message-ID is drawn
    /// at random, so only the outbox knows the order the letters were written in).
    fn place_of(&mut self, message_id: &str) -> i64 {
        let tx = self.daemon.store.begin().unwrap();
        tx.outbox_place(message_id).unwrap().unwrap_or(i64::MAX)
    }

    /// Letters sent since the last call, in the order the judge wrote them.
    pub fn take_sent(&mut self) -> Vec<IncomingLetter> {
        let mut letters: Vec<(i64, IncomingLetter)> = Vec::new();
        for message in self.sent.pending().unwrap() {
            let raw = self.sent.read(&message).unwrap();
            self.sent.mark_handled(&message).unwrap();
            let letter = read_letter(&raw, &[]).unwrap();
            let serial = self.place_of(&letter.message_id);
            letters.push((serial, letter));
        }
        letters.sort_by_key(|(serial, _)| *serial);
        let letters: Vec<IncomingLetter> = letters.into_iter().map(|(_, l)| l).collect();
        self.taken.extend(letters.iter().cloned());
        letters
    }

    /// Letters sent since the last call as raw messages, in the order the judge wrote them.
    pub fn take_sent_raw(&mut self) -> Vec<Vec<u8>> {
        let mut letters: Vec<(i64, Vec<u8>)> = Vec::new();
        for message in self.sent.pending().unwrap() {
            let raw = self.sent.read(&message).unwrap();
            self.sent.mark_handled(&message).unwrap();
            let letter = read_letter(&raw, &[]).unwrap();
            let serial = self.place_of(&letter.message_id);
            self.taken.push(letter);
            letters.push((serial, raw));
        }
        letters.sort_by_key(|(serial, _)| *serial);
        letters.into_iter().map(|(_, raw)| raw).collect()
    }

    /// Marks addresses as proven, as if each had confirmed a token once (for tests whose
    /// subject is not the confirmation).
    pub fn vouch(&mut self, addresses: &[&str]) {
        let now = self.daemon.clock.now();
        let tx = self.daemon.store.begin().unwrap();
        for address in addresses {
            tx.confirm_address(bare(address), now).unwrap();
        }
        tx.commit().unwrap();
    }

    /// Letters sent and not yet taken, without taking them, in the order written.
    pub fn peek_sent(&mut self) -> Vec<IncomingLetter> {
        let mut letters: Vec<(i64, IncomingLetter)> = Vec::new();
        for message in self.sent.pending().unwrap() {
            let raw = self.sent.read(&message).unwrap();
            let letter = read_letter(&raw, &[]).unwrap();
            let serial = self.place_of(&letter.message_id);
            letters.push((serial, letter));
        }
        letters.sort_by_key(|(serial, _)| *serial);
        letters.into_iter().map(|(_, l)| l).collect()
    }

    /// The token of the last `CONFIRM <token>` line mailed to `address`, if any.
    pub fn token_for(&mut self, address: &str) -> Option<String> {
        let address = bare(address);
        let pending = self.peek_sent();
        self.taken
            .iter()
            .chain(pending.iter())
            .rev()
            .filter(|l| l.to.iter().any(|a| a.email.eq_ignore_ascii_case(address)))
            .find_map(|l| confirm_token(&l.body))
    }

    /// Sends back, from `address`, the last token mailed there (as a player answering a
    /// confirmation would); panics when there is none.
    pub fn confirm(&mut self, address: &str) {
        let token = self
            .token_for(address)
            .unwrap_or_else(|| panic!("no CONFIRM token was mailed to {address}"));
        self.confirmations += 1;
        let id = format!("confirm{}.{address}", self.confirmations);
        self.deliver(&mail(
            address,
            "confirm",
            &id,
            &format!("CONFIRM {token}\n"),
        ));
    }

    /// Delivers `raw` from `address` and, if its answer asks for a confirmation, confirms it:
    /// what a newcomer does to join or create a game.
    pub fn deliver_confirmed(&mut self, address: &str, raw: &[u8]) {
        let before = self.token_for(address);
        self.deliver(raw);
        let after = self.token_for(address);
        if after.is_some() && after != before {
            self.confirm(address);
        }
    }
}

/// The address of `Name <address>`, or the text itself.
fn bare(address: &str) -> &str {
    match (address.find('<'), address.rfind('>')) {
        (Some(start), Some(end)) if start < end => &address[start + 1..end],
        _ => address,
    }
}

/// The token of a `CONFIRM <token>` line of a letter's body, if it has one.
pub fn confirm_token(body: &str) -> Option<String> {
    body.lines().rev().find_map(|line| {
        let token = line.trim().strip_prefix("CONFIRM ")?;
        (token.len() == 16
            && token
                .bytes()
                .all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b)))
        .then(|| token.to_string())
    })
}

/// A plain message from `from` to the judge.
pub fn mail(from: &str, subject: &str, message_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nMessage-ID: <{message_id}>\r\n\
         Date: Tue, 5 Jan 2027 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}
