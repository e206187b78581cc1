//! Load: many standard games on one judge, letters through the Maildir inbox, and every game's
//! deadline falling at the same moment. Figures, not assertions: `cargo bench --bench load`.
//!
//! Set-up (not timed): one standard game is made by mail (CREATE and six SIGNONs), then copied
//! in SQL to `STRATEGOS_LOAD_GAMES` games (1,000), each with seven players of its own. The
//! copies share the first game's seven password hashes, so after the first letter of each
//! seat number the judge's cache of verified passwords answers; the cost of a seat's first
//! letter (one argon2id verification) is measured and reported on its own.
//!
//! (a) `STRATEGOS_LOAD_LETTERS` (20,000) order letters are put in the inbox Maildir and the
//!     daemon runs rounds until it is empty: read, parse, check the password, validate, store,
//!     answer queued and written to the sent Maildir. Six powers of each game write; the
//!     seventh stays silent so that no game adjudicates early.
//! (b) the judge, idle, paints each game's results picture ahead as its orders stand
//!     (measured on its own); then every game's deadline is set to the same moment and one
//!     round runs after it: every game adjudicated, every report queued and written, each
//!     picture taken from those painted ahead.
//! (c) then the web archive of every game is written twice, as after a round with letters.
//!
//! Peak memory is the process's high-water mark (`VmHWM`), set-up included.

use std::path::{Path, PathBuf};
use std::time::Instant;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use chrono::{DateTime, Duration, Utc};
use rusqlite::{Connection, params};
use strategos::config::Config;
use strategos::daemon::{Clock, Daemon, Inbox};
use strategos::judge::Judge;
use strategos::mail::maildir::Maildir;
use strategos::mail::send::{MaildirTransport, SendError, Transport};
use strategos::report::Templates;
use strategos::store::{Store, time_text};
use strategos::variant;

/// The standard powers' letters in SIGNON and the usual first orders of each.
const OPENINGS: [(&str, char, &str); 7] = [
    ("austria", 'A', "A Vie - Tri\nA Bud - Ser\nF Tri - Alb"),
    ("england", 'E', "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor"),
    ("france", 'F', "A Par - Bur\nA Mar - Spa\nF Bre - Mao"),
    ("germany", 'G', "A Ber - Kie\nA Mun - Ruh\nF Kie - Hol"),
    ("italy", 'I', "A Ven H\nA Rom - Apu\nF Nap - Ion"),
    (
        "russia",
        'R',
        "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot",
    ),
    ("turkey", 'T', "A Con - Bul\nA Smy - Con\nF Ank - Bla"),
];

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn peak_resident_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

/// The processor time the process has used so far, every thread's, user and system, in
/// seconds: on a machine shared with other work, what a step cost, whatever the wait for a
/// core.
fn processor_seconds() -> f64 {
    usage_seconds(libc::RUSAGE_SELF)
}

/// The processor time the calling thread has used so far, user and system, in seconds.
fn thread_seconds() -> f64 {
    usage_seconds(libc::RUSAGE_THREAD)
}

