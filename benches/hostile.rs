//! Hostile letters: each kind of costly letter handled by a judge on temporary files, with the
//! time it took and the peak memory of a process that handled only it. Figures, not
//! assertions: `cargo bench --bench hostile` (`STRATEGOS_HOSTILE_CASES=get-his,orders` for
//! some of them). The judge's limits decide what each letter costs; this reports whatever the
//! judge does, so the figures move as the limits do.
//!
//! Each case runs in a child process of its own (this program started again with
//! `STRATEGOS_HOSTILE_CASE` set), so its peak resident memory (`VmHWM`) is its own: the set-up
//! (a standard game of seven players, for the cases that need one) is done first and not
//! timed, then the peak is reset (`/proc/self/clear_refs`) and the letter is handed in.
//!
//! - handling: `Daemon::accept`, the letter read, stored, handled, its answers composed and
//!   queued, all committed (for the poison letter, the first of its attempts);
//! - rounds: the rounds after it until the judge is quiet (the answers written to the sent
//!   Maildir; the poison letter's later attempts and its quarantine);
//! - answers: the letters it caused and their size as composed;
//! - peak: the highest resident memory while the letter was handled, and the resident memory
//!   before it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use chrono::{DateTime, Utc};
use rusqlite::Connection;
use strategos::config::Config;
use strategos::daemon::fault::{Fault, FaultKind};
use strategos::daemon::{Clock, Daemon, Inbox};
use strategos::judge::Judge;
use strategos::mail::send::MaildirTransport;
use strategos::report::Templates;
use strategos::store::Store;
use strategos::variant;

/// The cases, in the order they run: name, what the letter is.
const CASES: [(&str, &str); 11] = [
    ("help", "HELP: an ordinary letter, for comparison"),
    (
        "get-his-1500",
        "`GET his` 1,500 times (the help file of Here I Stand)",
    ),
    ("get-his-5000", "`GET his` 5,000 times"),
    ("wrong-signon", "10,000 SIGNON lines with a wrong password"),
    ("create", "1,000 CREATE lines from a proven address"),
    ("orders", "100,000 order lines after a SIGNON"),
    ("quoted", "3,000 lines quoted 1 to 150 deep, then a command"),
    ("quoted-html", "HTML only: 40,000 nested blockquotes"),
    (
        "long-line",
        "one line of 900,000 bytes (order-like words) after a SIGNON",
    ),
    ("long-word", "one word of 900,000 bytes"),
    (
        "poison",
        "a letter the judge panics on (injected fault), three attempts",
    ),
];

/// The letter sender of every case; the players of the game are p0..p6.
const SENDER: &str = "p0@example.test";

fn now() -> DateTime<Utc> {
    "2027-01-05T12:00:00Z".parse().unwrap()
}

fn letter(from: &str, id: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: bench\r\nMessage-ID: <{id}>\r\n\
         Date: Tue, 5 Jan 2027 12:00:00 +0000\r\n{headers}\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn plain(from: &str, id: &str, body: &str) -> Vec<u8> {
    letter(
        from,
        id,
        "Content-Type: text/plain; charset=utf-8\r\n",
        body,
    )
}

fn status_kb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .unwrap_or(f64::NAN)
}

fn daemon(dir: &Path) -> Daemon {
    let mut config = Config::default();
    config.judge.address = "judge@example.test".into();
    config.judge.keeper = "keeper@example.test".into();
    // One sender writes every letter here; the hourly limit is not what is measured.
    config.limits.letters_per_hour = 1_000_000;
    Daemon {
        judge: Judge {
            config,
            variants: variant::embedded().expect("built-in variants load"),
            templates: Templates::built_in(),
            last_position: Default::default(),
            pictures_ahead: Default::default(),
        },
        store: Store::open(&dir.join("judge.db")).expect("database opens"),
        inbox: Inbox::None,
        transport: Box::new(MaildirTransport::open(dir.join("sent")).expect("sent Maildir")),
        clock: Clock::Fixed(now()),
        watchdog: None,
        fault: None,
        archive_due: false,
    }
}

