//! A Diadochi V game of three years played through the judge's mail handling: Macedonia
//! destroys Corinth and restores it, Rome lends supply to Egypt, Carthage meets the
//! two-fleet limit, Syria loses Armenia's supply for want of a garrison, and every report
//! is dated in the BC calendar.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use strategos::letter::IncomingLetter;

use crate::judge_harness::{Harness, mail};

struct Table {
    judge: Harness,
    now: DateTime<Utc>,
    /// power id → (player address, power letter)
    seats: HashMap<String, (String, char)>,
    serial: usize,
    reports: Vec<IncomingLetter>,
}

impl Table {
    fn send(&mut self, from: &str, body: &str) {
        self.serial += 1;
        self.judge.set_time(self.now);
        self.judge.deliver_confirmed(
            from,
            &mail(
                from,
                "anc",
                &format!("dg{}@example.test", self.serial),
                body,
            ),
        );
        self.keep_reports();
    }

    /// The power's orders, signed on with its password.
    fn orders(&mut self, power: &str, orders: &str) {
        let (address, letter) = self.seats[power].clone();
        let password = address.split('@').next().unwrap().to_string();
        self.send(
            &address,
            &format!("SIGNON {letter}anc {password}\n{orders}\n"),
        );
    }

    /// Three days pass: the phase's deadline comes and it is processed.
    fn deadline(&mut self) {
        self.now += Duration::days(3);
        self.judge.tick(self.now);
        self.keep_reports();
    }

    fn keep_reports(&mut self) {
        for letter in self.judge.take_sent() {
            if letter.subject.contains("results") && letter.to[0].email == "p1@example.test" {
                self.reports.push(letter);
            }
        }
    }

    fn report(&self, phase: &str) -> &str {
        let subject = format!("anc: {phase} results");
        &self
            .reports
            .iter()
            .find(|l| l.subject == subject)
            .unwrap_or_else(|| panic!("no report for {phase}"))
            .body
    }
}

#[test]
fn three_years_of_diadochi_by_mail() {
    let mut table = Table {
        judge: Harness::new("diadochi"),
        now: DateTime::parse_from_rfc3339("2027-01-04T09:00:00Z")
            .unwrap()
            .with_timezone(&Utc),
        seats: HashMap::new(),
        serial: 0,
        reports: Vec::new(),
    };
    table.send("p1@example.test", "CREATE ?anc p1 diadochi-v");
    for i in 2..=5 {
        table.send(&format!("p{i}@example.test"), &format!("SIGNON ?anc p{i}"));
    }
    // Who plays what, from the start notices the harness kept back.
    let tx = table.judge.daemon.store.begin().unwrap();
    let game = tx.game_by_name("anc").unwrap().unwrap();
    for member in tx.members(game.id).unwrap() {
        let power = member.power.unwrap();
        let letter = power.chars().next().unwrap().to_ascii_uppercase();
        table.seats.insert(power, (member.email, letter));
    }
    drop(tx);
    assert_eq!(table.seats.len(), 5);

    // Spring 240 BC.
    table.orders(
        "carthage",
        "F Car - Maf\nA Had - Lep\nA Nca - Sag\nA Gad - Ctb",
    );
    table.orders("egypt", "F Ale - Mae");
    table.orders("macedonia", "F Cor Z\nA Pel - Thr\nA Lar - Epi");
    table.orders("rome", "CREDIT 1 TO egypt");
    table.orders("syria", "A Arb - Arm");
    table.deadline();
    let spring = table.report("Spring 240 BC movement");
    assert!(
        spring.contains("Macedonia: Fleet Corinth DESTROY.  (*centre destroyed*)"),
        "{spring}"
    );
    assert!(
        spring.contains("Destroyed centres, supplying no one: Corinth."),
        "{spring}"
    );
    assert!(
        spring.contains("The next phase of 'anc' is Autumn 240 BC movement."),
        "{spring}"
    );

    // Autumn 240 BC: Macedonia starts restoring Corinth.
    table.orders("macedonia", "F Cor R");
    table.deadline();
    let autumn = table.report("Autumn 240 BC movement");
    assert!(
        autumn.contains("Macedonia: Fleet Corinth RESTORE.  (*restoring: one more turn*)"),
        "{autumn}"
    );
    assert!(
        autumn.contains("Being restored: Corinth (Macedonia, 1 of 2 turns)."),
        "{autumn}"
    );
    assert!(autumn.contains("Rome lends 1 supply to Egypt."), "{autumn}");
    assert!(
        autumn.contains("Syria: supply 4, units 3: builds 1."),
        "Armenia, garrisoned, counts: {autumn}"
    );
    assert!(
        autumn.contains("Rome: supply 4, units 4: no change."),
        "the lender keeps its units: {autumn}"
    );
    assert!(
        autumn.contains("Egypt: supply 3, units 3: builds 1."),
        "the borrower builds on credit: {autumn}"
    );

    // Winter 240 BC: builds, with Carthage's third fleet over the limit.
    table.orders("carthage", "Build F Car\nBuild F Gad\nBuild F Nca");
    table.orders("egypt", "Build A Ale");
    table.orders("macedonia", "Build A Pel");
    table.orders("syria", "Waive");
    let winter = table.report("Winter 240 BC adjustments");
    assert!(
        winter.contains("Carthage: Build Fleet New Carthage.  (*too many fleets this winter*)"),
        "{winter}"
    );
    assert!(winter.contains("Egypt: Build Army Alexandria."), "{winter}");
    assert!(
        winter.contains("Rome lends 1 supply to Egypt."),
        "credits in every adjustment report: {winter}"
    );
    assert!(
        winter.contains("The next phase of 'anc' is Spring 239 BC movement."),
        "{winter}"
    );

    // Spring 239 BC: Corinth restored; Syria's army leaves Armenia.
    table.orders("macedonia", "F Cor R");
    table.orders("syria", "A Arm - Cap");
    table.deadline();
    let spring = table.report("Spring 239 BC movement");
    assert!(
        spring.contains("Macedonia: Fleet Corinth RESTORE.  (*centre restored*)"),
        "{spring}"
    );
    assert!(!spring.contains("Destroyed centres"), "{spring}");

    // Autumn 239 BC: Armenia is Syria's but has no garrison, so it supplies nothing.
    table.deadline();
    let autumn = table.report("Autumn 239 BC movement");
    assert!(
        autumn.contains("Syria: Antioch, Armenia, Seleucia."),
        "{autumn}"
    );
    assert!(
        autumn.contains("Syria: supply 3, units 3: no change."),
        "{autumn}"
    );
    assert!(
        autumn.contains("Macedonia: supply 5, units 4: builds 1."),
        "Corinth supplies again: {autumn}"
    );
    table.deadline();
    let winter = table.report("Winter 239 BC adjustments");
    assert!(
        winter.contains("The next phase of 'anc' is Spring 238 BC movement."),
        "{winter}"
    );

    // 238 BC passes on deadlines.
    table.deadline();
    table.deadline();
    assert!(
        table
            .report("Spring 238 BC movement")
            .contains("Autumn 238 BC movement")
    );
    table.report("Autumn 238 BC movement");
}
