//! A Diadochi V game of three years played through the judge's mail handling: Macedonia
//! destroys Corinth and restores it, Rome lends supply to Egypt, Carthage meets the
//! two-fleet limit, Syria loses Armenia's supply for want of a garrison, and every report
//! is dated in the BC calendar.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use strategos::diplomacy::unit::{Unit, UnitKind};
use strategos::letter::IncomingLetter;
use strategos::store::{position_from_json, position_to_json};
use strategos::variant;

use crate::judge_harness::Harness;

use crate::judge_harness::mail;

struct Table {
    judge: Harness,
    now: DateTime<Utc>,
    /// power id → (player address, power letter)
    seats: HashMap<String, (String, char)>,
    serial: usize,
    reports: Vec<IncomingLetter>,
    /// The judge's answer to the last letter sent.
    answer: String,
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
        self.answer = self
            .judge
            .peek_sent()
            .iter()
            .rev()
            .find(|l| l.to[0].email == from && l.subject.starts_with("Re:"))
            .map(|l| l.body.clone())
            .unwrap_or_default();
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
            if letter.subject.ends_with(" Results") && letter.to[0].email == "p1@example.test" {
                self.reports.push(letter);
            }
        }
    }

    /// The results letter of `phase` (`Spring 240 BC movement`), by its classic subject
    /// (`STRA:anc - S0240M Results`).
    fn report(&self, phase: &str) -> &str {
        let words: Vec<&str> = phase.split_whitespace().collect();
        let season = if words[0] == "Spring" { 'S' } else { 'F' };
        let kind = match *words.last().unwrap() {
            "movement" => 'M',
            "retreats" => 'R',
            _ => 'B',
        };
        let year: u32 = words[1].parse().unwrap();
        let subject = format!("STRA:anc - {season}{year:04}{kind} Results");
        &self
            .reports
            .iter()
            .find(|l| l.subject == subject)
            .unwrap_or_else(|| panic!("no report for {phase}"))
            .body
    }
}

