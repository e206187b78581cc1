//! A whole standard game of two game-years played through real mail servers: seven players
//! sign up by mail (each confirming its address with the token the judge mails it), send
//! orders by SMTP, the judge reads them over IMAP (STARTTLS) and
//! answers over SMTP; a deadline passes with Italy silent; Turkey retreats; five powers
//! build; 1902 passes on deadlines; every player's IMAP mailbox holds every report, each
//! with the picture of the board attached (map.png).
//!
//! The game's clock is set by the test; only the mail moves in real time.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use strategos::daemon::{Clock, Daemon, Inbox};
use strategos::judge::Judge;
use strategos::letter::{Address, IncomingLetter, OutgoingLetter};
use strategos::mail::compose::compose;
use strategos::mail::imap::ImapInbox;
use strategos::mail::read::read_letter;
use strategos::mail::security::Security;
use strategos::mail::send::{SmtpTransport, Transport};
use strategos::report::Templates;
use strategos::store::Store;

use crate::judge_harness::TempDir;

use crate::judge_harness::confirm_token;

use crate::judge_harness::test_config;

use crate::judge_harness::test_variants;
use crate::mailserver::{MailServers, servers_with_tls};

/// One player: an address, a mailbox and what has arrived in it for this game.
struct Player {
    user: String,
    address: String,
    password: String,
    power: Option<String>,
    letter: char,
    received: Vec<IncomingLetter>,
    seen: std::collections::HashSet<u32>,
    /// Confirmation tokens already sent back.
    confirmed: std::collections::HashSet<String>,
    /// Subjects of the letters that came with the picture of the board (`map.png`, a PNG).
    pictures: Vec<String>,
}

struct Table<'s> {
    servers: &'s MailServers,
    judge: Daemon,
    players: Vec<Player>,
    game: String,
    sender: SmtpTransport,
    now: DateTime<Utc>,
    serial: usize,
    /// Message-IDs of the letters sent and not yet seen handled by the judge.
    sent_ids: Vec<String>,
}