fn usage_seconds(who: libc::c_int) -> f64 {
    // SAFETY: getrusage(2) fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn letter(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\
         Date: Tue, 5 Jan 2027 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The sent Maildir, with the time spent writing into it counted, so that handling (up to the
/// answer queued) and sending can be told apart.
struct TimedMaildir {
    inner: MaildirTransport,
    spent: std::rc::Rc<std::cell::Cell<std::time::Duration>>,
}

impl TimedMaildir {
    fn timed<T>(&mut self, work: impl FnOnce(&mut MaildirTransport) -> T) -> T {
        let started = Instant::now();
        let result = work(&mut self.inner);
        self.spent.set(self.spent.get() + started.elapsed());
        result
    }
}

impl Transport for TimedMaildir {
    fn send(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        self.timed(|inner| inner.send(from, to, raw))
    }

    fn stage(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        self.timed(|inner| inner.stage(from, to, raw))
    }

    fn settle(&mut self) -> Result<(), SendError> {
        self.timed(|inner| inner.settle())
    }

    fn stages(&self) -> bool {
        self.inner.stages()
    }
}

fn daemon(dir: &Path, now: DateTime<Utc>) -> Daemon {
    let mut config = Config::default();
    config.judge.address = "judge@example.test".into();
    config.judge.keeper = "keeper@example.test".into();
    // Every game adjudicated at the one deadline, as the figures in docs/performance.md were
    // taken: no grace for missing orders, no delay after the last orders.
    config.deadlines.movement_grace_hours = 0;
    config.deadlines.retreat_grace_hours = 0;
    config.deadlines.adjustment_grace_hours = 0;
    config.deadlines.delay_minutes = 0;
    Daemon {
        judge: Judge {
            config,
            variants: variant::embedded().expect("built-in variants load"),
            templates: Templates::built_in(),
            last_position: Default::default(),
            pictures_ahead: Default::default(),
        },
        store: Store::open(&dir.join("judge.db")).expect("database opens"),
        inbox: Inbox::Maildir(Maildir::open(dir.join("in")).expect("inbox")),
        transport: Box::new(MaildirTransport::open(dir.join("sent")).expect("sent Maildir")),
        clock: Clock::Fixed(now),
        watchdog: None,
        fault: None,
        archive_due: false,
    }
}

/// Rounds until the inbox is empty and the outbox sent; returns the letters handled.
fn drain(judge: &mut Daemon) -> usize {
    let mut handled = 0;
    loop {
        let round = judge.round();
        handled += round.letters_in;
        if round.letters_in == 0 && round.letters_out == 0 {
            return handled;
        }
    }
}

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// Copies game `load1` and its players to games `load2..=games` with players of their own.
fn copy_games(db: &Path, games: usize) {
    let mut conn = Connection::open(db).expect("database");
    let tx = conn.transaction().expect("transaction");
    let members: Vec<(i64, String)> = {
        let mut statement = tx
            .prepare("SELECT player_id, power FROM members WHERE game_id = 1 ORDER BY player_id")
            .unwrap();
        statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    for g in 2..=games {
        tx.execute(
            "INSERT INTO games (name, variant, state, created_by, created_at, time_zone,
                movement_hours, retreat_hours, adjustment_hours, reminder_hours, position,
                deadline_at, reminded, phase_serial, settings)
             SELECT ?1, variant, state, created_by, created_at, time_zone, movement_hours,
                retreat_hours, adjustment_hours, reminder_hours, position, deadline_at,
                reminded, phase_serial, settings FROM games WHERE id = 1",
            params![format!("load{g}")],
        )
        .unwrap();
        let game = tx.last_insert_rowid();
        for (old_player, power) in &members {
            tx.execute(
                "INSERT INTO players (email, name, password_hash, registered_at)
                 SELECT ?1, name, password_hash, registered_at FROM players WHERE id = ?2",
                params![format!("{power}.{g}@example.test"), old_player],
            )
            .unwrap();
            let player = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO members (game_id, player_id, power, role, password_hash, joined_at, wishes)
                 SELECT ?1, ?2, power, role, password_hash, joined_at, wishes
                 FROM members WHERE game_id = 1 AND player_id = ?3",
                params![game, player, old_player],
            )
            .unwrap();
            if *old_player == 1 {
                tx.execute(
                    "UPDATE games SET created_by = ?1 WHERE id = ?2",
                    params![player, game],
                )
                .unwrap();
            }
        }
        tx.execute(
            "INSERT INTO positions (game_id, phase_serial, title, position, players, created_at)
             SELECT ?1, phase_serial, title, position, players, created_at
             FROM positions WHERE game_id = 1",
            params![game],
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let games = env_number("STRATEGOS_LOAD_GAMES", 1000).max(1);
    let letters = env_number("STRATEGOS_LOAD_LETTERS", 20_000);
    let dir: PathBuf = std::env::temp_dir().join(format!("strategos-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let start: DateTime<Utc> = "2027-01-05T12:00:00Z".parse().unwrap();
    let mut judge = daemon(&dir, start);
    let inbox = Maildir::open(dir.join("in")).unwrap();

    // Set-up: game load1 by mail, then its copies. The players' addresses are taken as proven
    // (each would have confirmed a token once).
    let setup = Instant::now();
    {
        let tx = judge.store.begin().unwrap();
        for (power, _, _) in OPENINGS.iter() {
            tx.confirm_address(&format!("{power}.1@example.test"), start)
                .unwrap();
        }
        tx.commit().unwrap();
    }
    inbox
        .deliver(&letter(
            "austria.1@example.test",
            "c@load",
            "CREATE ?load1 pw-austria standard",
        ))
        .unwrap();
    for (i, (power, _, _)) in OPENINGS.iter().enumerate().skip(1) {
        let body = format!("SIGNON ?load1 pw-{power}");
        inbox
            .deliver(&letter(
                &format!("{power}.1@example.test"),
                &format!("j{i}@load"),
                &body,
            ))
            .unwrap();
    }
    drain(&mut judge);
    // Powers are dealt at random: each seat's player takes the name of the power it got.
    {
        let conn = Connection::open(dir.join("judge.db")).unwrap();
        let state: String = conn
            .query_row("SELECT state FROM games WHERE id = 1", [], |r| r.get(0))
            .unwrap();
        assert_eq!(state, "active", "the first game started");
        let dealt: Vec<(i64, String)> = conn
            .prepare("SELECT player_id, power FROM members WHERE game_id = 1")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (player, _) in &dealt {
            let seat: String = conn
                .query_row("SELECT email FROM players WHERE id = ?1", [player], |r| {
                    r.get(0)
                })
                .unwrap();
            let seat = seat.split('.').next().unwrap().to_string();
            // The password follows the seat, kept in the name for the copies to find.
            conn.execute(
                "UPDATE players SET name = ?1, email = 'dealt-' || id WHERE id = ?2",
                params![format!("pw-{seat}"), player],
            )
            .unwrap();
        }
        for (player, power) in &dealt {
            conn.execute(
                "UPDATE players SET email = ?1 WHERE id = ?2",
                params![format!("{power}.1@example.test"), player],
            )
            .unwrap();
        }
    }
    drop(judge);
    copy_games(&dir.join("judge.db"), games);
    let mut judge = daemon(&dir, start + Duration::hours(1));
    let passwords: std::collections::HashMap<String, String> = {
        let conn = Connection::open(dir.join("judge.db")).unwrap();
        conn.prepare("SELECT email, name FROM players")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let sent = Maildir::open(dir.join("sent")).unwrap();
    for m in sent.pending().unwrap() {
        sent.mark_handled(&m).unwrap();
    }
    println!(
        "set-up: {games} standard games, {} players, in {:.1} s",
        games * 7,
        setup.elapsed().as_secs_f64()
    );

    // (a) letters through the inbox.
    let writing = Instant::now();
    for n in 0..letters {
        let g = n % games + 1;
        let (power, initial, orders) = OPENINGS[(n / games) % 6];
        let from = format!("{power}.{g}@example.test");
        let password = &passwords[&format!("{power}.1@example.test")];
        let body = format!("SIGNON {initial}load{g} {password}\n{orders}");
        inbox
            .deliver(&letter(&from, &format!("o{n}@load"), &body))
            .unwrap();
    }
    let written = writing.elapsed();
    let spent = std::rc::Rc::new(std::cell::Cell::new(std::time::Duration::ZERO));
    judge.transport = Box::new(TimedMaildir {
        inner: MaildirTransport::open(dir.join("sent")).unwrap(),
        spent: spent.clone(),
    });
    let handling = Instant::now();
    let handled = drain(&mut judge);
    let took = handling.elapsed().as_secs_f64();
    let sending = spent.get().as_secs_f64();
    let answers = sent.pending().unwrap().len();
    println!(
        "(a) {handled} order letters read, checked, stored and answered (answer queued) in \
         {:.2} s: {:.0} letters/s",
        took - sending,
        handled as f64 / (took - sending)
    );
    println!(
        "    with the {answers} answers also written to the sent Maildir (flushed to disk once a round): {took:.2} s, \
         {:.0} letters/s; putting the letters in the inbox Maildir took {:.2} s beforehand",
        handled as f64 / took,
        written.as_secs_f64()
    );
    assert_eq!(handled, letters, "every letter was handled");
    {
        let conn = Connection::open(dir.join("judge.db")).unwrap();
        let states: Vec<(String, i64)> = conn
            .prepare("SELECT state, count(*) FROM outbox GROUP BY state")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        println!("    outbox: {states:?}");
    }

    // The quiet time before the deadline: the judge, with no letter waiting, paints each
    // game's results picture as its orders stand (`daemon::ahead`), a batch at a time.
    let painting = Instant::now();
    let processor = processor_seconds();
    let mut batches = 0;
    while judge.paint_ahead() {
        batches += 1;
    }
    let kept = count(&dir.join("judge.db"), "SELECT count(*) FROM pictures_ahead");
    println!(
        "(b) before the deadline, while idle: {kept} pictures painted ahead and kept in {batches} \
         batches, {:.2} s ({:.2} s of processor time)",
        painting.elapsed().as_secs_f64(),
        processor_seconds() - processor
    );

    // (b) every deadline at once.
    let deadline = start + Duration::hours(100);
    {
        let conn = Connection::open(dir.join("judge.db")).unwrap();
        conn.execute("UPDATE games SET deadline_at = ?1", [time_text(deadline)])
            .unwrap();
    }
    judge.clock = Clock::Fixed(deadline + Duration::seconds(1));
    let db = dir.join("judge.db");
    let before = count(&db, "SELECT count(*) FROM reports");
    let serial = count(&db, "SELECT max(phase_serial) FROM games");
    spent.set(std::time::Duration::ZERO);
    let processing = Instant::now();
    let processor = processor_seconds();
    let own = thread_seconds();
    let round = judge.round();
    let own = thread_seconds() - own;
    let queued = processing.elapsed().as_secs_f64() - spent.get().as_secs_f64();
    let queued_processor = processor_seconds() - processor;
    let painted = judge.judge.pictures_ahead.taken_ahead();
    let reports = count(&db, "SELECT count(*) FROM reports") - before;
    let moved = count(
        &db,
        &format!("SELECT count(*) FROM games WHERE phase_serial > {serial}"),
    );
    let mut written = round.letters_out;
    loop {
        let more = judge.round().letters_out;
        if more == 0 {
            break;
        }
        written += more;
    }
    let took = processing.elapsed().as_secs_f64();
    println!(
        "(b) one deadline for all: {moved} of {games} games adjudicated, {reports} reports and \
         {} letters queued in {queued:.2} s (not counting sending); all {written} letters written by {took:.2} s",
        round.phases
    );
    println!(
        "    the round's processor time, every thread's: {queued_processor:.2} s on {} core(s), \
         {own:.2} s of it the round's own thread's; {painted} pictures painted ahead on other threads",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    assert_eq!(moved as usize, games, "every game moved on");

    // (c) the web archive of every game, as the daemon writes it after a round with letters
    // when `paths.archive` is set: the first time every phase's picture is drawn, the second
    // only what changed (nothing).
    let site = dir.join("site");
    for pass in ["first", "again, nothing changed"] {
        let writing = Instant::now();
        let processor = processor_seconds();
        let tx = judge.store.begin().unwrap();
        let pages =
            strategos::archive::write_site_as(&tx, &judge.judge.variants, &site, "STRA").unwrap();
        drop(tx);
        println!(
            "(c) the archive of {pages} games written ({pass}) in {:.2} s ({:.2} s of processor time)",
            writing.elapsed().as_secs_f64(),
            processor_seconds() - processor
        );
    }

    // The cost the cache saves: one argon2id verification, as for a seat's first letter.
    let hash = Argon2::default()
        .hash_password(b"pw-cold")
        .unwrap()
        .to_string();
    let cold = Instant::now();
    for _ in 0..5 {
        assert!(
            Argon2::default()
                .verify_password(b"pw-cold", hash.as_str())
                .is_ok()
        );
    }
    println!(
        "a seat's first letter since start-up also pays one argon2id verification: {:.1} ms",
        cold.elapsed().as_secs_f64() * 1000.0 / 5.0
    );
    println!("peak resident memory: {:.0} MB", peak_resident_mb());
    let _ = std::fs::remove_dir_all(&dir);
}
