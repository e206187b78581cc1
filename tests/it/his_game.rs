//! A Here I Stand game by mail (`tests/data/flow/015-here-i-stand/`: a move with an
//! interception attempt, an avoid-battle attempt and a field battle, powers answering their
//! windows or letting the deadline pass), then every roll of it checked with
//! `strategos verify-dice` once the master ended the game and the seed was revealed; a
//! tampered roll is caught. And the mail side's one-way dependency: `src/judge/his/` reaches
//! the judge only through its `Desk`, never the letters (`letter.rs`) or phases (`phase.rs`)
//! that call it.

use std::process::{Command, Output};

use crate::flow::replay;
use crate::judge_harness::TempDir;
use crate::judge_harness::mail;

fn verify_dice(path: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strategos"))
        .args(["verify-dice", path.to_str().unwrap()])
        .output()
        .expect("the binary runs")
}

#[test]
fn every_roll_of_a_game_played_by_mail_verifies() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flow/015-here-i-stand");
    let (mut judge, transcript) = replay(&dir);
    assert!(
        transcript.contains("failure"),
        "an interception and an avoidance fail"
    );
    assert!(
        transcript.contains("wins the battle"),
        "a field battle is fought"
    );
    assert!(
        transcript.contains("deadline of window"),
        "a window closes on its deadline"
    );
    // The game's archive, as HISTORY sends it.
    judge.deliver_confirmed(
        "erin@example.test",
        &mail(
            "erin@example.test",
            "history",
            "his-history@x",
            "HISTORY wien\n",
        ),
    );
    let history = judge
        .take_sent()
        .into_iter()
        .map(|l| l.body)
        .find(|b| b.contains("Dice commitment"))
        .expect("the archive comes in a letter of its own");
    assert!(history.contains("Dice commitment"), "{history}");
    assert!(history.contains("Dice seed revealed"), "{history}");
    let rolls = history
        .lines()
        .filter(|l| l.trim_start().starts_with("Roll "))
        .count();
    assert!(rolls >= 4, "{rolls} rolls in {history}");
    // GET MAP mails the picture of the board.
    judge.deliver_confirmed(
        "erin@example.test",
        &mail("erin@example.test", "map", "his-map@x", "GET MAP wien\n"),
    );
    let raw = judge.take_sent_raw();
    assert_eq!(raw.len(), 1);
    let text = String::from_utf8_lossy(&raw[0]);
    assert!(text.contains("Content-Type: multipart/mixed"), "{text}");
    assert!(text.contains("filename=\"map.png\""), "{text}");
    let files = TempDir::new("his-dice");
    // The web archive takes the game too, and verify-dice reads the game's page.
    let site = files.0.join("site");
    {
        let tx = judge.daemon.store.begin().unwrap();
        strategos::archive::write_site(&tx, &judge.daemon.judge.variants, &site).unwrap();
    }
    let good = files.0.join("history.txt");
    std::fs::write(&good, &history).unwrap();
    let out = verify_dice(&good);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains(&format!("{rolls} rolls verified")), "{said}");
    let page = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("a folder for the game");
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(
        html.matches("<figure class=\"map\">").count() == 1,
        "the board as it stands is on the page"
    );
    let out = verify_dice(&page);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    // One die changed in the archive: caught, with its roll number.
    let line = history
        .lines()
        .find(|l| l.trim_start().starts_with("Roll 2 "))
        .expect("roll 2 is in the archive");
    let last = line.chars().last().unwrap();
    let changed = format!(
        "{}{}",
        &line[..line.len() - 1],
        if last == '6' { '1' } else { '6' }
    );
    let bad = files.0.join("tampered.txt");
    std::fs::write(&bad, history.replace(line, &changed)).unwrap();
    let out = verify_dice(&bad);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.to_lowercase().contains("roll 2"), "{said}");
}

