//! The judge under stress of a small kind: a crash between handling and sending, mail
//! that is broken or hostile, automatic mail, floods (and the passwords that still get a
//! letter read past the limit), robots answered again and again, reused Message-IDs, what is
//! kept of raw letters, a failing outbox, and a letter that panics the judge.

use chrono::{DateTime, Duration, Utc};
use strategos::mail::send::RecordingTransport;
use strategos::mail::send::Transport;

use crate::judge_harness::Harness;

use crate::judge_harness::mail;

use crate::judge_harness::test_config;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

#[test]
fn a_crash_between_handling_and_sending_loses_nothing() {
    let mut judge = Harness::new("crash");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["alice@example.test", "bob@example.test"]);
    let create = mail(
        "alice@example.test",
        "a duel",
        "c1@example.test",
        "CREATE ?duel secret1 tiny\n",
    );
    // Handled and committed, then the judge dies before its outbox is flushed.
    assert!(judge.daemon.accept(&create, "test"));
    assert!(judge.take_sent().is_empty());
    judge.restart();
    judge.tick(at("2027-01-05T12:01:00Z"));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1, "the answer goes out once after the restart");
    assert!(sent[0].body.contains("Game 'duel' (Tiny) is created"));
    // The same letter again (a mailbox that was not marked before the crash) is not handled twice.
    assert!(!judge.deliver(&create));
    assert!(judge.take_sent().is_empty());
    // Orders acknowledged before a crash are in force after it.
    judge.deliver(&mail(
        "bob@example.test",
        "join",
        "c2@example.test",
        "SIGNON ?duel secret2\n",
    ));
    let starts = judge.take_sent();
    let alice_power = starts
        .iter()
        .find(|l| l.to[0].email == "alice@example.test" && l.subject.contains("Game Starting"))
        .unwrap();
    let letter = if alice_power.body.contains("selected as North") {
        'N'
    } else {
        'S'
    };
    let order = if letter == 'N' {
        "F Nor - Mid"
    } else {
        "A Sou - Two"
    };
    let orders = mail(
        "alice@example.test",
        "orders",
        "c3@example.test",
        &format!("SIGNON {letter}duel secret1\n{order}\n"),
    );
    assert!(judge.daemon.accept(&orders, "test"));
    judge.restart();
    judge.tick(at("2027-01-05T12:02:00Z"));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].body.contains("Orders still due from"),
        "{}",
        sent[0].body
    );
    // The order acknowledged before the crash is in force after it.
    let tx = judge.daemon.store.begin().unwrap();
    let game = tx.game_by_name("duel").unwrap().unwrap();
    let power = if letter == 'N' { "north" } else { "south" };
    let (lines, error_flag) = tx
        .orders(game.id, game.phase_serial, power)
        .unwrap()
        .unwrap();
    let expected = if letter == 'N' {
        "F NOR - MID"
    } else {
        "A SOU - TWO"
    };
    assert_eq!((lines.as_str(), error_flag), (expected, false));
    drop(tx);
    assert!(judge.daemon.store.is_intact().unwrap());
}

#[test]
fn a_letter_is_known_by_its_message_id_sender_and_body() {
    let mut judge = Harness::new("dedup");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let ann = mail("ann@example.test", "help", "same@x", "HELP\n");
    assert!(judge.deliver(&ann));
    assert_eq!(judge.take_sent().len(), 1);
    // The very same letter again: known, not answered.
    assert!(!judge.deliver(&ann));
    assert!(judge.take_sent().is_empty());
    // The same Message-ID from another sender, or with another body: letters of their own.
    assert!(judge.deliver(&mail("bob@example.test", "help", "same@x", "HELP\n")));
    assert!(judge.deliver(&mail("ann@example.test", "help", "same@x", "LIST\n")));
    let sent = judge.take_sent();
    let to: Vec<&str> = sent.iter().map(|l| l.to[0].email.as_str()).collect();
    assert_eq!(to, ["bob@example.test", "ann@example.test"]);
    let tx = judge.daemon.store.begin().unwrap();
    assert_eq!(tx.messages_with_id("same@x").unwrap(), 3);
    assert_eq!(tx.messages_with_id("other@x").unwrap(), 0);
}

#[test]
fn broken_and_strange_mail_gets_an_answer_or_a_quarantine() {
    let mut judge = Harness::new("broken");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    // An empty body: answered.
    judge.deliver(b"From: a@example.test\r\nSubject: empty\r\nMessage-ID: <e1@x>\r\n\r\n");
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.contains("held no commands"));
    // Broken MIME (no closing boundary, bad base64): answered with what could be read.
    judge.deliver(
        b"From: b@example.test\r\nSubject: broken\r\nMessage-ID: <e2@x>\r\nMIME-Version: 1.0\r\n\
          Content-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\
          Content-Transfer-Encoding: base64\r\n\r\n!!!not base64###\r\n",
    );
    assert_eq!(judge.take_sent().len(), 1);
    // An unknown charset: answered, with a note.
    judge.deliver(
        b"From: c@example.test\r\nSubject: charset\r\nMessage-ID: <e3@x>\r\nContent-Type: text/plain; charset=x-martian\r\n\r\nHELP\r\n",
    );
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.contains("Commands to the judge"));
    // No sender at all: nobody to answer; kept in quarantine with the reason.
    judge.deliver(b"Subject: nobody\r\nMessage-ID: <e4@x>\r\n\r\nHELP\r\n");
    assert!(judge.take_sent().is_empty());
    // Not mail at all.
    judge.deliver(&[0u8, 159, 146, 150, 0, 0, 13, 10]);
    assert!(judge.take_sent().is_empty());
    // 20 MB: a polite refusal, and only the first megabyte stored.
    let mut big = b"From: d@example.test\r\nSubject: big\r\nMessage-ID: <e5@x>\r\n\r\n".to_vec();
    big.extend(std::iter::repeat_n(b'x', 20 << 20));
    judge.deliver(&big);
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].subject.contains("[Error Flag]"));
    assert!(sent[0].body.contains("larger than"));
    let tx = judge.daemon.store.begin().unwrap();
    let quarantine = tx.quarantine().unwrap();
    assert!(
        quarantine
            .iter()
            .any(|(id, why)| id == "e4@x" && why.contains("no sender")),
        "{quarantine:?}"
    );
    assert!(
        quarantine
            .iter()
            .any(|(id, why)| id == "e5@x" && why.contains("size")),
        "{quarantine:?}"
    );
    assert_eq!(quarantine.len(), 3, "{quarantine:?}");
}

#[test]
fn automatic_mail_is_never_answered() {
    let mut judge = Harness::new("auto");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.deliver(b"From: robot@example.test\r\nAuto-Submitted: auto-replied\r\nSubject: Out of office\r\nMessage-ID: <a1@x>\r\n\r\nHELP\r\n");
    judge.deliver(b"From: MAILER-DAEMON@example.test\r\nReturn-Path: <>\r\nSubject: Undelivered\r\nMessage-ID: <a2@x>\r\n\r\nHELP\r\n");
    judge.deliver(b"From: list@example.test\r\nList-Id: <games.example.test>\r\nSubject: digest\r\nMessage-ID: <a3@x>\r\n\r\nHELP\r\n");
    // Another judge's answer (our marker) gets no answer: two judges never loop.
    judge.deliver(b"From: other-judge@example.test\r\nX-Strategos-Judge: yes\r\nSubject: Re: hello\r\nMessage-ID: <a4@x>\r\n\r\nHELP\r\n");
    assert!(judge.take_sent().is_empty());
}