/// Rounds until the judge is quiet: nothing read or sent, no stored letter left unsettled.
fn quiet(judge: &mut Daemon) {
    for _ in 0..20 {
        let round = judge.round();
        let unsettled = judge
            .store
            .begin()
            .and_then(|tx| tx.unhandled_ids())
            .map_or(0, |ids| ids.len());
        if round.letters_in == 0 && round.letters_out == 0 && unsettled == 0 {
            return;
        }
    }
}

/// A standard game `bench` started with p0..p6 (addresses proven); returns p0's password and
/// the initial of its power.
fn game(judge: &mut Daemon) -> (String, char) {
    {
        let tx = judge.store.begin().unwrap();
        for p in 0..7 {
            tx.confirm_address(&format!("p{p}@example.test"), now())
                .unwrap();
        }
        tx.commit().unwrap();
    }
    judge.accept(
        &plain(SENDER, "c@bench", "CREATE ?bench pw0 standard\n"),
        "bench",
    );
    for p in 1..7 {
        let body = format!("SIGNON ?bench pw{p}\n");
        judge.accept(
            &plain(&format!("p{p}@example.test"), &format!("j{p}@bench"), &body),
            "bench",
        );
    }
    quiet(judge);
    let tx = judge.store.begin().unwrap();
    let game = tx.game_by_name("bench").unwrap().expect("the game exists");
    let power = tx
        .members(game.id)
        .unwrap()
        .into_iter()
        .find(|m| m.email == SENDER)
        .and_then(|m| m.power)
        .expect("the game started and p0 has a power");
    let initial = power.chars().next().unwrap().to_ascii_uppercase();
    ("pw0".to_string(), initial)
}

/// The letter of a case, after whatever set-up it needs.
fn prepare(case: &str, judge: &mut Daemon) -> Vec<u8> {
    match case {
        "help" => plain(SENDER, "x@bench", "HELP\n"),
        "get-his-1500" => plain(SENDER, "x@bench", &"GET his\n".repeat(1500)),
        "get-his-5000" => plain(SENDER, "x@bench", &"GET his\n".repeat(5000)),
        "wrong-signon" => {
            let (_, initial) = game(judge);
            let body = format!("SIGNON {initial}bench wrong\n").repeat(10_000);
            plain(SENDER, "x@bench", &body)
        }
        "create" => {
            let tx = judge.store.begin().unwrap();
            tx.confirm_address(SENDER, now()).unwrap();
            tx.commit().unwrap();
            let body: String = (0..1000)
                .map(|n| format!("CREATE ?g{n} pw{n} standard\n"))
                .collect();
            plain(SENDER, "x@bench", &body)
        }
        "orders" => {
            let (password, initial) = game(judge);
            let body = format!(
                "SIGNON {initial}bench {password}\n{}",
                "A Par H\n".repeat(100_000)
            );
            plain(SENDER, "x@bench", &body)
        }
        "quoted" => {
            let mut body = String::new();
            for n in 0..3000 {
                body.push_str(&"> ".repeat(1 + n % 150));
                body.push_str("you wrote: SIGNON Fgame secret\n");
            }
            body.push_str("LIST\n");
            plain(SENDER, "x@bench", &body)
        }
        "quoted-html" => {
            let html = format!(
                "<html><body>{}HELP{}</body></html>",
                "<blockquote>".repeat(40_000),
                "</blockquote>".repeat(40_000)
            );
            letter(
                SENDER,
                "x@bench",
                "Content-Type: text/html; charset=utf-8\r\n",
                &html,
            )
        }
        "long-line" => {
            let (password, initial) = game(judge);
            let line = "A Par - Bur ".repeat(75_000);
            plain(
                SENDER,
                "x@bench",
                &format!("SIGNON {initial}bench {password}\n{line}\n"),
            )
        }
        "long-word" => plain(
            SENDER,
            "x@bench",
            &format!("{}\nHELP\n", "x".repeat(900_000)),
        ),
        "poison" => {
            judge.fault = Some(Fault {
                kind: FaultKind::Panic,
                marker: "POISON-PILL".into(),
            });
            // The panic's message, three times, is what a panicking letter prints; not timed
            // apart from the handling.
            plain(SENDER, "x@bench", "HELP\nPOISON-PILL\n")
        }
        other => panic!("no case {other}"),
    }
}

