//! Hostile and broken input, and bounded fuzzing with a checked-in corpus.
//!
//! Each reader (order parser, command parser, mail reader, variant loader, the Here I Stand
//! map loader and its move, answer, adjustment and instruction readers) replays every
//! file of its corpus in `tests/data/fuzz/<reader>/` and then runs mutations of it for a
//! bounded number of rounds (`STRATEGOS_FUZZ_ROUNDS`, default 300): no panic, and every
//! input read in bounded time.

use std::path::Path;
use std::time::{Duration, Instant};

use strategos::diplomacy::turn::PhaseKind;
use strategos::mail::read::read_letter;
use strategos::text::command::parse_commands;
use strategos::text::order::parse_orders;
use strategos::variant::load_variant;

use crate::case::variants;
use crate::judge_harness::Harness;
use crate::judge_harness::mail;

fn rounds() -> usize {
    std::env::var("STRATEGOS_FUZZ_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(300)
}

/// The corpus of one reader.
fn corpus(reader: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(reader);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let inputs: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(
        inputs.len() >= 3,
        "the {reader} corpus has {} files",
        inputs.len()
    );
    inputs
}

/// Repeatable mutations: flip, insert, delete, duplicate and splice bytes.
struct Mutator(u64);

impl Mutator {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn mutate(&mut self, input: &[u8], other: &[u8]) -> Vec<u8> {
        let mut out = input.to_vec();
        for _ in 0..1 + self.next() % 8 {
            let at = if out.is_empty() {
                0
            } else {
                (self.next() as usize) % out.len()
            };
            match self.next() % 6 {
                0 if !out.is_empty() => out[at] ^= 1 << (self.next() % 8),
                1 => out.insert(at, self.next() as u8),
                2 if !out.is_empty() => {
                    out.remove(at);
                }
                3 => {
                    let piece: Vec<u8> = out[at..].iter().take(64).copied().collect();
                    out.splice(at..at, piece);
                }
                4 if !other.is_empty() => {
                    let from = (self.next() as usize) % other.len();
                    let piece: Vec<u8> = other[from..].iter().take(40).copied().collect();
                    out.splice(at..at, piece);
                }
                _ => out.insert(at, b"\n-,;/()@<>=?\0\xd0\xb9"[(self.next() % 14) as usize]),
            }
        }
        out
    }
}

/// Replays the corpus and its mutations through `read`, each within a time bound.
fn fuzz(reader: &str, seed: u64, read: impl Fn(&[u8])) {
    let inputs = corpus(reader);
    let mut mutator = Mutator(seed);
    let check = |input: &[u8]| {
        let started = Instant::now();
        read(input);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{reader}: an input took {:?}",
            started.elapsed()
        );
    };
    for input in &inputs {
        check(input);
    }
    for round in 0..rounds() {
        let a = &inputs[round % inputs.len()];
        let b = &inputs[(round * 7 + 3) % inputs.len()];
        check(&mutator.mutate(a, b));
    }
}

#[test]
fn fuzz_the_order_parser() {
    let standard = variants().iter().find(|v| v.id == "standard").unwrap();
    fuzz("orders", 11, |input| {
        let text = String::from_utf8_lossy(input);
        for phase in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            let _ = parse_orders(standard, phase, &text);
        }
    });
}

#[test]
fn fuzz_the_command_parser() {
    fuzz("commands", 22, |input| {
        let _ = parse_commands(&String::from_utf8_lossy(input));
    });
}

#[test]
fn fuzz_the_mail_reader() {
    fuzz("mail", 33, |input| {
        let _ = read_letter(input, &["judge@example.test".to_string()]);
    });
}

#[test]
fn fuzz_the_variant_loader() {
    fuzz("variants", 44, |input| {
        let _ = load_variant("fuzz", "fuzz.toml", &String::from_utf8_lossy(input));
    });
}

