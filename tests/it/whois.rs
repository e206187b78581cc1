//! WHOIS by name against a crowd: accounts registered under a player's name cannot push that
//! player out of a fellow player's answer.

use crate::judge_harness::{Harness, mail};

#[test]
fn accounts_named_like_a_player_cannot_crowd_them_out_of_whois() {
    let mut judge = Harness::new("whois-crowd");
    judge.set_time("2027-01-05T12:00:00Z".parse().unwrap());
    let decoys: Vec<String> = (0..25).map(|n| format!("a{n:02}@crowd.test")).collect();
    let mut proven: Vec<&str> = vec!["alice@example.test", "bob@example.test"];
    proven.extend(decoys.iter().map(String::as_str));
    judge.vouch(&proven);
    let mut n = 0;
    let mut send = |judge: &mut Harness, from: &str, body: &str| {
        n += 1;
        judge.deliver(&mail(from, "whois", &format!("w{n}@x"), body));
        judge.take_sent()
    };
    // Registering waits for the address's own confirmation, whoever writes.
    send(
        &mut judge,
        "alice@example.test",
        "REGISTER alicepw Dave Dunn\nCREATE ?open alicepw tiny",
    );
    judge.confirm("alice@example.test");
    send(&mut judge, "bob@example.test", "SIGNON ?open bobpw");
    // A stranger registers 25 accounts under Alice's name, each address sorting before
    // hers, and puts one of them in a game of its own.
    for decoy in &decoys {
        send(&mut judge, decoy, "REGISTER decoypw Dave Dunn");
        judge.confirm(decoy);
    }
    send(&mut judge, &decoys[0], "CREATE ?decoy decoypw tiny");
    let answer = send(&mut judge, "bob@example.test", "WHOIS Dave Dunn");
    let to_bob = answer
        .iter()
        .find(|l| l.to[0].email == "bob@example.test")
        .expect("an answer to Bob");
    assert!(
        to_bob.body.contains("Dave Dunn\n  game 'open': "),
        "{}",
        to_bob.body
    );
}