#[test]
fn a_flood_gets_one_notice() {
    let mut config = test_config();
    config.limits.letters_per_hour = 3;
    let mut judge = Harness::with_config("flood", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    for i in 0..6 {
        judge.deliver(&mail(
            "flood@example.test",
            "spam",
            &format!("f{i}@x"),
            "HELP\n",
        ));
    }
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 4, "three answers and one notice");
    assert!(sent[3].body.contains("more than 3 letters"));
    // The next hour the sender is heard again.
    judge.set_time(at("2027-01-05T13:00:01Z"));
    judge.deliver(&mail("flood@example.test", "again", "f9@x", "HELP\n"));
    assert_eq!(judge.take_sent().len(), 1);
}

#[test]
fn a_seat_password_is_proof_and_nothing_else_is() {
    use strategos::mail::read::read_letter;
    let mut judge = Harness::new("proof");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["gina@example.test", "bob@example.test", "olga@example.test"]);
    judge.deliver(&mail(
        "gina@example.test",
        "game",
        "p1@x",
        "CREATE ?proof gmpw tiny MODERATED\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "join",
        "p2@x",
        "SIGNON ?proof bobpw\nSET PREFERENCE N\n",
    ));
    judge.deliver(&mail(
        "olga@example.test",
        "watch",
        "p3@x",
        "OBSERVE proof olgapw\n",
    ));
    judge.deliver(&mail(
        "gina@example.test",
        "go",
        "p4@x",
        "SIGNON ?proof gmpw\nFORCE BEGIN\n",
    ));
    judge.take_sent();
    let proves = |judge: &mut Harness, from: &str, body: &str| -> bool {
        let letter = read_letter(&mail(from, "x", "q@x", body), &[]).unwrap();
        let tx = judge.daemon.store.begin().unwrap();
        let now = at("2027-01-05T12:00:00Z");
        let judge = &judge.daemon.judge;
        judge.proof_past_limit(&tx, &letter, now).unwrap().read
    };
    // The power's password, from any address (a player may write from anywhere).
    assert!(proves(
        &mut judge,
        "bob@example.test",
        "SIGNON Nproof bobpw\nF Nor H\n"
    ));
    assert!(proves(
        &mut judge,
        "bob@elsewhere.test",
        "signon nproof bobpw\n"
    ));
    assert!(!proves(
        &mut judge,
        "bob@example.test",
        "SIGNON Nproof bobPW\n"
    ));
    // No one holds South: nothing to prove.
    assert!(!proves(
        &mut judge,
        "bob@example.test",
        "SIGNON Sproof bobpw\n"
    ));
    assert!(!proves(
        &mut judge,
        "bob@example.test",
        "SIGNON Nnosuchgame bobpw\n"
    ));
    // The master's and the observer's own seats, from their own addresses only.
    assert!(proves(
        &mut judge,
        "gina@example.test",
        "SIGNON ?proof gmpw\n"
    ));
    assert!(proves(
        &mut judge,
        "olga@example.test",
        "SIGNON ?proof olgapw\n"
    ));
    assert!(!proves(
        &mut judge,
        "mallory@example.test",
        "SIGNON ?proof gmpw\n"
    ));
    assert!(!proves(
        &mut judge,
        "olga@example.test",
        "SIGNON ?proof gmpw\n"
    ));
    // A player's SIGNON ?game is no seat of its own, and the password alone proves nothing.
    assert!(!proves(
        &mut judge,
        "bob@example.test",
        "SIGNON ?proof bobpw\n"
    ));
    assert!(!proves(&mut judge, "bob@example.test", "bobpw\nLIST\n"));
    // One password is checked: the first SIGNON that names a seat.
    let second = "SIGNON Nproof a\nSIGNON Nproof bobpw\n";
    assert!(!proves(&mut judge, "bob@example.test", second));
    let first_seat = "SIGNON Nnosuchgame a\nSIGNON Sproof b\nSIGNON Nproof bobpw\n";
    assert!(proves(&mut judge, "bob@example.test", first_seat));
}

#[test]
fn refusals_count_toward_the_limit_and_stop_past_it() {
    let mut config = test_config();
    config.limits.letters_per_hour = 2;
    config.limits.max_message_bytes = 2048;
    let mut judge = Harness::with_config("limit-refusals", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    // (Of different sizes: identical refusals would back off.)
    let big = |id: &str, size: usize| mail("big@example.test", "big", id, &"x".repeat(size));
    // Two oversized letters: two refusals, and the limit is reached.
    judge.deliver(&big("b1@x", 4096));
    judge.deliver(&big("b2@x", 4097));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 2);
    assert!(sent.iter().all(|l| l.body.contains("larger than")));
    // The third: over the limit, so the notice only; the fourth: nothing at all.
    judge.deliver(&big("b3@x", 4098));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].body.contains("more than 2 letters"),
        "{}",
        sent[0].body
    );
    judge.deliver(&big("b4@x", 4099));
    judge.deliver(&mail("big@example.test", "help", "b5@x", "HELP\n"));
    assert!(judge.take_sent().is_empty());
    let tx = judge.daemon.store.begin().unwrap();
    let quarantine = tx.quarantine().unwrap();
    assert_eq!(quarantine.len(), 4, "{quarantine:?}");
}

#[test]
fn identical_answers_to_letters_that_did_nothing_back_off() {
    let mut judge = Harness::new("backoff");
    let robot = |judge: &mut Harness, id: &str, t: &str| {
        judge.set_time(at(t));
        judge.deliver(&mail(
            "robot@example.test",
            "Re: Re: Your letter",
            id,
            "Thank you for your message.\n",
        ));
        judge.take_sent().len()
    };
    // Answered; the same again within a day is not; after a day it is.
    assert_eq!(robot(&mut judge, "r1@x", "2027-01-05T12:00:00Z"), 1);
    assert_eq!(robot(&mut judge, "r2@x", "2027-01-06T11:59:00Z"), 0);
    assert_eq!(robot(&mut judge, "r3@x", "2027-01-06T12:00:00Z"), 1);
    // Then two days, then four.
    assert_eq!(robot(&mut judge, "r4@x", "2027-01-08T11:00:00Z"), 0);
    assert_eq!(robot(&mut judge, "r5@x", "2027-01-08T12:00:00Z"), 1);
    assert_eq!(robot(&mut judge, "r6@x", "2027-01-12T11:00:00Z"), 0);
    assert_eq!(robot(&mut judge, "r7@x", "2027-01-12T12:00:00Z"), 1);
    let tx = judge.daemon.store.begin().unwrap();
    let held = &tx.stored_messages("r6@x").unwrap()[0];
    assert_eq!(held.state, "handled");
    let reason = held.reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains("identical answer") && reason.contains("2027-01-12T12:00:00Z"),
        "{reason}"
    );
    assert_eq!(tx.stored_messages("r7@x").unwrap()[0].reason, None);
    drop(tx);
    // The same mistake to another address is another answer; a letter that does something
    // is answered every time.
    judge.set_time(at("2027-01-12T12:01:00Z"));
    judge.deliver(&mail(
        "other@example.test",
        "Re: Your letter",
        "o1@x",
        "Thank you for your message.\n",
    ));
    assert_eq!(judge.take_sent().len(), 1);
    for id in ["l1@x", "l2@x", "l3@x"] {
        judge.deliver(&mail("robot@example.test", "list", id, "LIST\n"));
        assert_eq!(judge.take_sent().len(), 1);
    }
}