#[test]
fn fuzz_the_here_i_stand_readers() {
    use strategos::his::board::{Force, Units};
    use strategos::his::text::{parse_answer, parse_instruction, parse_move};
    use strategos::his::{Power, Question, SpaceId, adjust::parse_adjustment};
    use strategos::variant::his::load_map;
    let map = strategos::variant::his::embedded_map().expect("the map loads");
    let (a, b) = (SpaceId(0), SpaceId(1));
    let force = Force::of(Power::Hapsburg, Units::regulars(2));
    let questions = [
        Question::Response {
            mover: Power::Ottoman,
            from: a,
            to: b,
            leaders: Vec::new(),
        },
        Question::Intercept {
            power: Power::Hapsburg,
            into: b,
            options: vec![(a, force.clone())],
        },
        Question::AvoidBattle {
            power: Power::Hapsburg,
            at: b,
            destinations: vec![a],
            available: force.clone(),
        },
        Question::Withdraw {
            power: Power::Hapsburg,
            at: b,
            defenders: force.clone(),
        },
        Question::Janissaries { at: b },
        Question::Casualties {
            at: b,
            losses: Vec::new(),
        },
        Question::WithdrawAfterDefeat {
            power: Power::Hapsburg,
            at: b,
            available: force,
        },
        Question::Retreat {
            power: Power::Hapsburg,
            from: b,
            destinations: vec![a],
        },
        Question::MoveOn {
            power: Power::Ottoman,
            at: b,
        },
    ];
    fuzz("his", 55, |input| {
        let text = String::from_utf8_lossy(input);
        let _ = load_map("fuzz.toml", &text);
        for line in text.lines().take(50) {
            let _ = parse_move(&map, Power::Ottoman, line);
            let _ = parse_adjustment(&map, line);
            let _ = parse_instruction(&map, line);
            for q in &questions {
                let _ = parse_answer(&map, Power::Hapsburg, q, line);
            }
        }
    });
}

/// A base64 part that decodes to far more than the letter (a zip bomb's cousin), and a body
/// of 100,000 lines: read within the limits, answered, and the judge goes on.
#[test]
fn oversized_parts_and_endless_bodies() {
    let mut judge = Harness::new("hostile");
    judge.set_time(
        chrono::DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
    );
    // 600 KB of base64 'A's decodes to zeros: within the size limit, read as an attachment.
    let mut bomb = b"From: z@example.test\r\nSubject: bomb\r\nMessage-ID: <bomb@x>\r\nMIME-Version: 1.0\r\n\
        Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nHELP\r\n\
        --b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        .to_vec();
    for _ in 0..8000 {
        bomb.extend_from_slice(&[b'A'; 76]);
        bomb.extend_from_slice(b"\r\n");
    }
    bomb.extend_from_slice(b"--b--\r\n");
    let started = Instant::now();
    judge.deliver(&bomb);
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.contains("Commands to the judge"));
    // 100,000 lines of orders without a SIGNON: one answer, quickly.
    let body: String = (0..100_000).map(|i| format!("A Par - Bur {i}\n")).collect();
    judge.deliver(&mail("y@example.test", "long", "long@x", &body));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].subject.contains("[Error Flag]"));
    assert!(started.elapsed() < Duration::from_secs(60));
    // Header injection through encoded words that decode to line breaks, in the name and in
    // the subject: the answer goes to Eve alone and carries no header of the attacker's.
    judge.deliver(
        b"From: =?utf-8?b?RXZlDQpCY2M6IGFsbEBleGFtcGxlLnRlc3Q=?= <eve@example.test>\r\n\
          Subject: =?utf-8?b?aGkNCkJjYzogYWxsQGV4YW1wbGUudGVzdA==?=\r\nMessage-ID: <inj@x>\r\n\r\nHELP\r\n",
    );
    let outgoing = strategos::mail::maildir::Maildir::open(judge.dir.0.join("sent")).unwrap();
    let raw: Vec<Vec<u8>> = outgoing
        .pending()
        .unwrap()
        .iter()
        .map(|m| outgoing.read(m).unwrap())
        .collect();
    assert_eq!(raw.len(), 1, "the letter is answered");
    let text = String::from_utf8_lossy(&raw[0]);
    let head = &text[..text.find("\r\n\r\n").unwrap()];
    assert!(
        head.lines()
            .all(|l| !l.to_ascii_lowercase().starts_with("bcc")),
        "{head}"
    );
    let sent = judge.take_sent();
    assert_eq!(sent[0].to.len(), 1);
    assert_eq!(sent[0].to[0].email, "eve@example.test");
    // A line break inside a quoted name ends the From header early: no sender can be read,
    // so nobody is answered (the letter is kept in quarantine with its reason).
    judge.deliver(b"From: \"Eve\r\nBcc: all@example.test\" <eve@example.test>\r\nSubject: hi\r\nMessage-ID: <inj2@x>\r\n\r\nHELP\r\n");
    assert!(judge.take_sent().is_empty());
    let tx = judge.daemon.store.begin().unwrap();
    assert!(
        tx.quarantine()
            .unwrap()
            .iter()
            .any(|(id, _)| id == "inj2@x")
    );
}
