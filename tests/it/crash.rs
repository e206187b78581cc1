//! The crash harness: the judge runs as a real process on a Maildir inbox and is killed with
//! SIGKILL at random moments, again and again, while letters keep arriving and deadlines
//! pass. Afterwards every letter was handled exactly once and answered, every phase was
//! processed once and none skipped, every letter due went out (a duplicate only ever with
//! the same Message-ID), and the database is intact.
//!
//! Poison letters: a letter that kills the process each time it is handled, or stalls it
//! until the watchdog ends it (faults injected through `STRATEGOS_FAULT`, which only a debug
//! build reads), is set aside after three starts, and the letters behind it are answered.

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Stdio};
use std::time::Duration;

use chrono::{DateTime, Duration as Span, Utc};
use strategos::mail::maildir::Maildir;
use strategos::mail::read::read_letter;
use strategos::store::Store;

use crate::judge_harness::TempDir;

/// A small repeatable generator.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn letter(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: play\r\nMessage-ID: <{id}>\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The time the harness starts at.
fn now0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2027-01-04T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// `strategos run` on the harness's configuration at `now`, silent; `once`: to the end.
fn judge(config: &std::path::Path, now: DateTime<Utc>, once: bool) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_strategos"));
    command.args(["--config", config.to_str().unwrap(), "run"]);
    if once {
        command.arg("--once");
    }
    command
        .args(["--now", &now.to_rfc3339()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

#[test]
fn the_judge_survives_being_killed_again_and_again() {
    let dir = TempDir::new("crash");
    let root = &dir.0;
    let config = root.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@example.test\"\nkeeper = \"keeper@example.test\"\n\
             [paths]\ndatabase = \"{0}/judge.db\"\nvariants = \"{1}/tests/data/variants\"\n\
             [inbox]\nmaildir = \"{0}/inbox\"\npoll_seconds = 1\n[outbox]\nmaildir = \"{0}/sent\"\n\
             [limits]\nletters_per_hour = 100000\nhandling_attempts = 1000\n",
            root.display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    // Kills here fall at random, so one may land in the same letter's handling again and
    // again on a slow machine; this test is about losing nothing, so a letter is never set
    // aside for its attempts (`poison_*` below test that).
    let inbox = Maildir::open(root.join("inbox")).unwrap();
    // The players' addresses are taken as proven (as if each had confirmed once): this test
    // is about crashes, and a token comes back only after the judge has answered.
    {
        let mut store = Store::open(&root.join("judge.db")).unwrap();
        let tx = store.begin().unwrap();
        for g in ["ca", "cb", "cc"] {
            for who in ["n", "s"] {
                let address = format!("{who}.{g}@example.test");
                tx.confirm_address(&address, now0()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    // Three two-power games; the first player of each prefers North.
    let games = ["ca", "cb", "cc"];
    let mut script: Vec<(String, String)> = Vec::new();
    for g in games {
        script.push((
            format!("n.{g}@example.test"),
            format!("CREATE ?{g} npw tiny\nSET PREFERENCE N\n"),
        ));
        script.push((format!("s.{g}@example.test"), format!("SIGNON ?{g} spw\n")));
    }
    for round in 0..12 {
        for g in games {
            script.push((
                format!("n.{g}@example.test"),
                format!("SIGNON N{g} npw\nF Nor H\nLIST {g}\n"),
            ));
            if round % 3 != 2 {
                script.push((
                    format!("s.{g}@example.test"),
                    format!("SIGNON S{g} spw\nA Sou H\n"),
                ));
            }
        }
    }
    let mut dice = Dice(0x5eed_cafe);
    let mut now: DateTime<Utc> = DateTime::parse_from_rfc3339("2027-01-04T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let mut delivered = Vec::new();
    let mut next = 0;
    let mut kills = 0;
    let mut runs_to_end = 0;
    while kills < 60 {
        // A few letters arrive, then the judge runs for a moment and is killed.
        for _ in 0..(1 + dice.below(3)) {
            if let Some((from, body)) = script.get(next) {
                let id = format!("crash-{next}@example.test");
                inbox.deliver(&letter(from, &id, body)).unwrap();
                delivered.push(id);
                next += 1;
            }
        }
        now += Span::hours(7 + dice.below(10) as i64);
        // Every sixth run goes to the end, so the games move on however slow the machine
        // (a loaded machine may be killed before it does anything in the others).
        if kills % 6 == 5 && runs_to_end < kills / 6 {
            runs_to_end += 1;
            let status = judge(&config, now, true).status().unwrap();
            assert!(status.success());
            continue;
        }
        let mut child = judge(&config, now, false).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(5 + dice.below(120)));
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
    }
    // The rest of the letters, then the judge runs to the end (twice: the second finds nothing).
    while let Some((from, body)) = script.get(next) {
        let id = format!("crash-{next}@example.test");
        inbox.deliver(&letter(from, &id, body)).unwrap();
        delivered.push(id);
        next += 1;
    }
    for _ in 0..2 {
        now += Span::hours(1);
        let status = judge(&config, now, true).status().unwrap();
        assert!(status.success());
    }
    let mut checks = 0;

    // Every letter is in the database once, handled.
    let mut store = Store::open(&root.join("judge.db")).unwrap();
    assert!(store.is_intact().unwrap(), "PRAGMA integrity_check");
    checks += 1;
    let tx = store.begin().unwrap();
    assert!(
        tx.unhandled_messages().unwrap().is_empty(),
        "every stored letter was handled"
    );
    checks += 1;
    for id in &delivered {
        assert!(tx.has_message(id).unwrap(), "{id} was stored");
        checks += 1;
    }
    assert!(
        inbox.pending().unwrap().is_empty(),
        "the inbox is empty: every message was marked after it was stored"
    );
    checks += 1;
    let (pending, sent, failed) = tx.outbox_counts().unwrap();
    assert_eq!((pending, failed), (0, 0), "every letter due went out");
    checks += 1;

    // Every letter in the sent Maildir is a letter of the outbox; a repeat has the same id.
    let sent_box = Maildir::open(root.join("sent")).unwrap();
    let mut copies: BTreeMap<String, usize> = BTreeMap::new();
    let mut answered: BTreeSet<String> = BTreeSet::new();
    for message in sent_box.pending().unwrap() {
        let raw = sent_box.read(&message).unwrap();
        let letter = read_letter(&raw, &[]).unwrap();
        *copies.entry(letter.message_id.clone()).or_default() += 1;
        answered.extend(letter.references.iter().cloned());
    }
    assert_eq!(
        copies.len() as i64,
        sent,
        "the sent folder holds each letter of the outbox"
    );
    checks += 1;
    let repeats = copies.values().filter(|n| **n > 1).count();
    assert!(
        repeats <= kills,
        "at most one letter in flight repeats per kill"
    );
    checks += 1;
    // Every letter was answered, unless its answer repeated one already sent for a letter
    // in which nothing was done (an order in the wrong phase...): those back off, and the
    // letter says so.
    for id in &delivered {
        let held_back = tx.stored_messages(id).unwrap().iter().any(|m| {
            m.reason
                .as_deref()
                .is_some_and(|r| r.contains("identical answer"))
        });
        assert!(answered.contains(id) != held_back, "{id} was answered");
        checks += 1;
    }

    // No phase processed twice or skipped: each game's history runs 0, 1, 2... and each
    // phase's results are in its archive once.
    for g in games {
        let game = tx.game_by_name(g).unwrap().unwrap();
        let phases: Vec<i64> = tx
            .phases(game.id)
            .unwrap()
            .iter()
            .map(|p| p.phase_serial)
            .collect();
        assert_eq!(
            phases,
            (0..phases.len() as i64).collect::<Vec<_>>(),
            "{g}: phases in order, none missing"
        );
        assert!(
            phases.len() > 3,
            "{g}: the game moved on ({} phases)",
            phases.len()
        );
        let results: Vec<String> = tx
            .reports(game.id)
            .unwrap()
            .into_iter()
            .map(|r| r.1)
            .filter(|t| t.ends_with(" Results"))
            .collect();
        let unique: BTreeSet<&String> = results.iter().collect();
        assert_eq!(
            unique.len(),
            results.len(),
            "{g}: each phase's results once: {results:?}"
        );
        assert_eq!(
            results.len() as i64,
            game.phase_serial,
            "{g}: one report per processed phase"
        );
        checks += 4;
    }
    let _ = writeln_report(kills, checks, delivered.len(), repeats);
}

/// The harness reports its count of kills and checks (visible with `--nocapture`, and in CI).
fn writeln_report(
    kills: usize,
    checks: usize,
    letters: usize,
    repeats: usize,
) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(
        std::io::stderr(),
        "crash harness: {kills} kills, {letters} letters, {checks} checks passed, {repeats} letters sent twice (same Message-ID)"
    )
}

/// A judge on a Maildir inbox in `root`, with `limits` added to its configuration; returns
/// the configuration file.
fn poison_config(root: &std::path::Path, limits: &str) -> std::path::PathBuf {
    let config = root.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@example.test\"\nkeeper = \"keeper@example.test\"\n\
             [paths]\ndatabase = \"{0}/judge.db\"\n\
             [inbox]\nmaildir = \"{0}/inbox\"\n[outbox]\nmaildir = \"{0}/sent\"\n\
             [limits]\n{limits}\n",
            root.display(),
        ),
    )
    .unwrap();
    config
}

/// Puts the poison letter (from alice) and two plain ones behind it (bob, carol) in the inbox.
fn poison_letters(root: &std::path::Path) {
    let inbox = Maildir::open(root.join("inbox")).unwrap();
    for (from, id, body) in [
        ("alice@example.test", "poison@x", "HELP\nPOISON-PILL\n"),
        ("bob@example.test", "after1@x", "HELP\n"),
        ("carol@example.test", "after2@x", "LIST\n"),
    ] {
        inbox.deliver(&letter(from, id, body)).unwrap();
    }
}

/// Runs `strategos run --once` with the fault `fault` until it ends well (at most `most`
/// times); returns each run's exit status.
fn run_until_done(
    config: &std::path::Path,
    fault: &str,
    most: usize,
) -> Vec<std::process::ExitStatus> {
    let mut statuses = Vec::new();
    while statuses.len() < most {
        let status = judge(config, now0(), true)
            .env(strategos::daemon::fault::FAULT_VARIABLE, fault)
            .status()
            .unwrap();
        statuses.push(status);
        if status.success() {
            break;
        }
    }
    statuses
}

/// After the runs: the poison letter quarantined with `reason` in its reason after three
/// attempts, kept whole, its sender answered once; the two letters behind it answered; the
/// inbox empty.
fn check_set_aside(root: &std::path::Path, reason: &str) {
    let mut store = Store::open(&root.join("judge.db")).unwrap();
    assert!(store.is_intact().unwrap());
    let tx = store.begin().unwrap();
    let stored = tx.stored_messages("poison@x").unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].state, "quarantined");
    assert_eq!(stored[0].attempts, 3);
    assert_eq!(stored[0].raw_state, "whole");
    let why = stored[0].reason.clone().unwrap_or_default();
    assert!(why.contains("did not finish in 3 attempt(s)"), "{why}");
    assert!(why.contains(reason), "{why}");
    assert!(tx.unhandled_messages().unwrap().is_empty());
    let inbox = Maildir::open(root.join("inbox")).unwrap();
    assert!(inbox.pending().unwrap().is_empty(), "the inbox is empty");
    let sent = Maildir::open(root.join("sent")).unwrap();
    let mut answered: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for message in sent.pending().unwrap() {
        let read = read_letter(&sent.read(&message).unwrap(), &[]).unwrap();
        answered
            .entry(read.references.first().cloned().unwrap_or_default())
            .or_default()
            .push(read.body);
    }
    assert_eq!(
        answered.keys().collect::<Vec<_>>(),
        ["after1@x", "after2@x", "poison@x"],
        "every letter answered"
    );
    assert!(
        answered.values().all(|bodies| bodies.len() == 1),
        "once each"
    );
    assert!(crate::says(&answered["poison@x"][0], "broke off 3 times"));
}

/// A letter on which the judge process dies (an injected `abort`, as under SIGKILL or the
/// kernel's OOM killer) kills each of the next two starts too; the fourth start sets it aside
/// and answers the letters behind it. A release build ignores the fault variable.
#[test]
fn poison_that_kills_the_judge_is_set_aside_after_three_starts() {
    let dir = TempDir::new("poison-kill");
    let config = poison_config(&dir.0, "");
    poison_letters(&dir.0);
    let statuses = run_until_done(&config, "kill:POISON-PILL", 6);
    if !cfg!(debug_assertions) {
        assert!(
            statuses[0].success(),
            "a release build ignores STRATEGOS_FAULT"
        );
        return;
    }
    assert_eq!(statuses.len(), 4, "{statuses:?}");
    assert!(
        statuses[..3]
            .iter()
            .all(|s| !s.success() && s.code().is_none()),
        "{statuses:?}"
    );
    check_set_aside(&dir.0, "at each the judge stopped during it");
}

/// A letter on which the judge stalls is ended by the watchdog (`limits.letter_seconds`,
/// exit status 75) three times; the fourth start sets it aside and answers the others.
#[test]
fn poison_that_stalls_the_judge_is_ended_by_the_watchdog_and_set_aside() {
    let dir = TempDir::new("poison-stall");
    let config = poison_config(&dir.0, "letter_seconds = 1");
    poison_letters(&dir.0);
    let statuses = run_until_done(&config, "stall:POISON-PILL", 6);
    if !cfg!(debug_assertions) {
        assert!(
            statuses[0].success(),
            "a release build ignores STRATEGOS_FAULT"
        );
        return;
    }
    assert_eq!(statuses.len(), 4, "{statuses:?}");
    let watchdog = Some(strategos::daemon::watchdog::WATCHDOG_EXIT);
    assert!(
        statuses[..3].iter().all(|s| s.code() == watchdog),
        "{statuses:?}"
    );
    check_set_aside(&dir.0, "at each the judge stopped during it");
}
