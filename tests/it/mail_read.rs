//! Reading and writing mail: every `tests/data/mail/NAME.eml` read and checked against
//! `NAME.expect`, hostile messages (deep nesting, huge bodies, mutations) read without a
//! panic; `compose` (in `mail_read/compose.rs`): composed letters read back, free of injected
//! headers and marked automatic.
//!
//! An `.expect` file holds `key: value` lines (`#` starts a comment). In values, `\n`, `\r`,
//! `\t`, `\0` and `\\` are escapes. Keys:
//! `subject`, `from` (an email, or `none`), `from-name`, `reply-to`, `to` (repeatable: each
//! must be a recipient), `message-id`, `message-id-starts`, `message-id-ends`, `references`
//! (repeatable, in order: the whole list), `body-contains` and `body-lacks` (repeatable),
//! `body-empty: yes`, `automatic` (a substring of the reason, or `none`), `from-refused` (a
//! substring of the From header whose address cannot be used, or `none`), `warning-contains`
//! (repeatable), `warnings: none`, `unreadable` (a substring of the reason).
//! The judge's own addresses are [`OWN`] for every case.

use std::fs;
use std::path::{Path, PathBuf};

use strategos::letter::IncomingLetter;
use strategos::mail::read::{READER_FAILED, read_letter};

mod compose;
mod replies;

const OWN: &str = "judge@example.test";

fn own() -> Vec<String> {
    vec![OWN.to_string()]
}

fn mail_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mail")
}

/// The `.eml` cases, sorted by name.
fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(mail_dir())
        .expect("tests/data/mail is readable")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "eml"))
        .collect();
    cases.sort();
    cases
}

fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn expectations(path: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (key, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("{}: no `key:` in {line:?}", path.display()));
            (key.trim().to_string(), unescape(value.trim()))
        })
        .collect()
}

/// The problems of one letter against its expectations, one sentence each.
fn check(letter: &IncomingLetter, expected: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut fail = |what: String| problems.push(what);
    let refs: Vec<&String> = expected
        .iter()
        .filter(|(k, _)| k == "references")
        .map(|(_, v)| v)
        .collect();
    if !refs.is_empty() && letter.references.iter().collect::<Vec<_>>() != refs {
        fail(format!(
            "references {:?}, expected {refs:?}",
            letter.references
        ));
    }
    for (key, value) in expected {
        let from_email = letter.from.as_ref().map(|a| a.email.as_str());
        match key.as_str() {
            "subject" if letter.subject != *value => {
                fail(format!("subject {:?}, expected {value:?}", letter.subject))
            }
            "from" if from_email != (value != "none").then_some(value.as_str()) => {
                fail(format!("from {from_email:?}, expected {value:?}"))
            }
            "from-name" => {
                let name = letter.from.as_ref().and_then(|a| a.name.as_deref());
                if name != Some(value.as_str()) {
                    fail(format!("from name {name:?}, expected {value:?}"));
                }
            }
            "reply-to" => {
                let email = letter.reply_to.as_ref().map(|a| a.email.as_str());
                if email != Some(value.as_str()) {
                    fail(format!("reply-to {email:?}, expected {value:?}"));
                }
            }
            "to" if !letter.to.iter().any(|a| a.email == *value) => fail(format!(
                "{value:?} is not among the recipients {:?}",
                letter.to
            )),
            "message-id" if letter.message_id != *value => fail(format!(
                "message id {:?}, expected {value:?}",
                letter.message_id
            )),
            "message-id-starts" if !letter.message_id.starts_with(value.as_str()) => fail(format!(
                "message id {:?} does not start {value:?}",
                letter.message_id
            )),
            "message-id-ends" if !letter.message_id.ends_with(value.as_str()) => fail(format!(
                "message id {:?} does not end {value:?}",
                letter.message_id
            )),
            "body-contains" if !letter.body.contains(value.as_str()) => {
                fail(format!("body lacks {value:?}; body is {:?}", letter.body))
            }
            "body-lacks" if letter.body.contains(value.as_str()) => fail(format!(
                "body contains {value:?}; body is {:?}",
                letter.body
            )),
            "body-empty" if !letter.body.is_empty() => {
                fail(format!("body is {:?}, expected empty", letter.body))
            }
            "automatic" => match (&letter.automatic, value.as_str()) {
                (None, "none") => {}
                (Some(reason), "none") => fail(format!("automatic ({reason}), expected not")),
                (Some(reason), part) if reason.contains(part) => {}
                (reason, _) => fail(format!("automatic {reason:?}, expected {value:?}")),
            },
            "from-refused" => match (&letter.refused_from, value.as_str()) {
                (None, "none") => {}
                (Some(written), "none") => fail(format!("From refused ({written}), expected not")),
                (Some(written), part) if written.contains(part) => {}
                (written, _) => fail(format!("From refused {written:?}, expected {value:?}")),
            },
            "warning-contains" if !letter.warnings.iter().any(|w| w.contains(value.as_str())) => {
                fail(format!(
                    "no warning contains {value:?}; warnings: {:?}",
                    letter.warnings
                ))
            }
            "warnings" if !letter.warnings.is_empty() => {
                fail(format!("warnings {:?}, expected none", letter.warnings))
            }
            "unreadable" => fail(format!("read, expected unreadable ({value})")),
            "subject" | "from" | "to" | "message-id" | "message-id-starts" | "message-id-ends"
            | "body-contains" | "body-lacks" | "body-empty" | "warning-contains" | "warnings"
            | "references" => {}
            other => fail(format!("unknown key {other:?}")),
        }
    }
    problems
}

