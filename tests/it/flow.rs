//! Mail exchanges as data: each folder of `tests/data/flow/` holds steps, run in name order:
//! `NN-name.eml` is a letter handed to the judge at the time of its `Date:` header,
//! `NN-name.tick` holds a time (RFC 3339) the judge is woken at, and `NN-name.confirm` holds an
//! address that sends back, at the time of the step before, the `CONFIRM <token>` line last
//! mailed to it (tokens are the same in every run, the test key being fixed). Every letter the judge sends
//! is written into the transcript, which must equal the folder's `expected.txt`.
//! A mismatch writes `expected.txt.failed` beside it; `UPDATE_EXPECT=1` rewrites the file.

use std::path::Path;

use chrono::{DateTime, Utc};

use crate::judge_harness::Harness;

fn transcript(letters: &[strategos::letter::IncomingLetter]) -> String {
    let mut out = String::new();
    for letter in letters {
        let to: Vec<&str> = letter.to.iter().map(|a| a.email.as_str()).collect();
        out.push_str(&format!(
            "To: {}\nSubject: {}\n\n{}",
            to.join(", "),
            letter.subject,
            letter.body
        ));
        if !letter.body.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("----\n");
    }
    out
}

fn date_of(raw: &str) -> DateTime<Utc> {
    let line = raw
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("date:"))
        .expect("a step letter has a Date header");
    DateTime::parse_from_rfc2822(line[5..].trim())
        .expect("an RFC 2822 date")
        .with_timezone(&Utc)
}

/// Plays the letters and ticks of a flow folder through a fresh judge; returns the judge and
/// the transcript of every letter it sent.
pub fn replay(dir: &Path) -> (Harness, String) {
    let mut steps: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    steps.sort();
    let mut judge = if dir.join("defaults").exists() {
        Harness::with_config("flow", crate::judge_harness::test_config_with_defaults())
    } else {
        Harness::new("flow")
    };
    let mut out = String::new();
    for step in steps {
        let name = step.file_name().unwrap().to_string_lossy().into_owned();
        match step.extension().and_then(|x| x.to_str()) {
            Some("eml") => {
                let raw = std::fs::read(&step).unwrap();
                judge.set_time(date_of(&String::from_utf8_lossy(&raw)));
                judge.deliver(&raw);
            }
            Some("confirm") => {
                let address = std::fs::read_to_string(&step).unwrap();
                judge.confirm(address.trim());
            }
            Some("tick") => {
                let text = std::fs::read_to_string(&step).unwrap();
                let time = DateTime::parse_from_rfc3339(text.trim())
                    .expect("a tick holds an RFC 3339 time");
                judge.tick(time.with_timezone(&Utc));
            }
            _ => continue,
        }
        out.push_str(&format!("==== {name}\n"));
        out.push_str(&transcript(&judge.take_sent()));
    }
    (judge, out)
}

fn run_case(dir: &Path) -> Result<(), String> {
    let (_, out) = replay(dir);
    let expected_path = dir.join("expected.txt");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected == out {
        return Ok(());
    }
    if std::env::var("UPDATE_EXPECT").as_deref() == Ok("1") {
        std::fs::write(&expected_path, &out).unwrap();
        return Ok(());
    }
    std::fs::write(dir.join("expected.txt.failed"), &out).unwrap();
    Err(format!(
        "{}: the letters differ from expected.txt; see expected.txt.failed",
        dir.display()
    ))
}

#[test]
fn mail_exchanges() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flow");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "only {} flow cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(|c| run_case(c).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
