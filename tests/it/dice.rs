//! `strategos verify-dice` run as a program on archives made here: a game's reports as
//! HISTORY sends them and as the web archive writes them, good, tampered and not yet revealed.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use chrono::{DateTime, Utc};
use strategos::archive::write_site;
use strategos::dice::{Dice, Seed, reveal_line};
use strategos::store::Store;

use crate::judge_harness::TempDir;

fn verify_dice(archive: &str, stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_strategos"))
        .args(["verify-dice", archive])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn seed() -> Seed {
    Seed::from_bytes(*b"a secret of thirty-two bytes!!!!")
}

/// The reports of game `vienna` as `(title, text)`: the commitment first, then a move with
/// an interception, an avoid-battle attempt and a field battle, then the reveal.
fn reports(revealed: bool) -> Vec<(String, String)> {
    let mut dice = Dice::new(seed(), "vienna");
    let mut reports = vec![(
        "Game vienna starts".to_string(),
        format!(
            "The 1517 scenario is set up.\n\n{}\n",
            dice.commitment_line()
        ),
    )];
    let mut text = String::from("Hapsburg moves 4 regulars and Charles V from Graz to Vienna.\n");
    let mut add = |what: &str, n: usize, modifiers: &[&str], text: &mut String| {
        let roll = dice.roll(what, n, modifiers).unwrap();
        text.push_str(&roll.line());
        text.push('\n');
    };
    add(
        "Ottoman interception from Buda to Vienna",
        2,
        &["+1 Suleiman"],
        &mut text,
    );
    add(
        "Ottoman interception from Pressburg to Vienna",
        2,
        &[],
        &mut text,
    );
    add("French avoid battle from Vienna to Linz", 2, &[], &mut text);
    reports.push(("Turn 1, impulse 2: Hapsburg moves".to_string(), text));
    let mut text = String::from("Field battle at Vienna.\n");
    add(
        "Hapsburg field battle at Vienna",
        6,
        &["+2 Charles V (battle rating)"],
        &mut text,
    );
    add(
        "Ottoman field battle at Vienna",
        5,
        &["+1 defender"],
        &mut text,
    );
    add(
        "Odd loss between allies: Hapsburg on 1-3",
        1,
        &[],
        &mut text,
    );
    add(
        "French avoid battle from Linz to Salzburg",
        2,
        &[],
        &mut text,
    );
    reports.push(("Turn 1, impulse 2: battle".to_string(), text));
    if revealed {
        reports.push((
            "Game vienna ends".to_string(),
            format!("The game is over.\n\n{}\n", dice.reveal_line()),
        ));
    }
    reports
}

/// The reports as HISTORY's letter puts them.
fn history(reports: &[(String, String)]) -> String {
    let mut body = format!("The archive of game vienna: {} reports.\n", reports.len());
    for (title, text) in reports {
        body.push_str(&format!("\n======== {title} (2027-01-05 12:00)\n\n{text}"));
    }
    body
}

/// The archive text written to a file, and the command run on it.
fn verify_text(text: &str) -> (Output, String) {
    let dir = TempDir::new("dice");
    let file = dir.0.join("vienna.txt");
    std::fs::write(&file, text).unwrap();
    let out = verify_dice(file.to_str().unwrap(), None);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The archive's text with its first line that contains `find` changed by `change`.
fn tampered(find: &str, change: impl Fn(&str) -> String) -> String {
    let text = history(&reports(true));
    let mut done = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if !done && line.contains(find) {
                done = true;
                change(line)
            } else {
                line.to_string()
            }
        })
        .collect();
    assert!(done, "no line with {find}");
    lines.join("\n")
}

#[test]
fn a_good_archive_is_verified() {
    let (out, stdout) = verify_text(&history(&reports(true)));
    assert_exit(&out, 0);
    assert_eq!(
        stdout,
        "7 rolls verified (game vienna): the seed matches its commitment and gives every die.\n"
    );
    // The same from standard input.
    let out = verify_dice("-", Some(&history(&reports(true))));
    assert_exit(&out, 0);
}