#[test]
fn every_mail_case_reads_as_expected() {
    let cases = cases();
    assert!(cases.len() >= 20, "only {} cases found", cases.len());
    let mut failures = Vec::new();
    for eml in &cases {
        let name = eml
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let expect = eml.with_extension("expect");
        assert!(expect.exists(), "{name}.eml has no {name}.expect");
        let expected = expectations(&expect);
        let raw = fs::read(eml).expect("readable .eml");
        let problems = match read_letter(&raw, &own()) {
            Ok(letter) => {
                let mut problems = check(&letter, &expected);
                if letter.size != raw.len() {
                    problems.push(format!("size {}, expected {}", letter.size, raw.len()));
                }
                problems
            }
            Err(unreadable) => match expected.iter().find(|(k, _)| k == "unreadable") {
                Some((_, part)) if unreadable.reason.contains(part.as_str()) => Vec::new(),
                _ => vec![format!("unreadable: {unreadable}")],
            },
        };
        failures.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_expect_file_has_its_message() {
    for entry in fs::read_dir(mail_dir()).expect("tests/data/mail is readable") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|e| e == "expect") {
            assert!(
                path.with_extension("eml").exists(),
                "{} has no .eml",
                path.display()
            );
        }
    }
}

#[test]
fn a_missing_message_id_is_made_from_the_bytes_and_stable() {
    let raw = fs::read(mail_dir().join("no-message-id.eml")).expect("readable .eml");
    let first = read_letter(&raw, &own()).expect("readable");
    let again = read_letter(&raw, &own()).expect("readable");
    assert_eq!(first.message_id, again.message_id);
    let mut other = raw.clone();
    other.extend_from_slice(b"A Ven H\n");
    let changed = read_letter(&other, &own()).expect("readable");
    assert_ne!(first.message_id, changed.message_id);
}

/// A message nested `depth` multipart levels deep with the text at the bottom.
fn nested(depth: usize, kind: &str) -> Vec<u8> {
    let mut raw = String::from("Message-ID: <deep@example.test>\nFrom: player1@example.test\n");
    raw.push_str("Subject: deep\nMIME-Version: 1.0\n");
    for level in 0..depth {
        if kind == "multipart" {
            raw.push_str(&format!(
                "Content-Type: multipart/mixed; boundary=\"b{level}\"\n\n--b{level}\n"
            ));
        } else {
            raw.push_str(&format!(
                "Content-Type: message/rfc822\n\nFrom: x{level}@example.test\n"
            ));
        }
    }
    raw.push_str("Content-Type: text/plain\n\nDeep text\n");
    if kind == "multipart" {
        for level in (0..depth).rev() {
            raw.push_str(&format!("--b{level}--\n"));
        }
    }
    raw.into_bytes()
}

