//! Replies and forwards as the common mail clients write them (`tests/data/replies/*.eml`):
//! only the sender's own words are read for commands, never the original a reply reproduces,
//! quoted or not, plain or HTML. Each `NAME.eml` is checked against `NAME.expect`: `command:
//! <the command as the judge echoes it>` lines, the whole list in order (orders as `orders`
//! and their lines that are not blank joined by ` / `), or `commands: none`; `#` starts a comment.

use std::fs;
use std::path::{Path, PathBuf};

use strategos::mail::read::read_letter;
use strategos::text::command::{CommandKind, parse_commands, render};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replies");
    let mut cases: Vec<PathBuf> = fs::read_dir(dir)
        .expect("tests/data/replies is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    cases.sort();
    cases
}

/// The commands of `body` as the judge echoes them.
fn read(body: &str) -> Vec<String> {
    let (commands, _) = parse_commands(body);
    commands
        .iter()
        .map(|c| match &c.kind {
            CommandKind::Orders { text } => {
                let lines: Vec<&str> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                format!("orders {}", lines.join(" / "))
            }
            _ => render(c),
        })
        .collect()
}

fn expected(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path.with_extension("expect"))
        .unwrap_or_else(|_| panic!("{} has no .expect beside it", path.display()));
    let mut commands = Vec::new();
    let mut none = false;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(':') {
            Some(("command", value)) => commands.push(value.trim().to_string()),
            Some(("commands", value)) if value.trim() == "none" => none = true,
            _ => panic!(
                "{}: a line this test does not know: {line:?}",
                path.display()
            ),
        }
    }
    assert!(
        none == commands.is_empty(),
        "{}: give `commands: none` or `command:` lines",
        path.display()
    );
    commands
}

#[test]
fn only_the_senders_own_words_are_read_in_every_clients_replies_and_forwards() {
    let cases = cases();
    assert!(cases.len() >= 20, "the replies of every common client");
    let mut failures = Vec::new();
    for path in &cases {
        let raw = fs::read(path).expect("a reply is readable");
        let letter = read_letter(&raw, &["judge@example.test".to_string()])
            .unwrap_or_else(|e| panic!("{}: unreadable: {e:?}", path.display()));
        assert!(letter.automatic.is_none(), "{}", path.display());
        let got = read(&letter.body);
        let want = expected(path);
        if got != want {
            failures.push(format!(
                "{}: read {got:?}, expected {want:?}\nbody as read:\n{}",
                path.display(),
                letter.body
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