#[test]
fn the_web_archive_is_read() {
    let dir = TempDir::new("dice-site");
    let mut store = Store::in_memory().unwrap();
    let tx = store.begin().unwrap();
    let now: DateTime<Utc> = "2027-01-05T12:00:00Z".parse().unwrap();
    let master = tx
        .register_player("master@example.test", Some("Master"), None, now)
        .unwrap();
    let game = tx
        .create_game("vienna", "his", master.id, "UTC", [12, 12, 12, 12], now)
        .unwrap();
    for (i, (title, text)) in reports(true).iter().enumerate() {
        tx.archive(game.id, i as i64, title, text, now).unwrap();
    }
    let site = dir.0.join("site");
    write_site(&tx, &[], &site).unwrap();
    let page = site.join("vienna");
    let out = verify_dice(page.to_str().unwrap(), None);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("7 rolls verified"));
    let out = verify_dice(page.join("index.html").to_str().unwrap(), None);
    assert_exit(&out, 0);
    // The index of every game is not one game's archive.
    let out = verify_dice(site.to_str().unwrap(), None);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("index of games"));
}

#[test]
fn a_changed_die_is_found() {
    let text = tampered("Ottoman field battle", |line| {
        let (head, faces) = line.rsplit_once("): ").unwrap();
        let last = faces.rsplit(' ').next().unwrap();
        let other = if last == "6" { "5" } else { "6" };
        format!("{head}): {}{other}", &faces[..faces.len() - last.len()])
    });
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(
        stdout
            .starts_with("Roll 5 (Ottoman field battle at Vienna: 5 dice, +1 defender): written "),
        "{stdout}"
    );
    assert!(stdout.contains("but the seed gives"), "{stdout}");
    assert!(
        stdout.ends_with("1 problem found (game vienna); 6 of 7 rolls verified.\n"),
        "{stdout}"
    );
}

#[test]
fn a_changed_purpose_is_found() {
    // The die's meaning changed after the roll: the odd loss now falls on 4-6.
    let text = tampered("Odd loss", |line| line.replace("on 1-3", "on 4-6"));
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(
        stdout.starts_with("Roll 6 (Odd loss between allies: Hapsburg on 4-6: 1 die): written "),
        "{stdout}"
    );
}

#[test]
fn a_skipped_or_repeated_roll_number_is_found() {
    // Roll 3 left out of the reports.
    let text = tampered("Roll 3 ", |_| String::new());
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(stdout.starts_with("Roll 3 is missing.\n"), "{stdout}");

    // Roll 2 made a second time (another purpose, another result) and announced.
    let text = tampered("Roll 2 ", |line| {
        format!("{line}\n{}", line.replace("Pressburg", "Belgrade"))
    });
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(stdout.starts_with("Roll 2 appears twice: "), "{stdout}");

    // Roll 4 renumbered 5: 4 is missing and 5 is used twice.
    let text = tampered("Roll 4 ", |line| line.replacen("Roll 4 ", "Roll 5 ", 1));
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(stdout.contains("Roll 5 appears twice"), "{stdout}");
    assert!(stdout.contains("Roll 4 is missing."), "{stdout}");
}

#[test]
fn a_wrong_seed_is_found() {
    let other = Seed::from_bytes([7; 32]);
    let text = tampered("Dice seed revealed", |_| reveal_line("vienna", &other));
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(
        stdout.starts_with("The revealed seed is not the one committed to: its SHA-256 is "),
        "{stdout}"
    );
    assert!(stdout.ends_with("0 of 7 rolls verified.\n"), "{stdout}");
}

#[test]
fn before_the_reveal_the_dice_cannot_be_checked() {
    let (out, stdout) = verify_text(&history(&reports(false)));
    assert_exit(&out, 3);
    assert_eq!(
        stdout,
        "The seed of game vienna is not revealed yet: 7 rolls, numbered from 1 with none \
         missing or repeated, can be checked once it is.\n"
    );
    // A gap is a problem even before the reveal.
    let text = history(&reports(false)).replace("Roll 7 ", "Roll 8 ");
    let (out, stdout) = verify_text(&text);
    assert_exit(&out, 1);
    assert!(stdout.starts_with("Roll 7 is missing."), "{stdout}");
}

#[test]
fn unreadable_archives_exit_2() {
    let out = verify_dice("tests/data/no-such-archive.txt", None);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let (out, _) = verify_text("A Diplomacy game's reports: no dice here.\n");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("No dice lines found"));
    let dir = TempDir::new("dice-bytes");
    let file = dir.0.join("binary");
    std::fs::write(&file, [0xff, 0xfe, 0x00]).unwrap();
    assert_exit(&verify_dice(file.to_str().unwrap(), None), 2);
}