/// Runs one case in this process and prints its figures on one line.
fn run_case(case: &str) {
    let dir = std::env::temp_dir().join(format!("strategos-hostile-{case}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut judge = daemon(&dir);
    let raw = prepare(case, &mut judge);
    let db = dir.join("judge.db");
    let count = |sql: &str| -> i64 {
        Connection::open(&db)
            .unwrap()
            .query_row(sql, [], |r| r.get(0))
            .unwrap()
    };
    let outbox_before = count("SELECT COALESCE(MAX(id), 0) FROM outbox");
    let base_mb = status_kb("VmRSS:") / 1024.0;
    // Resets the peak to the present resident size (Linux 4.0 and later).
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let started = Instant::now();
    let stored = judge.accept(&raw, "bench");
    let handling = started.elapsed().as_secs_f64() * 1000.0;
    let rounds_started = Instant::now();
    quiet(&mut judge);
    let rounds = rounds_started.elapsed().as_secs_f64() * 1000.0;
    let peak_mb = status_kb("VmHWM:") / 1024.0;
    let answers = count(&format!(
        "SELECT COUNT(*) FROM outbox WHERE id > {outbox_before}"
    ));
    // The answers as sent: an attachment is stored once and referred to (migration 7), so
    // each letter is read whole through the store.
    let answer_bytes: i64 = {
        let mut store = strategos::store::Store::open(&db).unwrap();
        let tx = store.begin().unwrap();
        let mut bytes = 0;
        for id in outbox_before + 1..=outbox_before + answers {
            if let Some(letter) = tx.outbox_letter(id).unwrap() {
                bytes += letter.raw.len() as i64;
            }
        }
        bytes
    };
    let (state, reason): (String, String) = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT state, COALESCE(reason, '') FROM messages WHERE header_message_id = 'x@bench'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap_or_else(|_| ("none".into(), String::new()));
    let reason: String = reason.chars().take(60).collect();
    println!(
        "figures\t{case}\t{}\t{handling:.0}\t{rounds:.0}\t{answers}\t{answer_bytes}\t{peak_mb:.0}\t{base_mb:.0}\t{}\t{state}{}",
        raw.len(),
        if reset { "letter" } else { "process" },
        if stored { "" } else { " (not new)" },
    );
    if !reason.is_empty() {
        println!("reason\t{reason}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    if let Ok(case) = std::env::var("STRATEGOS_HOSTILE_CASE") {
        run_case(&case);
        return;
    }
    let chosen: Option<Vec<String>> = std::env::var("STRATEGOS_HOSTILE_CASES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let me: PathBuf = std::env::current_exe().expect("the benchmark's own path");
    println!(
        "{:<13} {:>9} {:>11} {:>9} {:>7} {:>12} {:>8} {:>7}  state",
        "case", "letter B", "handling ms", "rounds ms", "answers", "answer B", "peak MB", "base MB"
    );
    for (case, what) in CASES {
        if chosen
            .as_ref()
            .is_some_and(|c| !c.iter().any(|x| x == case))
        {
            continue;
        }
        let output = Command::new(&me)
            .env("STRATEGOS_HOSTILE_CASE", case)
            .env("RUST_BACKTRACE", "0")
            .output()
            .expect("the case runs");
        let text = String::from_utf8_lossy(&output.stdout);
        let Some(line) = text.lines().find(|l| l.starts_with("figures\t")) else {
            println!(
                "{case:<13} the process ended without figures ({}): {what}",
                output.status
            );
            continue;
        };
        let f: Vec<&str> = line.split('\t').collect();
        let peak = if f[9] == "letter" {
            f[7].to_string()
        } else {
            format!("{}*", f[7])
        };
        println!(
            "{:<13} {:>9} {:>11} {:>9} {:>7} {:>12} {:>8} {:>7}  {}",
            f[1], f[2], f[3], f[4], f[5], f[6], peak, f[8], f[10]
        );
        if let Some(reason) = text.lines().find_map(|l| l.strip_prefix("reason\t")) {
            println!("{:<13} reason: {reason}", "");
        }
        println!("{:<13} ({what})", "");
    }
    println!(
        "peak MB: the highest resident memory while the letter was handled (* the whole process's)"
    );
}