impl Table<'_> {
    /// Sends a letter from player `i` to the judge over SMTP.
    fn send(&mut self, i: usize, subject: &str, body: &str) {
        self.serial += 1;
        let player = &self.players[i];
        let letter = OutgoingLetter {
            to: vec![Address::new(self.servers.address("judge"))],
            subject: format!("{} {subject}", self.game),
            body: body.to_string(),
            in_reply_to: None,
            references: Vec::new(),
            attachments: Vec::new(),
            game: None,
        };
        let id = format!("{}.{}.player@example.test", self.game, self.serial);
        self.sent_ids.push(id.clone());
        let mut raw = compose(&letter, &Address::new(&player.address), &id, self.now);
        // Players' mail is not automatic: drop the judge's own markers that compose adds.
        let text = String::from_utf8_lossy(&raw).into_owned();
        let text: String = text
            .split("\r\n")
            .filter(|l| !l.starts_with("Auto-Submitted:") && !l.starts_with("X-Strategos-Judge:"))
            .collect::<Vec<_>>()
            .join("\r\n");
        raw = text.into_bytes();
        self.sender
            .send(&player.address, &[self.servers.address("judge")], &raw)
            .expect("SMTP accepts the letter");
    }

    /// Each of `powers` sends its scripted orders for `phase` at `time`; the judge reads them.
    fn orders_from(
        &mut self,
        by_power: &HashMap<String, usize>,
        powers: &[&str],
        phase: &str,
        time: &str,
    ) {
        self.now = at(time);
        for power in powers {
            let i = by_power[*power];
            let player = &self.players[i];
            let body = format!(
                "SIGNON {}{} {}\n{}\n",
                player.letter,
                self.game,
                player.password,
                orders(power, phase)
            );
            self.send(i, &format!("{phase} orders"), &body);
        }
        self.judge_reads(powers.len());
    }

    /// Lets the judge run rounds at the test's time until every letter sent so far (`n` of
    /// them since the last call) is handled: counted by its own Message-ID, so that letters
    /// left in the judge's mailbox by other runs never stand in for them.
    fn judge_reads(&mut self, n: usize) {
        assert_eq!(
            self.sent_ids.len(),
            n,
            "letters sent since the last reading"
        );
        self.judge.clock = Clock::Fixed(self.now);
        let started = Instant::now();
        loop {
            self.judge.round();
            let tx = self.judge.store.begin().unwrap();
            let waiting: Vec<&String> = self
                .sent_ids
                .iter()
                .filter(|id| {
                    tx.stored_messages(id)
                        .unwrap()
                        .iter()
                        .all(|m| m.state == "new")
                })
                .collect();
            if waiting.is_empty() {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the judge has not handled {waiting:?}"
            );
            drop(tx);
            std::thread::sleep(Duration::from_millis(100));
        }
        self.sent_ids.clear();
    }

    /// Time passes to `now`; the judge processes what is due.
    fn tick(&mut self, now: DateTime<Utc>) {
        self.now = now;
        self.judge.clock = Clock::Fixed(now);
        self.judge.round();
    }

    /// Reads every player's mailbox once, keeping the letters of this game.
    fn poll(&mut self) {
        for player in &mut self.players {
            let mut imap = ImapInbox::connect(&self.servers.imap(&player.user, Security::StartTls))
                .expect("IMAP login");
            for (uid, raw) in imap.pending().expect("IMAP fetch") {
                if !player.seen.insert(uid) {
                    continue;
                }
                let letter = read_letter(&raw, &[]).expect("the judge's letters read");
                if letter.subject.contains(&self.game) {
                    use mail_parser::MimeHeaders;
                    let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
                    let picture = message.attachments().any(|part| {
                        part.attachment_name() == Some("map.png")
                            && part.contents().starts_with(b"\x89PNG\r\n\x1a\n")
                    });
                    if picture {
                        player.pictures.push(letter.subject.clone());
                    }
                    player.received.push(letter);
                }
            }
        }
    }

    /// Each of players `who` waits for the judge's letter asking them to confirm, and sends
    /// its `CONFIRM <token>` line back, as a newcomer does; the judge reads them.
    fn confirm(&mut self, who: &[usize]) {
        let started = Instant::now();
        let mut tokens: Vec<Option<String>> = vec![None; who.len()];
        while tokens.iter().any(Option::is_none) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no confirmation came for some of players {who:?}"
            );
            self.poll();
            for (k, &i) in who.iter().enumerate() {
                let player = &self.players[i];
                tokens[k] = player
                    .received
                    .iter()
                    .rev()
                    .filter_map(|l| confirm_token(&l.body))
                    .find(|t| !player.confirmed.contains(t));
            }
            if tokens.iter().any(Option::is_none) {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        for (&i, token) in who.iter().zip(tokens) {
            let token = token.expect("found above");
            self.players[i].confirmed.insert(token.clone());
            self.send(i, "confirm", &format!("CONFIRM {token}\n"));
        }
        self.judge_reads(who.len());
    }

    /// Polls the mailboxes until every player has a letter whose subject contains each of
    /// `subjects`; fails after a minute naming what is missing.
    fn wait_for(&mut self, subjects: &[&str]) {
        let started = Instant::now();
        loop {
            self.poll();
            let missing: Vec<String> = self
                .players
                .iter()
                .flat_map(|p| {
                    subjects
                        .iter()
                        .filter(move |s| !p.received.iter().any(|l| l.subject.contains(**s)))
                        .map(move |s| format!("{}: {s}", p.user))
                })
                .collect();
            if missing.is_empty() {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "missing letters: {missing:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// The scripted orders of each power, by phase.
fn orders(power: &str, phase: &str) -> &'static str {
    match (power, phase) {
        ("austria", "spring") => "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
        ("england", "spring") => "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
        ("france", "spring") => "A Par - Bur\nA Mar - Spa\nF Bre - Mao",
        ("germany", "spring") => "A Ber - Kie\nF Kie - Den\nA Mun - Ruh",
        ("italy", "spring") => "A Ven H\nA Rom - Apu\nF Nap - Ion",
        ("russia", "spring") => "A War - Gal\nA Mos - Ukr\nF Sev - Rum\nF Stp/sc - Bot",
        ("turkey", "spring") => "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
        ("austria", "fall") => "A Ser S F Rum - Bul\nF Alb - Gre\nA Vie - Tri",
        ("england", "fall") => "F Nwg - Nwy\nF Nth S F Nwg - Nwy\nA Yor H",
        ("france", "fall") => "A Spa - Por\nA Bur - Bel\nF Mao - Spa/nc",
        ("germany", "fall") => "A Kie - Hol\nF Den H\nA Ruh H",
        ("russia", "fall") => "F Rum - Bul/ec\nF Bot - Swe\nA Ukr - Rum\nA War H",
        ("turkey", "fall") => "F Bla H\nA Arm H\nA Bul H",
        ("turkey", "retreat") => "A Bul R Con",
        ("austria", "winter") => "Build A Vie\nBuild A Bud",
        ("england", "winter") => "Build F Lon",
        ("france", "winter") => "Build A Par\nBuild F Bre\nBuild A Mar",
        ("germany", "winter") => "Build A Ber\nBuild F Kie\nBuild A Mun",
        ("russia", "winter") => "Build A Mos\nBuild F Sev\nBuild F Stp/nc",
        _ => "",
    }
}

#[test]
fn a_standard_game_through_real_mail_servers() {
    let Some(servers) = servers_with_tls("a_standard_game_through_real_mail_servers") else {
        return;
    };
    let dir = TempDir::new("whole-game");
    let mut config = test_config();
    config.judge.address = servers.address("judge");
    let game = format!(
        "g{}x{}",
        std::process::id() % 100_000,
        Utc::now().timestamp() % 100_000
    );
    let judge = Daemon {
        judge: Judge {
            config,
            variants: test_variants(),
            templates: Templates::built_in(),
            last_position: Default::default(),
            pictures_ahead: Default::default(),
        },
        store: Store::open(&dir.0.join("judge.db")).unwrap(),
        inbox: Inbox::Imap {
            settings: Box::new(servers.imap("judge", Security::StartTls)),
            connection: None,
            idle: false,
        },
        transport: Box::new(SmtpTransport::new(&servers.smtp(Security::StartTls)).unwrap()),
        clock: Clock::Fixed(at("2027-01-04T09:00:00Z")),
        watchdog: None,
        fault: None,
        archive_due: false,
    };
    let sender = SmtpTransport::new(&servers.smtp(Security::StartTls)).unwrap();
    let players = (1..=7)
        .map(|i| Player {
            user: format!("player{i}"),
            address: servers.address(&format!("player{i}")),
            password: format!("pw{i}"),
            power: None,
            letter: '?',
            received: Vec::new(),
            seen: Default::default(),
            confirmed: Default::default(),
            pictures: Vec::new(),
        })
        .collect();
    let mut table = Table {
        servers,
        judge,
        players,
        game: game.clone(),
        sender,
        now: at("2027-01-04T09:00:00Z"),
        serial: 0,
        sent_ids: Vec::new(),
    };
    // Letters left unread in the judge's mailbox by earlier runs are handled first.
    table.judge.round();

    // Sign-ups: the first creates the game, six join; the seventh starts it.
    // Each newcomer's address confirms it asked, with the token the judge mails it.
    table.send(0, "create", &format!("CREATE ?{game} pw1\n"));
    table.judge_reads(1);
    table.confirm(&[0]);
    for i in 1..7 {
        let body = format!("SIGNON ?{game} pw{}\n", i + 1);
        table.send(i, "join", &body);
    }
    table.judge_reads(6);
    table.confirm(&[1, 2, 3, 4, 5, 6]);
    table.wait_for(&["Game Starting"]);
    for player in &mut table.players {
        let start = player
            .received
            .iter()
            .find(|l| l.subject.contains("Game Starting"))
            .expect("a start notice");
        let power = start
            .body
            .split("You have been selected as ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .expect("the start notice names the power")
            .to_lowercase();
        player.letter = power.chars().next().unwrap().to_ascii_uppercase();
        player.power = Some(power);
    }
    let by_power: HashMap<String, usize> = table
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.power.clone().unwrap(), i))
        .collect();
    assert_eq!(by_power.len(), 7, "seven different powers");

    // Spring 1901: orders from all seven; the last letter processes the phase at once.
    let all = [
        "austria", "england", "france", "germany", "italy", "russia", "turkey",
    ];
    table.orders_from(&by_power, &all, "spring", "2027-01-04T10:00:00Z");
    // Fall 1901: Italy is silent, so the phase waits for the deadline.
    table.orders_from(
        &by_power,
        &[
            "austria", "england", "france", "germany", "russia", "turkey",
        ],
        "fall",
        "2027-01-05T10:00:00Z",
    );
    table.tick(at("2027-01-06T10:00:01Z"));
    // Fall 1901 retreats: Turkey's army in Bulgaria goes to Constantinople.
    table.orders_from(&by_power, &["turkey"], "retreat", "2027-01-06T11:00:00Z");
    // Winter 1901: five powers build.
    table.orders_from(
        &by_power,
        &["austria", "england", "france", "germany", "russia"],
        "winter",
        "2027-01-06T12:00:00Z",
    );
    // 1902 passes on deadlines with every unit holding.
    table.tick(at("2027-01-09T00:00:00Z"));
    table.tick(at("2027-01-12T00:00:00Z"));

    // Every player's mailbox holds the start notice and the six reports, besides the
    // answers to the player's own letters.
    let reports = [
        "S1901M Results",
        "F1901M Results",
        "F1901R Results",
        "F1901B Results",
        "S1902M Results",
        "F1902M Results",
    ];
    table.wait_for(&reports);
    // Each report came with the picture of the new board, through the real servers.
    for player in &table.players {
        for title in reports {
            assert!(
                player.pictures.iter().any(|s| s.contains(title)),
                "{}: {title} came without its picture",
                player.user
            );
        }
    }
    let report = |title: &str| {
        table.players[0]
            .received
            .iter()
            .find(|l| l.subject.contains(title))
            .map(|l| l.body.clone())
            .unwrap()
    };
    let spring = report("S1901M Results");
    assert!(
        spring.contains("Austria: Army Vienna -> Galicia. (*bounce*)"),
        "{spring}"
    );
    assert!(
        spring.contains("Austria: Army Vienna -> Galicia: bounce with the army from Warsaw."),
        "{spring}"
    );
    let fall = report("F1901M Results");
    assert!(
        fall.contains("No orders were received from Italy."),
        "{fall}"
    );
    assert!(
        fall.contains("The Turkish Army in Bulgaria can retreat to Constantinople"),
        "{fall}"
    );
    let winter = report("F1901B Results");
    assert!(
        winter.contains("Russia:                   Builds a fleet in St Petersburg (north coast)."),
        "{winter}"
    );
    assert!(
        winter.contains("no builds left"),
        "Germany's third build: {winter}"
    );
    let ownership = report("F1901R Results");
    assert!(
        ownership.contains("France:    Belgium, Brest, Marseilles, Paris, Portugal, Spain."),
        "{ownership}"
    );
    assert!(table.judge.store.is_intact().unwrap());
    let tx = table.judge.store.begin().unwrap();
    let (pending, _sent, failed) = tx.outbox_counts().unwrap();
    assert_eq!((pending, failed), (0, 0));
}