impl Table {
    /// Game `anc` of Diadochi V with its five players, in Spring 240 BC.
    fn start(tag: &str) -> Table {
        let mut table = Table {
            judge: Harness::new(tag),
            now: DateTime::parse_from_rfc3339("2027-01-04T09:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
            seats: HashMap::new(),
            serial: 0,
            reports: Vec::new(),
            answer: String::new(),
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
        table
    }

    /// Sets the board of the game's current phase, as a game that came to it would have it:
    /// `units` as `power kind province` (`rome A dal`), `owners` as `power province...`.
    fn set_board(&mut self, units: &[&str], owners: &[&str], destroyed: &[&str]) {
        let variant = variant::embedded()
            .unwrap()
            .into_iter()
            .find(|v| v.id == "diadochi-v")
            .unwrap();
        let map = &variant.map;
        let tx = self.judge.daemon.store.begin().unwrap();
        let mut game = tx.game_by_name("anc").unwrap().unwrap();
        let mut position = position_from_json(&variant, game.position.as_deref().unwrap()).unwrap();
        position.units = units
            .iter()
            .map(|u| {
                let words: Vec<&str> = u.split_whitespace().collect();
                let kind = if words[1] == "F" {
                    UnitKind::Fleet
                } else {
                    UnitKind::Army
                };
                let province = map.province_by_id(words[2]).unwrap();
                Unit {
                    power: map.power_by_id(words[0]).unwrap(),
                    kind,
                    region: map.regions_for(province, kind)[0],
                }
            })
            .collect();
        position.owners = vec![None; map.n_provinces()];
        for line in owners {
            let mut words = line.split_whitespace();
            let power = map.power_by_id(words.next().unwrap()).unwrap();
            for id in words {
                position.owners[map.province_by_id(id).unwrap().index()] = Some(power);
            }
        }
        position.destroyed = destroyed
            .iter()
            .map(|id| map.province_by_id(id).unwrap())
            .collect();
        game.position = Some(position_to_json(map, &position));
        tx.save_game(&game).unwrap();
        tx.commit().unwrap();
    }

    fn game_state(&mut self) -> String {
        let tx = self.judge.daemon.store.begin().unwrap();
        tx.game_by_name("anc")
            .unwrap()
            .unwrap()
            .state
            .as_str()
            .to_string()
    }
}

#[test]
fn three_years_of_diadochi_by_mail() {
    let mut table = Table::start("diadochi");

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
        crate::says(
            spring,
            "Macedonia: Fleet Corinth DESTROY: center destroyed."
        ),
        "{spring}"
    );
    assert!(
        crate::says(spring, "Destroyed centers, supplying no one: Corinth."),
        "{spring}"
    );
    assert!(
        crate::says(
            spring,
            "The next phase of 'anc' will be Movement for Autumn of 240 BC."
        ),
        "{spring}"
    );

    // Autumn 240 BC: Macedonia starts restoring Corinth.
    table.orders("macedonia", "F Cor R");
    table.deadline();
    let autumn = table.report("Autumn 240 BC movement");
    assert!(
        crate::says(
            autumn,
            "Macedonia: Fleet Corinth RESTORE: restoring: one more turn."
        ),
        "{autumn}"
    );
    assert!(
        crate::says(autumn, "Being restored: Corinth (Macedonia, 1 of 2 turns)."),
        "{autumn}"
    );
    assert!(
        crate::says(autumn, "Rome lends 1 supply to Egypt."),
        "{autumn}"
    );
    assert!(
        autumn.contains("Syria:     4 Supply centers,  3 Units:  Builds   1 unit."),
        "Armenia, garrisoned, counts: {autumn}"
    );
    assert!(
        crate::says(autumn, "Rome: supply 4, lent 1, units 4: no change."),
        "the lender keeps its units: {autumn}"
    );
    assert!(
        crate::says(autumn, "Egypt: supply 3, borrowed 1, units 3: builds 1."),
        "the borrower builds on credit: {autumn}"
    );
    assert!(
        crate::says(
            autumn,
            "Build-only cities (they supply no one; whoever controls one may build there): \
             Athens (no one), Jerusalem (no one), Sidon (no one)."
        ),
        "{autumn}"
    );

    // Winter 240 BC: builds, with Carthage's third fleet over the limit.
    table.orders("carthage", "Build F Car\nBuild F Gad\nBuild F Nca");
    assert!(
        crate::says(
            &table.answer,
            "Note: line 4: F NCA B will not be carried out as your orders stand: no power builds \
             more than 2 fleets in one winter, and the fleet builds before it use them up (rule 9)."
        ),
        "the third fleet is warned of when sent: {}",
        table.answer
    );
    table.orders("egypt", "Build A Ale");
    table.orders("macedonia", "Build A Pel");
    table.orders("syria", "Waive");
    let winter = table.report("Winter 240 BC adjustments");
    assert!(
        crate::says(
            winter,
            "Carthage: Build Fleet New Carthage: too many fleets this winter."
        ),
        "{winter}"
    );
    assert!(
        winter.contains("Egypt:                    Builds an army in Alexandria."),
        "{winter}"
    );
    assert!(
        crate::says(winter, "Rome lends 1 supply to Egypt."),
        "credits in every adjustment report: {winter}"
    );
    assert!(
        crate::says(
            winter,
            "The next phase of 'anc' will be Movement for Spring of 239 BC."
        ),
        "{winter}"
    );

    // Spring 239 BC: Corinth restored; Syria's army leaves Armenia.
    table.orders("macedonia", "F Cor R");
    table.orders("syria", "A Arm - Cap");
    table.deadline();
    let spring = table.report("Spring 239 BC movement");
    assert!(
        crate::says(spring, "Macedonia: Fleet Corinth RESTORE: center restored."),
        "{spring}"
    );
    assert!(!crate::says(spring, "Destroyed centers"), "{spring}");

    // Autumn 239 BC: Armenia is Syria's but has no garrison, so it supplies nothing.
    table.deadline();
    let autumn = table.report("Autumn 239 BC movement");
    assert!(
        autumn.contains("Syria:     Antioch, Armenia, Seleucia."),
        "{autumn}"
    );
    assert!(
        autumn.contains("Syria:     3 Supply centers,  3 Units:  Builds   0 units."),
        "{autumn}"
    );
    assert!(
        crate::says(
            autumn,
            "Armenia (Syria) supplies nothing this year: no unit of Syria stands in it this \
             winter, and a rebellion center counts only while garrisoned (rule 5)."
        ),
        "{autumn}"
    );
    assert!(
        autumn.contains("Macedonia: 5 Supply centers,  4 Units:  Builds   1 unit."),
        "Corinth supplies again: {autumn}"
    );
    table.deadline();
    let winter = table.report("Winter 239 BC adjustments");
    assert!(
        crate::says(
            winter,
            "The next phase of 'anc' will be Movement for Spring of 238 BC."
        ),
        "{winter}"
    );

    // 238 BC passes on deadlines.
    table.deadline();
    table.deadline();
    assert!(
        table
            .report("Spring 238 BC movement")
            .contains("Movement for Autumn of 238 BC")
    );
    table.report("Autumn 238 BC movement");
}

/// Rome's 24 supply: Rome (3), five double centres and ten single ones, with Illyria, a
/// rebellion centre, Roman but ungarrisoned.
const ROME_24: &str =
    "rome rom nea car ale ant syr bab cis mas srd lil cre cyr lep num sag ctb ill";

#[test]
fn victory_waits_for_the_end_of_the_year() {
    // Rule 5: rebellion centres count when garrisoned in winter; victory, like ownership,
    // belongs to the end of the year, not to a spring move.
    let mut table = Table::start("diadochi-victory");
    table.set_board(
        &[
            "rome A dal",
            "syria A dam",
            "egypt F mae",
            "carthage A gad",
            "macedonia A pel",
        ],
        &[
            ROME_24,
            "syria dam",
            "egypt mem",
            "carthage gad",
            "macedonia pel",
        ],
        &[],
    );
    table.orders("rome", "A Dal - Ill");
    table.deadline();
    let spring = table.report("Spring 240 BC movement");
    assert!(
        crate::says(spring, "Rome: Army Dalmatia -> Illyria."),
        "{spring}"
    );
    assert!(!crate::says(spring, "has won"), "{spring}");
    assert!(
        crate::says(
            spring,
            "The next phase of 'anc' will be Movement for Autumn of 240 BC."
        ),
        "{spring}"
    );
    assert_eq!(table.game_state(), "active");
    // The garrison still stands when the autumn is over: 25 supply, and Rome wins.
    table.deadline();
    let autumn = table.report("Autumn 240 BC movement");
    assert!(crate::says(autumn, "Rome has won the game."), "{autumn}");
    assert_eq!(table.game_state(), "finished");

    // What players see counts what victory counts: the supply, with the centres beside it.
    table.send("p9@example.test", "SUMMARY anc");
    assert!(
        crate::says(
            &table.answer,
            "Supply at the end of each year, with the supply centers owned in brackets:\n\
             \x20             240 BC\n\
             \x20 Carthage     1 (1)\n\
             \x20 Egypt        1 (1)\n\
             \x20 Macedonia    1 (1)\n\
             \x20 Rome       25 (18)\n\
             \x20 Syria        1 (1)\n"
        ),
        "{}",
        table.answer
    );
    let config = table.judge.dir.0.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[paths]\ndatabase = \"{}\"\n",
            table.judge.dir.0.join("judge.db").display()
        ),
    )
    .unwrap();
    let show = std::process::Command::new(env!("CARGO_BIN_EXE_strategos"))
        .arg("--config")
        .arg(&config)
        .args(["game", "show", "anc"])
        .output()
        .unwrap();
    let show = String::from_utf8_lossy(&show.stdout);
    assert!(
        show.contains("Phase: Adjustments for Winter of 240 BC\n"),
        "the game ends on the board of the year's reckoning: {show}"
    );
    assert!(
        show.contains("  Rome: supply 25, centers 18 (Alexandria, "),
        "{show}"
    );
}