#[test]
fn a_sender_whose_address_cannot_be_used_is_quarantined() {
    let mut judge = Harness::new("bad-sender");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    for (i, from) in ["-oQ/tmp/x@evil.test", "a b@evil.test", "a,b@evil.test"]
        .into_iter()
        .enumerate()
    {
        judge.deliver(&mail(from, "hello", &format!("bad{i}@x"), "HELP\n"));
    }
    assert!(judge.take_sent().is_empty());
    let tx = judge.daemon.store.begin().unwrap();
    let quarantine = tx.quarantine().unwrap();
    assert_eq!(quarantine.len(), 3, "{quarantine:?}");
    assert!(
        quarantine
            .iter()
            .all(|(_, why)| why == "the sender's address cannot be used"),
        "{quarantine:?}"
    );
}

#[test]
fn raw_letters_lose_their_bodies_once_settled() {
    let mut judge = Harness::new("redact");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test"]);
    let contains = |raw: &[u8], text: &str| String::from_utf8_lossy(raw).contains(text);
    // A letter stored but not yet handled (the judge stopped in between) is whole, and
    // handled after the restart like any other.
    let raw = mail(
        "ann@example.test",
        "a game",
        "r1@x",
        "CREATE ?hush annsecret tiny\nSET PASSWORD annnew\n",
    );
    {
        let tx = judge.daemon.store.begin().unwrap();
        tx.record_message("r1@x#0", "r1@x", "test", &raw, at("2027-01-05T12:00:00Z"))
            .unwrap();
        tx.commit().unwrap();
        let tx = judge.daemon.store.begin().unwrap();
        let stored = &tx.stored_messages("r1@x").unwrap()[0];
        assert_eq!(
            (stored.state.as_str(), stored.raw_state.as_str()),
            ("new", "whole")
        );
        assert!(contains(&stored.raw, "annsecret"));
    }
    judge.tick(at("2027-01-05T12:01:00Z"));
    let sent = judge.take_sent();
    assert!(
        sent[0].body.contains("Game 'hush' (Tiny) is created"),
        "{}",
        sent[0].body
    );
    // Handled: the headers as they came, the commands with their passwords hidden.
    judge.deliver(&mail(
        "ann@example.test",
        "orders",
        "r2@x",
        "SIGNON ?hush annnew\nLIST hush\n",
    ));
    // Ignored (automatic): the same.
    judge.deliver(b"From: bob@example.test\r\nSubject: away\r\nMessage-ID: <r3@x>\r\nAuto-Submitted: auto-replied\r\n\r\nSIGNON Nhush bobsecret\r\n");
    // Quarantined (no sender): whole, for the keeper, until its retention is over.
    judge.deliver(
        b"Subject: nobody\r\nMessage-ID: <r4@x>\r\n\r\nSIGNON Shush quarantinedsecret\r\n",
    );
    let tx = judge.daemon.store.begin().unwrap();
    for (id, secrets, kept) in [
        (
            "r1@x",
            &["annsecret", "annnew"][..],
            "CREATE ?hush ****** tiny\r\nSET PASSWORD ******\r\n",
        ),
        (
            "r2@x",
            &["annnew"][..],
            "SIGNON ?hush ******\r\nLIST hush\r\n",
        ),
        ("r3@x", &["bobsecret"][..], "SIGNON Nhush ******\r\n"),
    ] {
        let stored = &tx.stored_messages(id).unwrap()[0];
        assert_eq!(stored.raw_state, "redacted", "{id}");
        let text = String::from_utf8_lossy(&stored.raw);
        assert!(secrets.iter().all(|s| !text.contains(s)), "{id}: {text}");
        assert!(
            text.contains("[The body of this letter was removed once it was handled."),
            "{text}"
        );
        assert!(text.ends_with(kept), "{id}: {text}");
        assert!(text.contains(&format!("Message-ID: <{id}>\r\n")), "{text}");
    }
    let quarantined = &tx.stored_messages("r4@x").unwrap()[0];
    assert_eq!(
        (quarantined.state.as_str(), quarantined.raw_state.as_str()),
        ("quarantined", "whole")
    );
    assert!(contains(&quarantined.raw, "quarantinedsecret"));
    drop(tx);
    judge.tick(at("2027-02-04T12:00:30Z"));
    let tx = judge.daemon.store.begin().unwrap();
    assert_eq!(tx.stored_messages("r4@x").unwrap()[0].raw_state, "whole");
    drop(tx);
    judge.tick(at("2027-02-04T12:01:01Z"));
    let tx = judge.daemon.store.begin().unwrap();
    let purged = &tx.stored_messages("r4@x").unwrap()[0];
    assert_eq!(
        (purged.state.as_str(), purged.raw_state.as_str()),
        ("quarantined", "purged")
    );
    assert_eq!(purged.raw, b"Subject: nobody\r\nMessage-ID: <r4@x>\r\n\r\n");
    assert_eq!(
        tx.quarantine().unwrap(),
        [("r4@x".to_string(), "the letter has no sender".to_string())]
    );
}

#[test]
fn the_limit_notice_is_in_the_reader_s_language() {
    let mut config = test_config();
    config.limits.letters_per_hour = 2;
    let mut judge = Harness::with_config("limit-ru", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.deliver(&mail(
        "olga@example.test",
        "я",
        "ru1@x",
        "SET LANGUAGE ru\n",
    ));
    judge.deliver(&mail("olga@example.test", "я", "ru2@x", "LIST\n"));
    judge.take_sent();
    judge.deliver(&mail("olga@example.test", "я", "ru3@x", "LIST\n"));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.contains("больше 2 писем"), "{}", sent[0].body);
}

/// A transport shared with the test, so it can see what was sent.
struct Shared(std::sync::Arc<std::sync::Mutex<RecordingTransport>>);

impl Transport for Shared {
    fn send(
        &mut self,
        from: &str,
        to: &[String],
        raw: &[u8],
    ) -> Result<(), strategos::mail::send::SendError> {
        self.0.lock().unwrap().send(from, to, raw)
    }
}

