//! The crash harness: the judge runs as a real process on a Maildir inbox and is killed with
//! SIGKILL at random moments, again and again, while letters keep arriving and deadlines
//! pass. Afterwards every letter was handled exactly once and answered, every phase was
//! processed once and none skipped, every letter due went out (a duplicate only ever with
//! the same Message-ID), and the database is intact.

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
             [limits]\nletters_per_hour = 100000\n",
            root.display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
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
