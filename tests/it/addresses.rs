//! An account's several addresses (`I AM ALSO`, `I AM NOT`, `SET ADDRESS` to one of them):
//! the bound on how many, an address that only ever confirmed giving way, a game's allow
//! list naming the account by any of its addresses, and each address's own answers.

use crate::judge_harness::{Harness, mail, test_config};
use strategos::letter::IncomingLetter;

fn at(text: &str) -> chrono::DateTime<chrono::Utc> {
    text.parse().unwrap()
}

/// Delivers a letter and returns what the judge sent.
fn send(judge: &mut Harness, from: &str, id: &str, body: &str) -> Vec<IncomingLetter> {
    judge.deliver(&mail(from, "addresses", id, body));
    judge.take_sent()
}

/// The body of the letter to `to` among `sent`.
fn to<'a>(sent: &'a [IncomingLetter], to: &str) -> &'a str {
    &sent
        .iter()
        .find(|l| l.to[0].email == to)
        .unwrap_or_else(|| panic!("no letter to {to}: {sent:#?}"))
        .body
}

#[test]
fn an_account_has_at_most_so_many_addresses() {
    let mut config = test_config();
    config.limits.addresses_per_account = 2;
    let mut judge = Harness::with_config("addresses-most", config);
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test"]);
    send(&mut judge, "ann@example.test", "m1@x", "REGISTER annpw Ann");
    judge.confirm("ann@example.test");
    send(
        &mut judge,
        "ann@example.test",
        "m2@x",
        "I AM ALSO ann@home.example.test annpw",
    );
    judge.confirm("ann@home.example.test");
    judge.take_sent();
    // A day later, a third address is one too many: nothing is mailed to it.
    judge.set_time(at("2027-01-06T13:00:00Z"));
    let sent = send(
        &mut judge,
        "ann@example.test",
        "m3@x",
        "I AM ALSO ann@work.example.test annpw",
    );
    assert!(
        to(&sent, "ann@example.test").contains("an account has at most 2 addresses"),
        "{sent:#?}"
    );
    assert_eq!(sent.len(), 1, "{sent:#?}");
    // The chosen address stays; a further one may go, and then the third comes in.
    let sent = send(
        &mut judge,
        "ann@home.example.test",
        "m4@x",
        "I AM NOT ann@example.test annpw",
    );
    assert!(
        to(&sent, "ann@home.example.test").contains("is where your game letters go"),
        "{sent:#?}"
    );
    let sent = send(
        &mut judge,
        "ann@example.test",
        "m5@x",
        "I AM NOT ann@home.example.test annpw\nI AM ALSO ann@work.example.test annpw",
    );
    let answer = to(&sent, "ann@example.test");
    assert!(
        answer.contains("ann@home.example.test is no longer an address of your account"),
        "{answer}"
    );
    assert!(to(&sent, "ann@work.example.test").contains("CONFIRM "));
    // Letters from the removed address no longer act for the account.
    let sent = send(
        &mut judge,
        "ann@home.example.test",
        "m6@x",
        "WHOIS ann@home.example.test",
    );
    assert!(
        !to(&sent, "ann@home.example.test").contains("Your account's addresses"),
        "{sent:#?}"
    );
}

#[test]
fn an_address_that_only_ever_confirmed_joins_an_account_and_one_with_a_seat_does_not() {
    let mut judge = Harness::new("addresses-bare");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["ann@example.test", "bob@example.test"]);
    send(
        &mut judge,
        "ann@example.test",
        "b1@x",
        "CREATE ?bare annpw tiny\nSET PREFERENCE N",
    );
    send(&mut judge, "bob@example.test", "b2@x", "SIGNON ?bare bobpw");
    // Ann's work address once chose a language: a row of its own, and nothing more.
    send(
        &mut judge,
        "ann@work.example.test",
        "b3@x",
        "SET LANGUAGE en",
    );
    let sent = send(
        &mut judge,
        "ann@example.test",
        "b4@x",
        "SIGNON Nbare annpw\nI AM ALSO ann@work.example.test",
    );
    assert!(to(&sent, "ann@work.example.test").contains("CONFIRM "));
    judge.confirm("ann@work.example.test");
    let sent = judge.take_sent();
    assert!(
        to(&sent, "ann@work.example.test")
            .contains("ann@work.example.test is now an address of your account"),
        "{sent:#?}"
    );
    // From work, Ann's seat answers to her work address, and WHOIS shows her account.
    let sent = send(
        &mut judge,
        "ann@work.example.test",
        "b5@x",
        "SIGNON ?bare annpw\nWHOIS ann@work.example.test",
    );
    assert!(
        to(&sent, "ann@work.example.test").contains("game 'bare'"),
        "{sent:#?}"
    );
    // Bob's address has a seat: a day later Ann asks for it, and Bob's confirming keeps it his.
    judge.set_time(at("2027-01-06T13:00:00Z"));
    send(
        &mut judge,
        "ann@example.test",
        "b6@x",
        "SIGNON Nbare annpw\nI AM ALSO bob@example.test",
    );
    judge.confirm("bob@example.test");
    let sent = judge.take_sent();
    assert!(
        to(&sent, "bob@example.test").contains("has an account of its own here"),
        "{sent:#?}"
    );
    let sent = send(
        &mut judge,
        "bob@example.test",
        "b7@x",
        "WHOIS bob@example.test",
    );
    assert!(
        to(&sent, "bob@example.test")
            .contains("Your account's addresses: bob@example.test. Game letters go to"),
        "{sent:#?}"
    );
}

#[test]
fn a_games_allow_list_names_an_account_by_any_of_its_addresses() {
    let mut judge = Harness::new("addresses-allow");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&["gm@example.test", "ann@example.test", "carol@example.test"]);
    send(&mut judge, "ann@example.test", "a1@x", "REGISTER annpw Ann");
    judge.confirm("ann@example.test");
    send(
        &mut judge,
        "ann@example.test",
        "a2@x",
        "I AM ALSO ann@home.example.test annpw",
    );
    judge.confirm("ann@home.example.test");
    send(
        &mut judge,
        "gm@example.test",
        "a3@x",
        "CREATE ?club gmpw tiny MODERATED PRIVATE\nSET ALLOW PLAYER ann@example.test",
    );
    judge.take_sent();
    // The list keeps others out...
    let sent = send(
        &mut judge,
        "carol@example.test",
        "a5@x",
        "SIGNON ?club carolpw",
    );
    assert!(
        !to(&sent, "carol@example.test").contains("You have joined"),
        "{sent:#?}"
    );
    // ...and lets Ann in from her home address.
    let sent = send(
        &mut judge,
        "ann@home.example.test",
        "a4@x",
        "SIGNON ?club annpw",
    );
    assert!(
        to(&sent, "ann@home.example.test").contains("You have joined game 'club'"),
        "{sent:#?}"
    );
}
