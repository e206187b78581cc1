//! The attack table: every `tests/data/attacks/*.txt` is an attack played against a fresh
//! judge, each with the expectations that say it ended safely; every attack file is listed
//! in `docs/security.md`.
//!
//! An attack file is read line by line. Blank lines and lines starting with `#` are comments,
//! except inside a letter body. The lines:
//!
//! - `title: <one line>`, `defence: <one line>`: both required, once each.
//! - `at <RFC 3339 time>`: the clock for the next step. Without it the clock starts at
//!   2027-01-05T09:00:00Z and each letter comes one minute after the step before.
//! - `letter from <address> [id <message-id>] [subject <rest of line>]`, body lines, `end`:
//!   a plain UTF-8 letter from that address (written into `From:` as it stands) to
//!   judge@example.test, with a fresh Message-ID unless `id` gives one, subject `attack`
//!   unless `subject` gives one.
//! - `raw`, a whole message (headers, blank line, body), `end`: delivered as it stands, with
//!   CRLF line ends.
//! - `repeat <n> letter from <address>`, body lines, `end`: the same letter n times, one
//!   second apart, each with a fresh Message-ID and `{n}` in the body replaced by the
//!   repetition's number (from 1).
//! - `tick <RFC 3339 time>`: the judge wakes at that time.
//! - `confirm <address>`: the last letter sent to the address holding a line
//!   `CONFIRM <token>` is answered from that address with that line.
//! - In the body of a `letter` (and the text of a `raw`), the last letter sent to its sender
//!   (the `From:` of a raw) that holds a line `CONFIRM <token>` may be reproduced, as a
//!   reply does: `{letter}` is its body as it is, `{quoted}` its lines quoted with `> `,
//!   `{html}` its lines HTML-escaped each with a `<br>`, `{subject}` its subject and `{token}`
//!   the token. `{repeat <n> <text>}` is the text n times, `{i}` in it the repetition's
//!   number (from 1), for letters too long to write out (thousands of `References`).
//! - `expect ...`: a check on the letters sent by the last step (letter, raw, repeat, tick
//!   or confirm); `expect ever ...` checks every letter sent so far in the attack:
//!   `none to <address>`, `letter to <address>` (at least one), `count <n> to <address>`
//!   (or `count <n> to <address> containing "<text>"`), `count <n>` (all letters),
//!   `letter to <address> containing "<text>"`, `letter to <address> containing "<text>"
//!   before "<text>"` (both in one letter's body, in that order), `none to <address>
//!   containing "<text>"`, `no letter containing "<text>"` (to anyone); `references at most
//!   <n> to <address>` (and no id over 250 characters); `site has "<text>"`,
//!   `site lacks "<text>"`: the web archive, written after each round when an attack checks
//!   it, has (or has not) a file whose path or content holds the text.
//!   "containing" looks in the subject and the body.
//!
//! Every failing expectation is reported with its file and line, all at once.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use strategos::letter::{IncomingLetter, usable_address};

use crate::judge_harness::Harness;

/// When the clock starts when an attack sets none.
const START: &str = "2027-01-05T09:00:00Z";

/// One step or check of an attack, with its line in the file.
#[derive(Clone, Debug)]
enum Step {
    At(DateTime<Utc>),
    Letter {
        from: String,
        id: Option<String>,
        subject: String,
        body: String,
    },
    Raw(String),
    Repeat {
        times: usize,
        from: String,
        body: String,
    },
    Tick(DateTime<Utc>),
    Confirm(String),
    Expect {
        ever: bool,
        check: Check,
    },
}

