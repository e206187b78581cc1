//! Promises kept: every time the judge announces (a phase processed at a time, a deadline)
//! is the time it acts: nothing happens a minute before, and it happens at that minute.

use chrono::{DateTime, Duration, TimeZone, Utc};

use crate::judge_harness::{Harness, mail, test_config_with_defaults};

fn at(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 1, day, hour, minute, 0).unwrap()
}

/// A duel on the tiny map, with the shipped timing (a grace after the deadline, a delay
/// before a phase whose orders are all in is processed): Alice (N) and Bob (S) signed on,
/// the deadline Thu 07 Jan 2027 13:00 UTC.
fn duel() -> Harness {
    let mut judge = Harness::with_config("promises", test_config_with_defaults());
    judge.vouch(&["alice@example.test", "bob@example.test"]);
    judge.set_time(at(5, 12, 0));
    judge.deliver(&mail(
        "alice@example.test",
        "duel",
        "<p1@example.test>",
        "CREATE ?duel secret1 tiny\n",
    ));
    judge.set_time(at(5, 13, 0));
    judge.deliver(&mail(
        "bob@example.test",
        "duel",
        "<p2@example.test>",
        "SIGNON ?duel secret2\n",
    ));
    judge.take_sent();
    judge
}

/// The moment a letter's body promises after `words` (`... processed at Thu 07 Jan 2027
/// 13:30 UTC`), read whatever line breaks fall inside it.
fn promised(body: &str, words: &str) -> Option<DateTime<Utc>> {
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let rest = &flat[flat.find(words)? + words.len()..];
    // The judge's one form, `Thu 07 Jan 2027 13:00 UTC`, read back by its own reader.
    let words: Vec<&str> = rest
        .split_whitespace()
        .take(5)
        .chain(
            rest.split_whitespace()
                .nth(5)
                .map(|z| z.trim_end_matches(['.', ','])),
        )
        .collect();
    strategos::text::date::read_date(&words)
        .ok()?
        .instant(
            "UTC",
            at(1, 0, 0),
            chrono::NaiveTime::MIN,
            strategos::text::date::Looking::Ahead,
        )
        .ok()
}

fn results(letters: &[strategos::letter::IncomingLetter]) -> usize {
    letters
        .iter()
        .filter(|l| l.body.contains("Movement results for"))
        .count()
}

/// Waits until just before `when`, then until `when`: the results must come at `when`
/// and not a minute before.
fn results_come_at(judge: &mut Harness, when: DateTime<Utc>) {
    judge.tick(when - Duration::minutes(1));
    let early = judge.take_sent();
    assert_eq!(
        results(&early),
        0,
        "results came before the announced {when}: {:#?}",
        early.iter().map(|l| &l.subject).collect::<Vec<_>>()
    );
    judge.tick(when);
    let due = judge.take_sent();
    assert!(
        results(&due) > 0,
        "no results at the announced {when}: {:#?}",
        due.iter().map(|l| &l.subject).collect::<Vec<_>>()
    );
}

#[test]
fn the_last_orders_in_time_are_processed_when_announced() {
    let mut judge = duel();
    judge.set_time(at(6, 10, 0));
    judge.deliver(&mail(
        "alice@example.test",
        "spring",
        "<p3@example.test>",
        "SIGNON Nduel secret1\nF Nor H\n",
    ));
    judge.take_sent();
    judge.set_time(at(6, 11, 0));
    judge.deliver(&mail(
        "bob@example.test",
        "spring",
        "<p4@example.test>",
        "SIGNON Sduel secret2\nA Sou H\n",
    ));
    let answer = judge.take_sent();
    let body = &answer.first().expect("an answer").body;
    let when = promised(body, "the phase is processed at")
        .unwrap_or_else(|| panic!("a time promised: {body}"));
    results_come_at(&mut judge, when);
}

#[test]
fn late_orders_are_processed_when_announced_not_before() {
    let mut judge = duel();
    judge.set_time(at(6, 10, 0));
    judge.deliver(&mail(
        "alice@example.test",
        "spring",
        "<p3@example.test>",
        "SIGNON Nduel secret1\nF Nor H\n",
    ));
    judge.take_sent();
    // The deadline passes with Bob's orders missing: the grace begins.
    judge.tick(at(7, 13, 1));
    judge.take_sent();
    judge.set_time(at(7, 13, 20));
    judge.deliver(&mail(
        "bob@example.test",
        "spring",
        "<p4@example.test>",
        "SIGNON Sduel secret2\nA Sou H\n",
    ));
    let letters = judge.take_sent();
    let answer = letters
        .iter()
        .find(|l| {
            l.to.iter().any(|a| a.email == "bob@example.test") && l.subject.starts_with("Re:")
        })
        .expect("an answer to Bob");
    match promised(&answer.body, "the phase is processed at") {
        Some(when) => results_come_at(&mut judge, when),
        // Processed at once: the results come with the answer, as it says.
        None => {
            assert!(
                answer.body.contains("processed now"),
                "the answer says when the phase is processed: {}",
                answer.body
            );
            assert!(results(&letters) > 0, "the results came with the answer");
        }
    }
}

#[test]
fn a_deadline_announced_is_the_deadline_kept() {
    let mut judge = duel();
    judge.set_time(at(6, 10, 0));
    judge.deliver(&mail(
        "alice@example.test",
        "spring",
        "<p3@example.test>",
        "SIGNON Nduel secret1\nF Nor H\nSET WAIT\n",
    ));
    let answer = judge.take_sent();
    let body = &answer.first().expect("an answer").body;
    let deadline = promised(body, "Deadline:").expect("the deadline in the answer");
    judge.set_time(at(6, 11, 0));
    judge.deliver(&mail(
        "bob@example.test",
        "spring",
        "<p4@example.test>",
        "SIGNON Sduel secret2\nA Sou H\n",
    ));
    judge.take_sent();
    results_come_at(&mut judge, deadline);
}

#[test]
fn the_end_of_the_grace_announced_is_when_disorder_comes() {
    let mut judge = duel();
    judge.set_time(at(6, 10, 0));
    judge.deliver(&mail(
        "alice@example.test",
        "spring",
        "<p3@example.test>",
        "SIGNON Nduel secret1\nF Nor H\n",
    ));
    judge.take_sent();
    judge.tick(at(7, 13, 0));
    let notices = judge.take_sent();
    let notice = notices
        .iter()
        .find(|l| l.body.contains("civil disorder if orders are not"))
        .unwrap_or_else(|| panic!("a late notice: {notices:#?}"));
    let until = promised(&notice.body, "received by")
        .unwrap_or_else(|| panic!("the end of the grace in the judge's form: {}", notice.body));
    results_come_at(&mut judge, until);
}