#[test]
fn the_outbox_retries_and_records_refusals() {
    let mut judge = Harness::new("outbox");
    let recorder = std::sync::Arc::new(std::sync::Mutex::new(RecordingTransport::new()));
    judge.daemon.transport = Box::new(Shared(recorder.clone()));
    let t0 = at("2027-01-05T12:00:00Z");
    judge.set_time(t0);
    recorder
        .lock()
        .unwrap()
        .fail_transiently_for("alice@example.test", 2);
    recorder.lock().unwrap().refuse("gone@example.test");
    judge.deliver(&mail("alice@example.test", "one", "o1@x", "HELP\n"));
    judge.deliver(&mail("gone@example.test", "two", "o2@x", "HELP\n"));
    assert_eq!(
        recorder.lock().unwrap().sent.len(),
        0,
        "the server is away for alice; gone@ is refused"
    );
    // The refusal is recorded and the keeper told in the next round.
    judge.tick(t0 + Duration::seconds(30));
    assert_eq!(recorder.lock().unwrap().sent.len(), 1);
    assert_eq!(recorder.lock().unwrap().sent[0].to, ["keeper@example.test"]);
    // Alice's answer is tried again later, waiting longer each time, until it goes out.
    judge.tick(t0 + Duration::minutes(10));
    assert_eq!(
        recorder.lock().unwrap().sent.len(),
        1,
        "second attempt failed too"
    );
    judge.tick(t0 + Duration::minutes(12));
    assert_eq!(
        recorder.lock().unwrap().sent.len(),
        1,
        "not due yet: the wait doubled"
    );
    judge.tick(t0 + Duration::minutes(20));
    let sent = recorder.lock().unwrap().sent.clone();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].to, ["alice@example.test"]);
    let tx = judge.daemon.store.begin().unwrap();
    assert_eq!(tx.outbox_counts().unwrap(), (0, 2, 1));
}

/// More letters than one round sends (500): the first 500 go, in order, even for addresses
/// that have more letters left for the next round; the rest go next round.
#[test]
fn a_full_outbox_goes_out_over_rounds_in_order() {
    let mut judge = Harness::new("many");
    let recorder = std::sync::Arc::new(std::sync::Mutex::new(RecordingTransport::new()));
    judge.daemon.transport = Box::new(Shared(recorder.clone()));
    judge.set_time(at("2027-01-05T12:00:00Z"));
    for round in 0..2 {
        for n in 0..300 {
            let from = format!("p{n}@example.test");
            let body = "HELP\n".to_string();
            assert!(judge.daemon.accept(
                &mail(
                    &from,
                    &format!("r{round}"),
                    &format!("m{round}.{n}@x"),
                    &body
                ),
                "test"
            ));
        }
    }
    judge.daemon.round();
    assert_eq!(recorder.lock().unwrap().sent.len(), 500);
    judge.daemon.round();
    let sent = recorder.lock().unwrap().sent.clone();
    assert_eq!(sent.len(), 600);
    // Each address got its answer to r0 before its answer to r1.
    for n in 0..300 {
        let to = format!("p{n}@example.test");
        let subjects: Vec<String> = sent
            .iter()
            .filter(|m| m.to == [to.clone()])
            .map(|m| {
                let raw = String::from_utf8_lossy(&m.raw).to_string();
                raw.lines()
                    .find(|l| l.starts_with("Subject:"))
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        assert_eq!(
            subjects,
            ["Subject: Re: STRA r0", "Subject: Re: STRA r1"],
            "{to}"
        );
    }
}

/// A letter that keeps failing is given up after `outbox.max_attempts`, and the keeper is
/// told which letter and why.
#[test]
fn a_letter_given_up_after_its_attempts_is_reported_to_the_keeper() {
    let mut config = test_config();
    config.outbox.max_attempts = 3;
    let mut judge = Harness::with_config("give-up", config);
    let recorder = std::sync::Arc::new(std::sync::Mutex::new(RecordingTransport::new()));
    judge.daemon.transport = Box::new(Shared(recorder.clone()));
    let t0 = at("2027-01-05T12:00:00Z");
    judge.set_time(t0);
    recorder
        .lock()
        .unwrap()
        .fail_transiently_for("far@example.test", 100);
    judge.deliver(&mail("far@example.test", "hello", "g1@x", "HELP\n"));
    for hour in 1..=3 {
        judge.tick(t0 + Duration::hours(hour));
    }
    let sent = recorder.lock().unwrap().sent.clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].to, ["keeper@example.test"]);
    let notice = String::from_utf8_lossy(&sent[0].raw).replace("=\r\n", "");
    assert!(notice.contains("far@example.test"), "{notice}");
    assert!(
        crate::says(&notice, "given up after 3 attempts"),
        "{notice}"
    );
    let tx = judge.daemon.store.begin().unwrap();
    assert_eq!(tx.outbox_counts().unwrap(), (0, 1, 1));
}

#[test]
fn deadlines_are_shown_in_the_game_time_zone_across_daylight_saving() {
    use strategos::judge::deadline_text;
    use strategos::store::GameRow;
    let mut game = GameRow {
        id: 1,
        name: "g".into(),
        variant: "standard".into(),
        state: strategos::game::GameState::Active,
        created_by: 1,
        time_zone: "Europe/London".into(),
        movement_hours: 48,
        retreat_hours: 24,
        adjustment_hours: 24,
        reminder_hours: 12,
        position: None,
        deadline_at: Some(at("2027-01-05T12:00:00Z")),
        reminded: false,
        phase_serial: 0,
        settings: Default::default(),
        process_at: None,
    };
    assert_eq!(deadline_text(&game), "Tue 05 Jan 2027 12:00 GMT");
    game.deadline_at = Some(at("2027-07-05T12:00:00Z"));
    assert_eq!(deadline_text(&game), "Mon 05 Jul 2027 13:00 BST");
    game.time_zone = "Europe/Moscow".into();
    assert_eq!(deadline_text(&game), "Mon 05 Jul 2027 15:00 MSK");
    // The night the clocks go forward in London: 00:30 UTC is 00:30 GMT, 01:30 UTC is 02:30 BST.
    game.time_zone = "Europe/London".into();
    game.deadline_at = Some(at("2027-03-28T00:30:00Z"));
    assert_eq!(deadline_text(&game), "Sun 28 Mar 2027 00:30 GMT");
    game.deadline_at = Some(at("2027-03-28T01:30:00Z"));
    assert_eq!(deadline_text(&game), "Sun 28 Mar 2027 02:30 BST");
}