#[test]
fn a_power_cannot_lend_to_itself_through_another() {
    // Rule 8: credit from another power, passed on to a third party.
    let mut table = Table::start("diadochi-self-credit");
    table.orders("macedonia", "CREDIT 1 TO syria");
    assert!(
        crate::says(&table.answer, "Macedonia lends 1 supply to Syria."),
        "{}",
        table.answer
    );
    table.orders("syria", "CREDIT PASS 1 TO macedonia");
    assert!(
        crate::says(
            &table.answer,
            "Syria has 0 supply of credit it may pass on to Macedonia, not 1: credit is passed \
             on only to a third party, never back to the power that lent it (rule 8)"
        ),
        "{}",
        table.answer
    );
    table.orders("macedonia", "CREDIT 1 TO macedonia");
    assert!(
        crate::says(&table.answer, "Macedonia cannot lend to itself"),
        "{}",
        table.answer
    );
}

#[test]
fn credit_lapses_when_its_borrower_owns_no_centre_and_the_report_says_why() {
    let mut table = Table::start("diadochi-lapse");
    table.orders("rome", "CREDIT 2 TO egypt");
    assert!(
        crate::says(&table.answer, "Rome lends 2 supply to Egypt."),
        "{}",
        table.answer
    );
    // Egypt keeps its units but loses every centre before the autumn is over.
    table.set_board(
        &[
            "rome F rom",
            "rome F nea",
            "egypt A pto",
            "egypt F mae",
            "syria F ant",
        ],
        &["rome rom nea", "syria ant"],
        &[],
    );
    table.deadline();
    table.deadline();
    let autumn = table.report("Autumn 240 BC movement");
    assert!(
        crate::says(
            autumn,
            "Rome's credit of 2 to Egypt lapses: Egypt owns no supply center \
             that supplies it this winter, and only a power owning a center may have credit \
             (rule 8)."
        ),
        "{autumn}"
    );
    assert!(
        autumn.contains("Egypt:     0 Supply centers,  2 Units:  Removes  2 units."),
        "the borrowed units go: {autumn}"
    );
    assert!(!crate::says(autumn, "Rome lends"), "{autumn}");
}