/// The archive kept in Russian (the game's language) verifies as well: the roll, commitment and
/// reveal lines are the same in every language.
#[test]
fn an_archive_kept_in_russian_verifies() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/flow/016-here-i-stand-ru");
    let (_judge, transcript) = replay(&dir);
    let history = transcript
        .split("----\n")
        .find(|letter| letter.contains("Subject: STRA:wien - History"))
        .expect("flow 016 ends with the game's history");
    assert!(history.contains("Движение окончено"), "{history}");
    let files = TempDir::new("his-dice-ru");
    let path = files.0.join("history.txt");
    std::fs::write(&path, history).unwrap();
    let out = verify_dice(&path);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("4 rolls verified"), "{said}");
}

fn at(text: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&chrono::Utc)
}

/// A paused game keeps its window open past the deadline; RESUME gives the window a whole
/// deadline again.
#[test]
fn a_paused_window_waits_and_resume_gives_it_a_new_deadline() {
    let mut judge = crate::judge_harness::Harness::new("his-pause");
    judge.set_time(at("2027-01-05T09:00:00Z"));
    let master = |body: &str, id: &str| mail("gina@example.test", "m", id, body);
    judge.deliver_confirmed(
        "gina@example.test",
        &master("CREATE ?pause gmpw his\n", "p1@x"),
    );
    judge.deliver_confirmed("gina@example.test", &master(
        "SIGNON ?pause gmpw\nwar ottoman hapsburg\ncontrol pressburg ottoman\nimpulse ottoman 3\n\
         place pressburg ottoman 4 regulars\nplace vienna hapsburg 2 regulars\n",
        "p2@x",
    ));
    judge.deliver_confirmed(
        "olga@example.test",
        &mail("olga@example.test", "o", "p3@x", "SIGNON Opause olgapw\n"),
    );
    judge.deliver_confirmed(
        "olga@example.test",
        &mail(
            "olga@example.test",
            "move",
            "p4@x",
            "SIGNON Opause olgapw\nMOVE 4 regulars FROM Pressburg TO Vienna\n",
        ),
    );
    let sent = judge.take_sent();
    assert!(
        sent.iter().any(|l| l.body.contains("Now: window 1")),
        "{sent:?}"
    );
    judge.deliver_confirmed(
        "gina@example.test",
        &master("SIGNON ?pause gmpw\nPAUSE\n", "p5@x"),
    );
    judge.take_sent();
    // Two days on: the window is still open.
    judge.tick(at("2027-01-07T09:00:00Z"));
    assert!(judge.take_sent().is_empty(), "nothing happens while paused");
    judge.set_time(at("2027-01-07T10:00:00Z"));
    judge.deliver_confirmed(
        "gina@example.test",
        &master("SIGNON ?pause gmpw\nRESUME\n", "p6@x"),
    );
    let sent = judge.take_sent();
    assert!(
        sent[0].body.contains("Fri 08 Jan 2027 10:00"),
        "{}",
        sent[0].body
    );
    judge.tick(at("2027-01-08T09:00:00Z"));
    let early = judge.take_sent();
    assert!(early.is_empty(), "the new deadline has not come: {early:?}");
    judge.tick(at("2027-01-08T10:01:00Z"));
    let sent = judge.take_sent();
    assert!(
        sent.iter()
            .any(|l| l.body.contains("The deadline of window 1 passed")),
        "{sent:?}"
    );
}

/// `src/judge/his/` uses of the judge around it are only its settings and `deadline_of`; the
/// session, the letters, the phases and the other command files call it (through
/// `judge/commands/his.rs`), never the other way round.
#[test]
fn the_mail_side_of_here_i_stand_depends_one_way() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/judge/his");
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            // Of the judge, only a game's deadline as letters write it.
            for (at, _) in line.match_indices("crate::judge::") {
                let used: String = line[at + "crate::judge::".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if used != "deadline_of" {
                    problems.push(format!(
                        "src/judge/his/{name}:{}: uses judge::{used}",
                        i + 1
                    ));
                }
            }
            for word in ["super::", "Session", "Judge"] {
                if line.contains(word) && !line.trim_start().starts_with("use super::*") {
                    problems.push(format!("src/judge/his/{name}:{}: names {word}", i + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