/// An observer tries every question there is: no letter shows a password, partial press,
/// or (in a game without white press) who plays which power.
#[test]
fn nothing_reveals_passwords_partial_press_or_hidden_identities() {
    let mut judge = Harness::new("leaks");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["alice@example.test", "bob@example.test", "eve@example.test"]);
    let letters = [
        (
            "alice@example.test",
            "CREATE ?dark alicepw1 tiny\nSET PREFERENCE N\n",
        ),
        ("bob@example.test", "SIGNON ?dark bobpw22\n"),
        (
            "alice@example.test",
            "SIGNON Ndark alicepw1\nSET GREY\nPRESS TO S\nthe plan is xyzzy\nENDPRESS\nF Nor - Mid\n",
        ),
        ("eve@example.test", "OBSERVE dark evepw333\n"),
        (
            "eve@example.test",
            "LIST\nLIST dark\nWHOIS alice@example.test\nWHOIS bob@example.test\nSUMMARY dark\nHISTORY dark\nGET index\n",
        ),
        (
            "eve@example.test",
            "SIGNON Ndark alicepw\nSIGNON ?dark evepw333\nPRESS TO N\nwho are you\nENDPRESS\n",
        ),
    ];
    let mut to_eve = Vec::new();
    let mut everything = Vec::new();
    for (i, (from, body)) in letters.iter().enumerate() {
        judge.deliver(&mail(from, "questions", &format!("leak{i}@x"), body));
        for letter in judge.take_sent() {
            let text = format!("{}\n{}", letter.subject, letter.body);
            if letter.to[0].email == "eve@example.test" {
                to_eve.push(text.clone());
            }
            everything.push(text);
        }
    }
    assert!(to_eve.len() >= 4, "eve got her answers: {to_eve:#?}");
    for text in &everything {
        for password in ["alicepw1", "bobpw22", "evepw333"] {
            assert!(!text.contains(password), "a password in a letter:\n{text}");
        }
    }
    for text in &to_eve {
        // Her own commands echoed back (`> WHOIS alice@...`) tell her nothing new.
        let told: String = text
            .lines()
            .filter(|l| !l.starts_with("> "))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!told.contains("xyzzy"), "eve read partial press:\n{told}");
        // No line ties a player's address to a power or to the game.
        for line in told.lines() {
            let names_player =
                line.contains("alice@example.test") || line.contains("bob@example.test");
            let names_seat = ["North", "South", "north", "south", "dark"]
                .iter()
                .any(|w| line.contains(w));
            assert!(
                !(names_player && names_seat),
                "eve learned who plays what: {line}\n{told}"
            );
        }
    }
    // Bob got the partial press, unsigned.
    assert!(
        everything
            .iter()
            .any(|t| t.contains("xyzzy") && t.contains("Press from someone"))
    );
}