#[test]
fn a_thousand_nested_levels_are_refused_without_harm() {
    for kind in ["multipart", "message"] {
        let result = read_letter(&nested(1000, kind), &own());
        let reason = result.err().map(|e| e.reason).unwrap_or_default();
        assert!(reason.contains("too deeply nested"), "{kind}: {reason:?}");
    }
}

#[test]
fn moderate_nesting_is_read_to_the_bottom() {
    let letter = read_letter(&nested(50, "multipart"), &own()).expect("50 levels are read");
    assert_eq!(letter.body.trim(), "Deep text");
}

#[test]
fn huge_bodies_and_long_lines_are_read() {
    let mut raw = b"From: player1@example.test\nSubject: big\n\n".to_vec();
    let line = "A Par - Bur\n".repeat(400_000);
    raw.extend_from_slice(line.as_bytes());
    raw.extend(std::iter::repeat_n(b'x', 3_000_000));
    let letter = read_letter(&raw, &own()).expect("a big letter is read");
    assert!(letter.body.starts_with("A Par - Bur\n"));
    assert_eq!(letter.body.len(), line.len() + 3_000_000);

    let mut html = b"From: p@example.test\nContent-Type: text/html\n\n".to_vec();
    html.extend("<b>&amp;<i>".repeat(200_000).as_bytes());
    html.extend("<".repeat(100_000).as_bytes());
    let letter = read_letter(&html, &own()).expect("big HTML is read");
    assert!(letter.body.starts_with("&&&"));
}

/// A small deterministic generator, so the mutations are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

#[test]
fn mutated_messages_never_break_the_reader() {
    const INSERTS: [&[u8]; 8] = [
        b"\r\n--",
        b"\n\n",
        b"=?koi8-r?B?",
        b"Content-Type: multipart/mixed; boundary=x\n",
        b"\0",
        b"\xff\xfe",
        b"=\n",
        b"<br><script>",
    ];
    let mut random = Lcg(1901);
    for eml in cases() {
        let raw = fs::read(&eml).expect("readable .eml");
        for round in 0..150 {
            let mut bytes = raw.clone();
            for _ in 0..1 + round % 4 {
                let at = random.below(bytes.len() + 1);
                match random.below(4) {
                    0 => bytes.truncate(at),
                    1 if at < bytes.len() => bytes[at] = random.below(256) as u8,
                    2 => {
                        let insert = INSERTS[random.below(INSERTS.len())];
                        bytes.splice(at..at, insert.iter().copied());
                    }
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            if let Err(e) = read_letter(&bytes, &own()) {
                assert_ne!(e.reason, READER_FAILED, "{} round {round}", eml.display());
            }
        }
    }
}

mod never_panics {
    use proptest::prelude::*;
    use strategos::mail::read::{READER_FAILED, read_letter};

    proptest! {
        #[test]
        fn on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            if let Err(e) = read_letter(&bytes, &[]) {
                prop_assert_ne!(e.reason, READER_FAILED);
            }
        }

        #[test]
        fn on_any_body_after_headers(body in ".{0,300}", ctype in "(text/(plain|html)|multipart/mixed; boundary=a)") {
            let raw = format!("From: a@example.test\nContent-Type: {ctype}\n\n{body}");
            prop_assert!(read_letter(raw.as_bytes(), &[]).is_ok());
        }
    }
}

#[test]
fn a_parser_failure_falls_back_to_the_raw_text() {
    let raw = fs::read(mail_dir().join("mime-confusion.eml")).expect("readable .eml");
    let letter = read_letter(&raw, &own()).expect("read one way or the other");
    if letter
        .warnings
        .iter()
        .any(|w| w.contains("MIME structure could not be read"))
    {
        assert!(letter.body.contains("Outer text"), "{:?}", letter.body);
    }
}