/// What an `expect` line asks of a set of letters.
#[derive(Clone, Debug)]
enum Check {
    /// No letter to the address (containing the text, when given).
    NoneTo {
        to: String,
        containing: Option<String>,
    },
    /// At least one letter to the address (containing the text, when given).
    LetterTo {
        to: String,
        containing: Option<String>,
    },
    /// Exactly n letters (to the address, when given; containing the text, when given).
    Count {
        n: usize,
        to: Option<String>,
        containing: Option<String>,
    },
    /// No letter to anyone containing the text.
    NoLetterContaining(String),
    /// Every letter to the address refers to at most n letters (`References`), none of
    /// them by an id over 250 characters.
    References { n: usize, to: String },
    /// The web archive (written after each round when an attack checks it) has a file whose
    /// path or content holds the text (`present`), or none (`!present`).
    Site { present: bool, text: String },
    /// A letter to the address containing the first text, and the second after it.
    InOrder {
        to: String,
        first: String,
        then: String,
    },
}

/// An attack read from its file.
#[derive(Debug)]
struct Attack {
    steps: Vec<(usize, Step)>,
}

fn time(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| format!("not an RFC 3339 time ({e}): {text:?}"))
}

/// Splits `<head> containing "<text>"` into the head and the text.
fn containing(rest: &str) -> Result<(&str, Option<String>), String> {
    let Some((head, quoted)) = rest.split_once(" containing ") else {
        return Ok((rest.trim(), None));
    };
    let text = quoted
        .trim()
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or_else(|| format!("the text after `containing` must be in quotes: {quoted:?}"))?;
    Ok((head.trim(), Some(text.to_string())))
}

fn parse_check(rest: &str) -> Result<Check, String> {
    if let Some(tail) = rest.trim().strip_prefix("references at most ") {
        return match tail.split_whitespace().collect::<Vec<_>>().as_slice() {
            [n, "to", address] => Ok(Check::References {
                n: n.parse().map_err(|_| format!("not a count: {n:?}"))?,
                to: address.to_string(),
            }),
            _ => Err("write `references at most <n> to <address>`".into()),
        };
    }
    for (head, present) in [("site has ", true), ("site lacks ", false)] {
        if let Some(text) = rest.trim().strip_prefix(head) {
            let text = text
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .ok_or_else(|| format!("the text after `{head}` must be in quotes: {text:?}"))?;
            return Ok(Check::Site {
                present,
                text: text.to_string(),
            });
        }
    }
    if let Some((head, then)) = rest.trim_end().rsplit_once("\" before \"") {
        let head = format!("{head}\"");
        let (head, first) = containing(&head)?;
        let then = then
            .strip_suffix('"')
            .ok_or_else(|| format!("the text after `before` must be in quotes: {then:?}"))?;
        let words: Vec<&str> = head.split_whitespace().collect();
        return match (words.as_slice(), first) {
            (["letter", "to", address], Some(first)) => Ok(Check::InOrder {
                to: address.to_string(),
                first,
                then: then.to_string(),
            }),
            _ => Err(format!(
                "write `letter to <address> containing \"<text>\" before \"<text>\"`: {rest:?}"
            )),
        };
    }
    let (head, text) = containing(rest)?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let address = |from: usize| -> Result<String, String> {
        let address = words[from..].join(" ");
        if address.is_empty() {
            Err("an address is missing".into())
        } else {
            Ok(address)
        }
    };
    match (words.as_slice(), text) {
        (["none", "to", ..], containing) => Ok(Check::NoneTo {
            to: address(2)?,
            containing,
        }),
        (["letter", "to", ..], containing) => Ok(Check::LetterTo {
            to: address(2)?,
            containing,
        }),
        (["no", "letter"], Some(text)) => Ok(Check::NoLetterContaining(text)),
        (["count", n], None) => Ok(Check::Count {
            n: n.parse().map_err(|_| format!("not a count: {n:?}"))?,
            to: None,
            containing: None,
        }),
        (["count", n, "to", ..], containing) => Ok(Check::Count {
            n: n.parse().map_err(|_| format!("not a count: {n:?}"))?,
            to: Some(address(3)?),
            containing,
        }),
        _ => Err(format!(
            "an expectation this runner does not know: {rest:?}"
        )),
    }
}