#[test]
fn an_eliminated_power_neither_shares_nor_votes_a_draw() {
    // Rule 6: a destroyed centre is useless; Macedonia, with no unit, is out of the game.
    let mut table = Table::start("diadochi-draw");
    table.set_board(
        &["rome F rom", "egypt F ale", "carthage F car", "syria F ant"],
        &[
            "rome rom",
            "egypt ale",
            "carthage car",
            "syria ant",
            "macedonia cor",
        ],
        &["cor"],
    );
    // A game where draws may leave survivors out (NO DIAS): every survivor names the same
    // powers, Macedonia among them, and Macedonia shares nothing.
    {
        let tx = table.judge.daemon.store.begin().unwrap();
        let mut game = tx.game_by_name("anc").unwrap().unwrap();
        game.settings.dias = false;
        tx.save_game(&game).unwrap();
        tx.commit().unwrap();
    }
    for power in ["rome", "egypt", "carthage", "syria"] {
        assert_eq!(table.game_state(), "active", "{power} has not voted yet");
        table.orders(power, "SET DRAW carthage egypt macedonia rome syria");
    }
    assert!(
        table.answer.contains(
            "Game 'anc' has been declared a draw between Carthage, Egypt, Rome and Syria."
        ),
        "{}",
        table.answer
    );
    assert_eq!(table.game_state(), "finished");
}

#[test]
fn list_shows_supply_beside_centres() {
    let mut table = Table::start("diadochi-list");
    table.send("p9@example.test", "LIST anc");
    assert!(
        table
            .answer
            .contains("Supply centers:\n  Carthage: supply 4, centers 3\n"),
        "{}",
        table.answer
    );
    assert!(
        table.answer.contains("  Rome: supply 4, centers 2\n"),
        "{}",
        table.answer
    );
}