#[test]
fn the_daemon_refreshes_the_archive_when_configured() {
    let mut config = test_config();
    let folder = std::env::temp_dir().join(format!("strategos-archive-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    config.paths.archive = Some(folder.clone());
    let mut judge = Harness::with_config("archive-refresh", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["alice@example.test", "bob@example.test"]);
    judge.deliver(&mail(
        "alice@example.test",
        "g",
        "ar1@x",
        "CREATE ?site apw tiny\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "g",
        "ar2@x",
        "SIGNON ?site bpw\n",
    ));
    judge.tick(at("2027-01-08T12:00:00Z"));
    let page = std::fs::read_to_string(folder.join("site/index.html"))
        .expect("the game's page is written");
    assert!(
        page.contains("Movement results for Spring of 240 BC."),
        "{page}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

/// One letter causes at most `limits.letters_to_others_per_letter` letters to other people,
/// and no letter the judge writes is larger than `limits.answer_bytes`: the answer says what
/// was left out.
#[test]
fn one_letter_causes_and_writes_only_so_much() {
    let mut config = test_config();
    config.limits.letters_to_others_per_letter = 5;
    config.limits.answer_bytes = 4096;
    let mut judge = Harness::with_config("bounded", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test", "bob@example.test"]);
    judge.deliver(&mail(
        "ann@example.test",
        "g",
        "b1@x",
        "CREATE ?talk annpw tiny\nSET PREFERENCE N\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "g",
        "b2@x",
        "SIGNON ?talk bobpw\n",
    ));
    judge.take_sent();
    let press: String = (1..=8)
        .map(|n| format!("PRESS TO S\nmessage {n}\nENDPRESS\n"))
        .collect();
    judge.deliver(&mail(
        "ann@example.test",
        "press",
        "b3@x",
        &format!("SIGNON Ntalk annpw\n{press}"),
    ));
    let sent = judge.take_sent();
    let to_bob = sent
        .iter()
        .filter(|l| l.to[0].email == "bob@example.test")
        .count();
    assert_eq!(to_bob, 5, "five of the eight press letters go");
    let answer = &sent[0];
    assert!(
        answer
            .body
            .contains("3 more letters this letter would have caused to other people were not sent"),
        "{}",
        answer.body
    );
    // A long answer is cut at a line's end, and says how much is not shown.
    judge.deliver(&mail(
        "ann@example.test",
        "help",
        "b4@x",
        "GET his\nGET master\nGET set\n",
    ));
    let sent = judge.take_sent();
    let body = &sent[0].body;
    assert!(body.len() <= 4096 + 200, "{} bytes", body.len());
    assert!(body.contains("more lines not shown"), "{body}");
}

/// LIST in a retreat phase shows each dislodged unit and where it may go, as njudge's
/// status lines do.
#[test]
fn list_in_a_retreat_phase_shows_the_retreats() {
    use strategos::diplomacy::position::Dislodgement;
    use strategos::diplomacy::turn::PhaseKind;
    use strategos::diplomacy::unit::{Unit, UnitKind};
    use strategos::store::{position_from_json, position_to_json};
    let mut judge = Harness::new("list-retreat");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test", "bob@example.test"]);
    judge.deliver(&mail(
        "ann@example.test",
        "g",
        "lr1@x",
        "CREATE ?back annpw tiny\nSET PREFERENCE N\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "g",
        "lr2@x",
        "SIGNON ?back bobpw\n",
    ));
    // The game as if South's army had just taken Northland from North's fleet.
    {
        let variants = crate::judge_harness::test_variants();
        let tiny = variants.iter().find(|v| v.id == "tiny").unwrap();
        let map = &tiny.map;
        let tx = judge.daemon.store.begin().unwrap();
        let mut game = tx.game_by_name("back").unwrap().unwrap();
        let mut position = position_from_json(tiny, game.position.as_deref().unwrap()).unwrap();
        let nor = map.province_by_id("nor").unwrap();
        let sou = map.province_by_id("sou").unwrap();
        position.turn.kind = PhaseKind::Retreat;
        let fleet = position.units.remove(0);
        assert_eq!(fleet.kind, UnitKind::Fleet);
        position.units = vec![Unit {
            power: map.power_by_id("south").unwrap(),
            kind: UnitKind::Army,
            region: map.regions_for(nor, UnitKind::Army)[0],
        }];
        position.dislodged = vec![Dislodgement {
            unit: fleet,
            attacker_from: sou,
            by_convoy: false,
        }];
        game.position = Some(position_to_json(map, &position));
        tx.save_game(&game).unwrap();
        tx.commit().unwrap();
    }
    judge.take_sent();
    judge.deliver(&mail("bob@example.test", "g", "lr3@x", "LIST back\n"));
    let sent = judge.take_sent();
    assert!(
        sent[0]
            .body
            .contains("North: Fleet Northland can retreat to Middle Sea."),
        "{}",
        sent[0].body
    );
}

/// The sent Maildir takes a round's letters together; a letter is marked sent only once it is
/// on disk in `new/`. When the Maildir cannot take them, none is marked sent, none is left in
/// `tmp/`, and each goes out in a later round.
#[test]
fn a_letter_is_marked_sent_only_once_the_sent_maildir_holds_it() {
    let mut judge = Harness::new("staged");
    let t0 = at("2027-01-05T12:00:00Z");
    judge.set_time(t0);
    let sent = judge.dir.0.join("sent");
    std::fs::remove_dir_all(sent.join("new")).unwrap();
    judge.deliver(&mail("ann@example.test", "one", "s1@x", "HELP\n"));
    judge.deliver(&mail("bob@example.test", "two", "s2@x", "HELP\n"));
    {
        let tx = judge.daemon.store.begin().unwrap();
        assert_eq!(
            tx.outbox_counts().unwrap(),
            (2, 0, 0),
            "not delivered, so not sent"
        );
    }
    assert_eq!(std::fs::read_dir(sent.join("tmp")).unwrap().count(), 0);
    std::fs::create_dir(sent.join("new")).unwrap();
    judge.tick(t0 + Duration::hours(1));
    let answered: Vec<String> = judge
        .take_sent()
        .iter()
        .flat_map(|l| l.to.iter().map(|a| a.email.clone()))
        .collect();
    assert_eq!(answered.len(), 2, "{answered:?}");
    assert!(answered.contains(&"ann@example.test".to_string()));
    assert!(answered.contains(&"bob@example.test".to_string()));
    let tx = judge.daemon.store.begin().unwrap();
    assert_eq!(tx.outbox_counts().unwrap(), (0, 2, 0));
    drop(tx);

    // The round's letters are staged, then settled, and only then marked sent.
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    judge.daemon.transport = Box::new(Watching {
        inner: strategos::mail::send::MaildirTransport::open(&sent).unwrap(),
        db: judge.dir.0.join("judge.db"),
        seen: seen.clone(),
    });
    judge.deliver(&mail("cy@example.test", "three", "s3@x", "HELP\n"));
    judge.deliver(&mail("di@example.test", "four", "s4@x", "HELP\n"));
    assert_eq!(
        *seen.borrow(),
        [(1, 2), (1, 3)],
        "at each settle, one letter staged and the letters before it alone marked sent"
    );
    assert_eq!(judge.take_sent().len(), 2);
}

/// The Maildir transport, noting at each settle how many letters it staged and how many the
/// outbox holds as sent.
struct Watching {
    inner: strategos::mail::send::MaildirTransport,
    db: std::path::PathBuf,
    seen: std::rc::Rc<std::cell::RefCell<Vec<(usize, i64)>>>,
}

impl Transport for Watching {
    fn send(
        &mut self,
        from: &str,
        to: &[String],
        raw: &[u8],
    ) -> Result<(), strategos::mail::send::SendError> {
        self.inner.send(from, to, raw)
    }

    fn stage(
        &mut self,
        from: &str,
        to: &[String],
        raw: &[u8],
    ) -> Result<(), strategos::mail::send::SendError> {
        let staged = self.seen.borrow().len();
        self.seen.borrow_mut().push((staged, -1));
        self.inner.stage(from, to, raw)
    }

    fn settle(&mut self) -> Result<(), strategos::mail::send::SendError> {
        let marked: i64 = rusqlite::Connection::open(&self.db)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM outbox WHERE state = 'sent'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let mut seen = self.seen.borrow_mut();
        let staged = seen.iter().filter(|(_, m)| *m == -1).count();
        seen.retain(|(_, m)| *m != -1);
        seen.push((staged, marked));
        drop(seen);
        self.inner.settle()
    }

    fn stages(&self) -> bool {
        true
    }
}

/// A letter on which the judge panics (an injected fault) does not stop the daemon: each
/// attempt is rolled back (the game it created is not there), the letters behind it are
/// answered at once, and after its third attempt it is quarantined with its reason, kept
/// whole, and its sender gets one answer saying so, in the sender's language.
#[test]
fn a_letter_that_panics_the_judge_is_set_aside_after_three_attempts() {
    use strategos::daemon::fault::{Fault, FaultKind};
    let mut judge = Harness::new("poison-panic");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.daemon.fault = Some(Fault {
        kind: FaultKind::Panic,
        marker: "POISON-PILL".into(),
    });
    judge.vouch(&["alice@example.test"]);
    judge.deliver_confirmed(
        "olga@example.test",
        &mail(
            "olga@example.test",
            "я",
            "p0@x",
            "REGISTER olgapw\nSET LANGUAGE ru\n",
        ),
    );
    judge.take_sent();
    let poison = mail(
        "alice@example.test",
        "poison",
        "p1@x",
        "CREATE ?poisoned secret1 tiny\nPOISON-PILL\n",
    );
    // The first attempt panics; the daemon goes on with the next letter in the same round.
    assert!(judge.daemon.accept(&poison, "test"), "stored");
    assert!(
        judge
            .daemon
            .accept(&mail("bob@example.test", "help", "p2@x", "HELP\n"), "test")
    );
    let mut rounds = 0;
    let mut letters: Vec<strategos::letter::IncomingLetter> = Vec::new();
    loop {
        judge.daemon.round();
        letters.extend(judge.take_sent());
        rounds += 1;
        let tx = judge.daemon.store.begin().unwrap();
        let stored = tx.stored_messages("p1@x").unwrap();
        assert_eq!(stored.len(), 1);
        assert!(
            tx.game_by_name("poisoned").unwrap().is_none(),
            "a failed attempt is rolled back"
        );
        if stored[0].state == "quarantined" {
            assert_eq!(stored[0].attempts, 3);
            let reason = stored[0].reason.clone().unwrap();
            assert!(
                reason.contains("did not finish in 3 attempt(s)"),
                "{reason}"
            );
            assert!(reason.contains("attempt 3: the judge panicked"), "{reason}");
            assert_eq!(stored[0].raw_state, "whole", "kept whole for the keeper");
            break;
        }
        assert_eq!(stored[0].state, "new");
        assert!(rounds < 5, "set aside within its attempts");
    }
    assert_eq!(rounds, 2, "attempts 2 and 3 in the next two rounds");
    let to = |who: &str| {
        letters
            .iter()
            .filter(|l| l.to[0].email == who)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        to("bob@example.test").len(),
        1,
        "the letter behind it is answered"
    );
    let alice = to("alice@example.test");
    assert_eq!(alice.len(), 1, "one answer to the poison's sender");
    assert!(alice[0].subject.contains("[Error Flag]"));
    assert!(
        crate::says(&alice[0].body, "broke off 3 times")
            && alice[0].body.contains("keeper@example.test"),
        "{}",
        alice[0].body
    );
    assert_eq!(alice[0].references, ["p1@x"]);
    // Nothing more comes of it, and later letters are handled as ever.
    judge.daemon.round();
    assert!(judge.take_sent().is_empty());
    judge.deliver(&mail(
        "olga@example.test",
        "я",
        "p3@x",
        "LIST\nPOISON-PILL\n",
    ));
    for _ in 0..3 {
        judge.daemon.round();
    }
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.contains("3 раза"), "{}", sent[0].body);
    let tx = judge.daemon.store.begin().unwrap();
    assert!(tx.unhandled_messages().unwrap().is_empty());
    assert_eq!(tx.quarantine().unwrap().len(), 2);
}

/// One letter sets at most five new passwords (each is an argon2 hash): a letter joining seven
/// games joins five, and says of the other two lines that they were not carried out.
#[test]
fn one_letter_sets_only_so_many_passwords() {
    let mut judge = Harness::new("passwords-set");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let creators = ["c1@example.test", "c2@example.test", "c3@example.test"];
    judge.vouch(&creators);
    judge.vouch(&["bob@example.test"]);
    for n in 0..7 {
        judge.deliver(&mail(
            creators[n / 3],
            "g",
            &format!("ps{n}@x"),
            &format!("CREATE ?many{n} pw{n} tiny\n"),
        ));
    }
    judge.take_sent();
    let joins: String = (0..7).map(|n| format!("SIGNON ?many{n} bobpw\n")).collect();
    judge.deliver(&mail("bob@example.test", "join", "psb@x", &joins));
    let answer = judge
        .take_sent()
        .into_iter()
        .find(|l| l.to[0].email == "bob@example.test")
        .expect("an answer");
    assert_eq!(
        answer
            .body
            .matches("only 5 new passwords are set from one letter")
            .count(),
        2,
        "{}",
        answer.body
    );
    let tx = judge.daemon.store.begin().unwrap();
    let bob = tx.player_by_email("bob@example.test").unwrap().unwrap();
    let joined = (0..7)
        .filter(|n| {
            let game = tx.game_by_name(&format!("many{n}")).unwrap().unwrap();
            tx.members(game.id)
                .unwrap()
                .iter()
                .any(|m| m.player_id == bob.id)
        })
        .count();
    assert_eq!(joined, 5);
}

/// One letter's order lines are read up to `limits.order_lines_per_letter`, all its blocks
/// together; the answer says how many more were not read, and echoes none of them.
#[test]
fn one_letter_gives_only_so_many_order_lines() {
    let mut config = test_config();
    config.limits.order_lines_per_letter = 3;
    let mut judge = Harness::with_config("order-lines", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test", "bob@example.test"]);
    judge.deliver(&mail(
        "ann@example.test",
        "g",
        "ol1@x",
        "CREATE ?lines annpw tiny\nSET PREFERENCE N\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "g",
        "ol2@x",
        "SIGNON ?lines bobpw\n",
    ));
    judge.take_sent();
    judge.deliver(&mail(
        "ann@example.test",
        "orders",
        "ol3@x",
        "SIGNON Nlines annpw\nF nor H\nF nor H\n\nLIST\nF nor H\nF nor - mid\nF nor - sou\n",
    ));
    let answer = judge.take_sent().remove(0);
    assert!(
        answer
            .body
            .contains("This letter holds 2 more order lines than the 3 the judge reads"),
        "{}",
        answer.body
    );
    assert!(!answer.body.contains("nor - mid"), "{}", answer.body);
    assert!(!answer.body.contains("nor - sou"), "{}", answer.body);
}

/// Every letter about a game carries the game's subject prefix (`STRA:game - S0240M`) and
/// refers to the game's thread, so one filter catches a game and mail readers thread it.
#[test]
fn a_game_s_letters_share_one_prefix_and_one_thread() {
    let mut judge = Harness::new("thread");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test", "bob@example.test"]);
    judge.deliver(&mail(
        "ann@example.test",
        "new game",
        "t1@x",
        "CREATE ?weave annpw tiny\nSET PREFERENCE N\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "join",
        "t2@x",
        "SIGNON ?weave bobpw\n",
    ));
    judge.deliver(&mail(
        "ann@example.test",
        "orders",
        "t3@x",
        "SIGNON Nweave annpw\nF nor H\nBROADCAST\nhello\nENDPRESS\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "orders",
        "t4@x",
        "SIGNON Sweave bobpw\nA sou H\n",
    ));
    let sent = judge.take_sent();
    let about_game: Vec<_> = sent
        .iter()
        .filter(|l| l.subject.contains("STRA:weave - "))
        .collect();
    let subjects: Vec<&str> = about_game.iter().map(|l| l.subject.as_str()).collect();
    for wanted in [
        "STRA:weave - S0240M Game Starting",
        "Re: STRA:weave - S0240M orders",
        "STRA:weave - S0240M Broadcast from North",
        "STRA:weave - S0240M Results",
    ] {
        assert!(subjects.contains(&wanted), "{wanted} in {subjects:#?}");
    }
    let root = about_game[0].references.first().cloned().expect("a thread");
    assert!(root.starts_with("game."), "{root}");
    for letter in &about_game {
        assert!(
            letter.references.contains(&root),
            "{}: {:?}",
            letter.subject,
            letter.references
        );
    }
    // The answer to the letter also refers to the letter it answers.
    let answer = about_game
        .iter()
        .find(|l| l.subject == "Re: STRA:weave - S0240M orders")
        .unwrap();
    assert!(
        answer.references.contains(&"t3@x".to_string()),
        "{:?}",
        answer.references
    );
}

/// An attachment's body is stored once and referred to from the letters that carry it; a
/// letter read from the outbox is whole. Bytes in a letter that merely look like a reference
/// (a forged subject or press could carry them) are never replaced by another letter's file.
#[test]
fn only_the_judges_own_references_in_the_outbox_are_made_whole() {
    use strategos::mail::compose::Composed;
    let mut judge = Harness::new("parts");
    let now = at("2027-01-05T12:00:00Z");
    let secret = b"a private game's picture".to_vec();
    let tx = judge.daemon.store.begin().unwrap();
    let carrying = Composed {
        raw: b"Subject: picture\r\n\r\nbefore PLACE after\r\n".to_vec(),
        parts: vec![(b"PLACE".to_vec(), secret.clone())],
    };
    tx.enqueue(
        "carrying@x",
        &["ann@example.test".into()],
        &carrying,
        None,
        now,
    )
    .unwrap();
    tx.enqueue(
        "again@x",
        &["bob@example.test".into()],
        &carrying,
        None,
        now,
    )
    .unwrap();
    // The part's id is the first; a letter forged to hold a reference to it.
    let forged = Composed {
        raw: b"Subject: \0part:1\0\r\n\r\n\0part:1\0\r\n".to_vec(),
        parts: Vec::new(),
    };
    tx.enqueue("forged@x", &["eve@example.test".into()], &forged, None, now)
        .unwrap();
    let letters: Vec<Vec<u8>> = (1..=3)
        .map(|id| tx.outbox_letter(id).unwrap().unwrap().raw)
        .collect();
    tx.commit().unwrap();
    let whole = b"Subject: picture\r\n\r\nbefore a private game's picture after\r\n".to_vec();
    assert_eq!(letters[0], whole);
    assert_eq!(letters[1], whole);
    assert_eq!(letters[2], forged.raw, "left as it stands");
    let db = rusqlite::Connection::open(judge.dir.0.join("judge.db")).unwrap();
    let (parts, kept): (i64, i64) = db
        .query_row(
            "SELECT (SELECT COUNT(*) FROM outbox_parts), MAX(length(raw)) FROM outbox",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(parts, 1, "stored once for both letters");
    assert!((kept as usize) < whole.len() + 10);

    // Thirty days on, a body is removed only once every letter queued with it is settled;
    // the letters then read with an empty attachment.
    let month = now + chrono::Duration::days(31) - chrono::Duration::days(30);
    let tx = judge.daemon.store.begin().unwrap();
    tx.mark_sent(1, now).unwrap();
    tx.mark_sent(2, now).unwrap();
    assert_eq!(
        tx.purge_sent_parts(month, 100).unwrap(),
        0,
        "a letter queued with it still waits"
    );
    tx.mark_sent(3, now).unwrap();
    assert_eq!(tx.purge_sent_parts(now, 100).unwrap(), 0, "not yet old");
    assert_eq!(tx.purge_sent_parts(month, 100).unwrap(), 1);
    assert_eq!(
        tx.outbox_letter(1).unwrap().unwrap().raw,
        b"Subject: picture\r\n\r\nbefore  after\r\n"
    );
    tx.commit().unwrap();
}

/// The token of another live judge process, as a claim names it: pid 1 (init, alive as long
/// as the machine), with its start time.
fn another_live_process() -> String {
    let init = std::fs::read_to_string("/proc/1/stat").unwrap();
    let started = init[init.rfind(')').unwrap() + 1..]
        .split_whitespace()
        .nth(19)
        .unwrap()
        .to_string();
    format!("1-{started}")
}

/// Two letters from one player piped at once are answered by two `strategos deliver`
/// processes. The later answer waits while the other process sends the earlier one (letters
/// to one address leave in order); the process that queued it does not exit before it has
/// gone, for the other may already have exited and no `strategos run` may be there to send
/// it. A letter still held when the waiting is over stays queued for the next round.
#[test]
fn deliver_sends_an_answer_held_behind_another_process_before_it_exits() {
    let mut judge = Harness::new("held-behind");
    let now = at("2027-01-05T12:00:00Z");
    judge.set_time(now);
    let queue = |judge: &mut Harness, to: &str, subject: &str| {
        let letter = strategos::letter::OutgoingLetter::fresh(to, subject, "text\n");
        let tx = judge.daemon.store.begin().unwrap();
        strategos::daemon::Daemon::queue(&judge.daemon.judge, &tx, &letter, None, now).unwrap();
        tx.commit().unwrap();
    };
    queue(&mut judge, "dora@example.test", "first answer");
    // The other process claimed the first answer and is sending it.
    let mut other = strategos::store::Store::open(&judge.dir.0.join("judge.db")).unwrap();
    let tx = other.begin().unwrap();
    let first = tx.outbox_queue(now).unwrap()[0].id;
    assert!(
        tx.claim_outbox(first, now, &another_live_process(), None)
            .unwrap()
    );
    tx.commit().unwrap();
    queue(&mut judge, "dora@example.test", "second answer");
    queue(&mut judge, "emil@example.test", "to someone else");
    judge.daemon.flush();
    let sent = judge.take_sent();
    assert_eq!(
        sent.iter().map(|l| l.subject.as_str()).collect::<Vec<_>>(),
        ["to someone else"],
        "the second answer does not overtake the first"
    );
    // The other process sends the first answer while this one pauses.
    let mut pauses = 0;
    let went = judge.daemon.send_before_leaving(100, &mut || {
        pauses += 1;
        let tx = other.begin().unwrap();
        tx.mark_sent(first, now).unwrap();
        tx.commit().unwrap();
    });
    assert_eq!((went, pauses), (1, 1));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].subject, "second answer");

    // A claim that is not settled in time: the waiting ends, and the letter stays queued.
    queue(&mut judge, "dora@example.test", "third answer");
    let third = other.begin().unwrap().outbox_queue(now).unwrap()[0].id;
    let tx = other.begin().unwrap();
    assert!(
        tx.claim_outbox(third, now, &another_live_process(), None)
            .unwrap()
    );
    tx.commit().unwrap();
    queue(&mut judge, "dora@example.test", "fourth answer");
    let mut pauses = 0;
    assert_eq!(judge.daemon.send_before_leaving(3, &mut || pauses += 1), 0);
    assert_eq!(pauses, 3);
    assert!(judge.take_sent().is_empty());
    let tx = other.begin().unwrap();
    tx.release_outbox(third).unwrap();
    tx.commit().unwrap();
    judge.daemon.flush();
    let sent = judge.take_sent();
    assert_eq!(
        sent.iter().map(|l| l.subject.as_str()).collect::<Vec<_>>(),
        ["third answer", "fourth answer"]
    );
    // Nothing held: no pause at all.
    let mut pauses = 0;
    assert_eq!(judge.daemon.send_before_leaving(3, &mut || pauses += 1), 0);
    assert_eq!(pauses, 0);
}

/// Two judge processes on one database (`strategos deliver` beside `strategos run`) never
/// send the same letter: a letter is claimed before it is sent, and one a live process claimed
/// is left to it; a claim of a process that is gone counts for nothing.
#[test]
fn a_letter_claimed_by_another_process_is_not_sent_twice() {
    let mut judge = Harness::new("claim");
    let now = at("2027-01-05T12:00:00Z");
    judge.set_time(now);
    let letter =
        strategos::letter::OutgoingLetter::fresh("dora@example.test", "one letter", "sent once\n");
    let tx = judge.daemon.store.begin().unwrap();
    strategos::daemon::Daemon::queue(&judge.daemon.judge, &tx, &letter, None, now).unwrap();
    tx.commit().unwrap();
    // Another live process (pid 1, init, started at boot) claims it first.
    let other = another_live_process();
    let mut store = strategos::store::Store::open(&judge.dir.0.join("judge.db")).unwrap();
    let tx = store.begin().unwrap();
    let queued: Vec<i64> = tx.outbox_queue(now).unwrap().iter().map(|q| q.id).collect();
    assert_eq!(queued.len(), 1);
    assert!(tx.claim_outbox(queued[0], now, &other, None).unwrap());
    assert!(
        !tx.claim_outbox(queued[0], now, "2-0", None).unwrap(),
        "one claim at a time"
    );
    tx.commit().unwrap();
    judge.daemon.flush();
    assert!(
        judge.take_sent().is_empty(),
        "a letter a live process claimed is not sent"
    );
    // A claim of a process that is gone: the letter goes, once.
    let tx = store.begin().unwrap();
    tx.release_outbox(queued[0]).unwrap();
    assert!(
        tx.claim_outbox(queued[0], now, "999999999-1", None)
            .unwrap()
    );
    tx.commit().unwrap();
    judge.daemon.flush();
    assert_eq!(judge.take_sent().len(), 1);
    judge.daemon.flush();
    assert!(judge.take_sent().is_empty(), "sent once");
}