/// `<address> [id <message-id>] [subject <rest of line>]`.
fn parse_letter_line(rest: &str) -> (String, Option<String>, String) {
    let (rest, subject) = match rest.split_once(" subject ") {
        Some((rest, subject)) => (rest, subject.trim().to_string()),
        None => (rest, "attack".to_string()),
    };
    let (from, id) = match rest.rsplit_once(" id ") {
        Some((from, id)) if !id.trim().is_empty() && !id.trim().contains(' ') => (
            from,
            Some(
                id.trim()
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_string(),
            ),
        ),
        _ => (rest, None),
    };
    (from.trim().to_string(), id, subject)
}

/// Reads an attack; every problem is `file:line: what`.
fn parse(file: &str, text: &str) -> Result<Attack, Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let mut steps = Vec::new();
    let (mut title, mut defence) = (0, 0);
    let mut i = 0;
    // The lines after `i` up to a line `end`, joined with `\n`; `i` moves past the `end`.
    let block = |i: &mut usize, problems: &mut Vec<String>, start: usize| -> String {
        let mut body = Vec::new();
        loop {
            *i += 1;
            match lines.get(*i) {
                Some(line) if line.trim_end() == "end" => break,
                Some(line) => body.push(line.trim_end_matches('\r')),
                None => {
                    problems.push(format!("{file}:{start}: no line `end` closes this block"));
                    break;
                }
            }
        }
        body.join("\n")
    };
    while i < lines.len() {
        let number = i + 1;
        let line = lines[i].trim();
        let result: Result<Option<Step>, String> = if line.is_empty() || line.starts_with('#') {
            Ok(None)
        } else if let Some(rest) = line.strip_prefix("title:") {
            title += 1;
            if rest.trim().is_empty() {
                Err("the title is empty".into())
            } else {
                Ok(None)
            }
        } else if let Some(rest) = line.strip_prefix("defence:") {
            defence += 1;
            if rest.trim().is_empty() {
                Err("the defence is empty".into())
            } else {
                Ok(None)
            }
        } else if let Some(rest) = line.strip_prefix("at ") {
            time(rest).map(|t| Some(Step::At(t)))
        } else if let Some(rest) = line.strip_prefix("tick ") {
            time(rest).map(|t| Some(Step::Tick(t)))
        } else if let Some(rest) = line.strip_prefix("confirm ") {
            Ok(Some(Step::Confirm(rest.trim().to_string())))
        } else if let Some(rest) = line.strip_prefix("letter from ") {
            let (from, id, subject) = parse_letter_line(rest);
            let body = block(&mut i, &mut problems, number);
            Ok(Some(Step::Letter {
                from,
                id,
                subject,
                body,
            }))
        } else if line == "raw" {
            Ok(Some(Step::Raw(block(&mut i, &mut problems, number))))
        } else if let Some(rest) = line.strip_prefix("repeat ") {
            match rest.split_once(" letter from ") {
                Some((n, from)) => match n.trim().parse::<usize>() {
                    Ok(times) => Ok(Some(Step::Repeat {
                        times,
                        from: from.trim().to_string(),
                        body: block(&mut i, &mut problems, number),
                    })),
                    Err(_) => Err(format!("not a number of repetitions: {n:?}")),
                },
                None => Err("write `repeat <n> letter from <address>`".into()),
            }
        } else if let Some(rest) = line.strip_prefix("expect ") {
            let (ever, rest) = match rest.trim().strip_prefix("ever ") {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            parse_check(rest).map(|check| Some(Step::Expect { ever, check }))
        } else {
            Err(format!("a line this runner does not know: {line:?}"))
        };
        match result {
            Ok(Some(step)) => steps.push((number, step)),
            Ok(None) => {}
            Err(why) => problems.push(format!("{file}:{number}: {why}")),
        }
        i += 1;
    }
    if title != 1 {
        problems.push(format!("{file}: needs one `title:` line (has {title})"));
    }
    if defence != 1 {
        problems.push(format!("{file}: needs one `defence:` line (has {defence})"));
    }
    if problems.is_empty() {
        Ok(Attack { steps })
    } else {
        Err(problems)
    }
}

/// An address as compared here: as the judge keeps it (`usable_address`: quotes a local part
/// needs kept, others dropped, lower-cased), or trimmed and lower-cased if it cannot be used.
fn comparable(address: &str) -> String {
    usable_address(address).unwrap_or_else(|| address.trim().to_lowercase())
}

fn sent_to(letter: &IncomingLetter, address: &str) -> bool {
    let wanted = comparable(address);
    letter.to.iter().any(|a| comparable(&a.email) == wanted)
}

fn holds(letter: &IncomingLetter, text: &str) -> bool {
    letter.subject.contains(text) || crate::says(&letter.body, text)
}

/// The letters as a short list for a failure message.
fn summary(letters: &[IncomingLetter]) -> String {
    if letters.is_empty() {
        return "no letters".into();
    }
    letters
        .iter()
        .map(|l| {
            let to: Vec<&str> = l.to.iter().map(|a| a.email.as_str()).collect();
            // STRATEGOS_ATTACK_BODIES=1 shows whole letters, to see why a check failed.
            if std::env::var("STRATEGOS_ATTACK_BODIES").as_deref() == Ok("1") {
                format!("to {} {:?}:\n{}", to.join(","), l.subject, l.body)
            } else {
                format!("to {} {:?}", to.join(","), l.subject)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What is wrong with `letters` against the check, if anything.
fn judge_check(check: &Check, letters: &[IncomingLetter]) -> Option<String> {
    let matching = |to: &str, text: &Option<String>| -> Vec<&IncomingLetter> {
        letters
            .iter()
            .filter(|l| sent_to(l, to) && text.as_deref().is_none_or(|t| holds(l, t)))
            .collect()
    };
    match check {
        Check::NoneTo { to, containing } => {
            let found = matching(to, containing);
            (!found.is_empty()).then(|| {
                format!(
                    "expected no letter to {to}{}, found {}: {}",
                    containing
                        .as_ref()
                        .map(|t| format!(" containing {t:?}"))
                        .unwrap_or_default(),
                    found.len(),
                    found
                        .iter()
                        .map(|l| format!("{:?}", l.subject))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        }
        Check::LetterTo { to, containing } => matching(to, containing).is_empty().then(|| {
            format!(
                "expected a letter to {to}{}; sent: {}",
                containing
                    .as_ref()
                    .map(|t| format!(" containing {t:?}"))
                    .unwrap_or_default(),
                summary(letters)
            )
        }),
        Check::Count { n, to, containing } => {
            let found = match to {
                Some(to) => matching(to, containing).len(),
                None => letters.len(),
            };
            (found != *n).then(|| {
                format!(
                    "expected {n} letter(s){}, found {found}: {}",
                    to.as_ref().map(|t| format!(" to {t}")).unwrap_or_default(),
                    summary(letters)
                )
            })
        }
        Check::References { n, to } => {
            let long = |id: &String| id.len() > 250;
            letters
                .iter()
                .filter(|l| sent_to(l, to))
                .find(|l| l.references.len() > *n || l.references.iter().any(long))
                .map(|l| {
                    format!(
                        "a letter to {to} refers to {} letters (at most {n}), the longest id {} characters",
                        l.references.len(),
                        l.references.iter().map(String::len).max().unwrap_or(0)
                    )
                })
        }
        // Checked against the site by `run`.
        Check::Site { .. } => None,
        Check::InOrder { to, first, then } => {
            let in_order = |l: &&IncomingLetter| {
                l.body
                    .find(first.as_str())
                    .is_some_and(|at| l.body[at + first.len()..].contains(then.as_str()))
            };
            (!letters
                .iter()
                .filter(|l| sent_to(l, to))
                .any(|l| in_order(&l)))
            .then(|| {
                format!(
                    "expected a letter to {to} with {first:?} before {then:?}; sent: {}",
                    summary(letters)
                )
            })
        }
        Check::NoLetterContaining(text) => {
            let found: Vec<IncomingLetter> =
                letters.iter().filter(|l| holds(l, text)).cloned().collect();
            (!found.is_empty()).then(|| {
                format!(
                    "expected no letter containing {text:?}, found: {}",
                    summary(&found)
                )
            })
        }
    }
}

/// A plain letter to the judge.
fn letter(from: &str, id: &str, subject: &str, body: &str, now: DateTime<Utc>) -> Vec<u8> {
    let mut body = body.replace('\n', "\r\n");
    body.push_str("\r\n");
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\
         Date: {}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}",
        now.to_rfc2822()
    )
    .into_bytes()
}

/// The attack's letters and its clock.
struct Play {
    judge: Harness,
    stem: String,
    serial: usize,
    clock: DateTime<Utc>,
    /// The next letter comes at `clock` itself (at the start, after `at`), not a minute on.
    exact: bool,
    /// Every letter sent so far, and those of the last step.
    ever: Vec<IncomingLetter>,
    last: Vec<IncomingLetter>,
}

impl Play {
    fn fresh_id(&mut self) -> String {
        self.serial += 1;
        format!("{}.{}@attacker.test", self.serial, self.stem)
    }

    /// The time of the next letter.
    fn next_letter_time(&mut self) -> DateTime<Utc> {
        if !std::mem::take(&mut self.exact) {
            self.clock += Duration::minutes(1);
        }
        self.clock
    }

    /// `text` with `{letter}`, `{quoted}`, `{html}`, `{subject}` and `{token}` taken from the
    /// last letter to `address` holding a `CONFIRM` line.
    fn reproduce(&self, address: &str, text: &str) -> Result<String, String> {
        let text = &repeated(text)?;
        if !["{letter}", "{quoted}", "{html}", "{subject}", "{token}"]
            .iter()
            .any(|p| text.contains(p))
        {
            return Ok(text.to_string());
        }
        let request = self
            .ever
            .iter()
            .rev()
            .filter(|l| sent_to(l, address))
            .find_map(|l| {
                let token = l
                    .body
                    .lines()
                    .map(str::trim)
                    .find_map(|line| line.strip_prefix("CONFIRM "))?;
                Some((l, token.to_string()))
            });
        let Some((request, token)) = request else {
            return Err(format!(
                "no letter sent to {address} holds a line `CONFIRM <token>`"
            ));
        };
        let body = request.body.trim_end();
        let quoted: Vec<String> = body
            .lines()
            .map(|l| {
                if l.is_empty() {
                    ">".into()
                } else {
                    format!("> {l}")
                }
            })
            .collect();
        let html: Vec<String> = body
            .lines()
            .map(|l| {
                let escaped = l
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;");
                format!("{escaped}<br>")
            })
            .collect();
        Ok(text
            .replace("{letter}", body)
            .replace("{quoted}", &quoted.join("\n"))
            .replace("{html}", &html.join("\n"))
            .replace("{subject}", &request.subject)
            .replace("{token}", &token))
    }

    fn deliver(&mut self, raw: &[u8]) {
        self.judge.set_time(self.clock);
        self.judge.deliver(raw);
        let sent = self.judge.take_sent();
        self.last.extend(sent.iter().cloned());
        self.ever.extend(sent);
    }
}

/// Plays an attack; returns every failing expectation as `file:line: what`.
fn run(file: &str, text: &str) -> Vec<String> {
    let attack = match parse(file, text) {
        Ok(attack) => attack,
        Err(problems) => return problems,
    };
    let stem = file.trim_end_matches(".txt").to_string();
    let mut play = Play {
        judge: Harness::new("attack"),
        stem,
        serial: 0,
        clock: time(START).expect("the start time"),
        exact: true,
        ever: Vec::new(),
        last: Vec::new(),
    };
    let checks_site = attack.steps.iter().any(|(_, step)| {
        matches!(
            step,
            Step::Expect {
                check: Check::Site { .. },
                ..
            }
        )
    });
    if checks_site {
        let site = play.judge.dir.0.join("site");
        play.judge.daemon.judge.config.paths.archive = Some(site);
    }
    let mut failures = Vec::new();
    for (line, step) in attack.steps {
        let step_starts = !matches!(step, Step::Expect { .. } | Step::At(_));
        if step_starts {
            play.last.clear();
        }
        match step {
            Step::At(t) => {
                play.clock = t;
                play.exact = true;
            }
            Step::Letter {
                from,
                id,
                subject,
                body,
            } => {
                let body = match play.reproduce(&from, &body) {
                    Ok(body) => body,
                    Err(why) => {
                        failures.push(format!("{file}:{line}: {why}"));
                        continue;
                    }
                };
                let now = play.next_letter_time();
                let id = id.unwrap_or_else(|| play.fresh_id());
                play.deliver(&letter(&from, &id, &subject, &body, now));
            }
            Step::Raw(text) => {
                let from = text
                    .lines()
                    .take_while(|l| !l.trim().is_empty())
                    .find_map(|l| l.strip_prefix("From:"))
                    .map(|f| {
                        let f = f.trim();
                        f.rsplit_once('<')
                            .map_or(f, |(_, a)| a.trim_end_matches('>'))
                            .to_string()
                    })
                    .unwrap_or_default();
                let text = match play.reproduce(&from, &text) {
                    Ok(text) => text,
                    Err(why) => {
                        failures.push(format!("{file}:{line}: {why}"));
                        continue;
                    }
                };
                play.next_letter_time();
                let mut raw = text.replace('\n', "\r\n");
                raw.push_str("\r\n");
                play.deliver(raw.as_bytes());
            }
            Step::Repeat { times, from, body } => {
                play.next_letter_time();
                for n in 1..=times {
                    if n > 1 {
                        play.clock += Duration::seconds(1);
                    }
                    let id = play.fresh_id();
                    let body = body.replace("{n}", &n.to_string());
                    let raw = letter(&from, &id, "attack", &body, play.clock);
                    play.deliver(&raw);
                }
            }
            Step::Tick(t) => {
                play.clock = t;
                play.exact = false;
                play.judge.tick(t);
                let sent = play.judge.take_sent();
                play.last.extend(sent.iter().cloned());
                play.ever.extend(sent);
            }
            Step::Confirm(address) => {
                let token_line = play
                    .ever
                    .iter()
                    .rev()
                    .filter(|l| sent_to(l, &address))
                    .find_map(|l| {
                        l.body
                            .lines()
                            .map(str::trim)
                            .find(|line| line.starts_with("CONFIRM "))
                            .map(str::to_string)
                    });
                match token_line {
                    Some(token_line) => {
                        let now = play.next_letter_time();
                        let id = play.fresh_id();
                        play.deliver(&letter(&address, &id, "confirm", &token_line, now));
                    }
                    None => failures.push(format!(
                        "{file}:{line}: no letter sent to {address} holds a line `CONFIRM <token>`"
                    )),
                }
            }
            Step::Expect {
                check: Check::Site { present, text },
                ..
            } => {
                let site = play.judge.dir.0.join("site");
                let found = site_files(&site)
                    .into_iter()
                    .filter(|(path, content)| path.contains(&text) || content.contains(&text))
                    .map(|(path, _)| path)
                    .collect::<Vec<_>>();
                if present && found.is_empty() {
                    failures.push(format!("{file}:{line}: no file of the site holds {text:?}"));
                } else if !present && !found.is_empty() {
                    failures.push(format!(
                        "{file}:{line}: the site holds {text:?} in {found:?}"
                    ));
                }
            }
            Step::Expect { ever, check } => {
                let letters = if ever { &play.ever } else { &play.last };
                if let Some(why) = judge_check(&check, letters) {
                    failures.push(format!("{file}:{line}: {why}"));
                }
            }
        }
    }
    match play.judge.daemon.store.is_intact() {
        Ok(true) => {}
        other => failures.push(format!("{file}: the database is not intact: {other:?}")),
    }
    failures
}

/// `text` with each `{repeat <n> <text>}` written out: the text n times, `{i}` in it the
/// repetition's number from 1.
fn repeated(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("{repeat ") {
        out.push_str(&rest[..at]);
        let inside = &rest[at + "{repeat ".len()..];
        // The `}` that closes it, past those of `{i}` inside.
        let mut depth = 0usize;
        let end = inside
            .char_indices()
            .find(|&(_, c)| match c {
                '{' => {
                    depth += 1;
                    false
                }
                '}' if depth > 0 => {
                    depth -= 1;
                    false
                }
                '}' => true,
                _ => false,
            })
            .map(|(at, _)| at)
            .ok_or("`{repeat` is not closed by `}`")?;
        let (n, what) = inside[..end]
            .split_once(' ')
            .ok_or("write `{repeat <n> <text>}`")?;
        let n: usize = n.parse().map_err(|_| format!("not a count: {n:?}"))?;
        for i in 1..=n {
            out.push_str(&what.replace("{i}", &i.to_string()));
        }
        rest = &inside[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Every file under `dir`, as its path below `dir` and its content (lossy UTF-8).
fn site_files(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let content = std::fs::read(&path).unwrap_or_default();
                let shown = path.strip_prefix(dir).unwrap_or(&path);
                files.push((
                    shown.to_string_lossy().into_owned(),
                    String::from_utf8_lossy(&content).into_owned(),
                ));
            }
        }
    }
    files
}

fn attack_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/attacks");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/attacks is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_attack_ends_safely() {
    let files = attack_files();
    assert!(!files.is_empty(), "no attack files in tests/data/attacks");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("an attack file is UTF-8 text");
        failures.extend(run(&file_name(path), &text));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_attack_is_in_the_security_document() {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/security.md");
    let doc = std::fs::read_to_string(doc).expect("docs/security.md exists");
    let section = doc
        .split_once("## Attacks the tests try")
        .map(|(_, rest)| rest)
        .expect("docs/security.md has a section `## Attacks the tests try`");
    let missing: Vec<String> = attack_files()
        .iter()
        .map(|p| file_name(p))
        .filter(|name| !section.contains(&format!("`{name}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "attack files without a row in docs/security.md: {}",
        missing.join(", ")
    );
}

#[test]
fn the_runner_reports_each_failing_expectation_with_its_line() {
    let text = "title: a help letter\ndefence: none needed\n\
                letter from ann@example.test\nHELP\nend\n\
                expect letter to ann@example.test containing \"Commands to the judge\"\n\
                expect none to ann@example.test\n\
                expect count 3\n\
                expect ever no letter containing \"HELP\"\n\
                tick 2027-01-06T09:00:00Z\n\
                expect count 0\n";
    let failures = run("sample.txt", text);
    let lines: Vec<&str> = failures
        .iter()
        .map(|f| f.split(": ").next().unwrap_or_default())
        .collect();
    assert_eq!(
        lines,
        ["sample.txt:7", "sample.txt:8", "sample.txt:9"],
        "{failures:#?}"
    );
}

#[test]
fn the_runner_refuses_malformed_attacks() {
    let failures = run(
        "bad.txt",
        "title: one\nletter from a@example.test\nHELP\nexpect sometimes\n",
    );
    assert!(
        failures.iter().any(|f| f.contains("needs one `defence:`")),
        "{failures:?}"
    );
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("bad.txt:2: no line `end`")),
        "{failures:?}"
    );
    let failures = run("bad.txt", "title: t\ndefence: d\nexpect sometimes\nwhat\n");
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].starts_with("bad.txt:3:"), "{failures:?}");
    assert!(failures[1].starts_with("bad.txt:4:"), "{failures:?}");
}

#[test]
fn repeated_letters_are_numbered_and_a_confirmation_answers_its_token() {
    // The judge answers HELP with its command list, which holds no CONFIRM line: the step
    // reports that, so an attack waiting for a token that never came fails.
    let text = "title: t\ndefence: d\n\
                repeat 2 letter from bo@example.test\nWHOIS n{n}@example.test\nend\n\
                expect count 2 to bo@example.test\n\
                expect ever letter to bo@example.test containing \"WHOIS n2@example.test\"\n\
                expect ever no letter containing \"{n}\"\n\
                confirm bo@example.test\n";
    let failures = run("r.txt", text);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].starts_with("r.txt:9: no letter sent to bo@example.test"));
}
