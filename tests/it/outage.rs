//! Outages: what the judge does while its mail servers or its database are away. SMTP
//! unreachable for an evening (letters wait and go out in order when it returns), a recipient
//! refused for good (recorded, the keeper told, the game goes on), IMAP cut in the middle of
//! a fetch (nothing lost, nothing handled twice), the judge killed between the steps of
//! marking a letter over IMAP (it ends moved or flagged, handled once), the database locked
//! or full (the letter is kept and handled later, the daemon goes on, and a letter is never
//! set aside as poison for the database's fault).
//!
//! Game time is set by the tests; only the mail moves in real time. The SMTP tests use the
//! real Postfix and Dovecot of `mailserver`, each reading its letters back over IMAP by a tag
//! no other test or run uses; IMAP cuts are made by a small fake server here, and the kills
//! between marking steps are played in folders of the real Dovecot made for each run (and
//! removed after it).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration as StdDuration, Instant, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;
use strategos::daemon::Inbox;
use strategos::letter::IncomingLetter;
use strategos::mail::imap::{ImapInbox, ImapSettings};
use strategos::mail::maildir::Maildir;
use strategos::mail::read::read_letter;
use strategos::mail::security::Security;
use strategos::mail::send::{SendError, SmtpSettings, SmtpTransport, Transport};

use crate::judge_harness::Harness;

use crate::judge_harness::TempDir;

use crate::judge_harness::mail;

use crate::judge_harness::test_config;
use crate::mailserver::{MailServers, servers};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// A tag no other test and no earlier run uses (lower case, for mail addresses).
fn unique() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    format!(
        "{}x{}",
        std::process::id(),
        now.as_nanos() % 1_000_000_000_000
    )
}

/// A loopback port where nothing listens.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The letters a transport handed to its server (accepted), in order: (recipients, Message-ID).
type Handed = Arc<Mutex<Vec<(Vec<String>, String)>>>;

/// A transport that notes every letter its server accepted.
struct Noting<T> {
    inner: T,
    handed: Handed,
}

impl<T: Transport> Transport for Noting<T> {
    fn send(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        let result = self.inner.send(from, to, raw);
        if result.is_ok() {
            let id = read_letter(raw, &[]).unwrap().message_id;
            self.handed.lock().unwrap().push((to.to_vec(), id));
        }
        result
    }
}

/// One row of the outbox, read with a connection of the test's own.
#[derive(Debug)]
struct Queued {
    id: i64,
    message_id: String,
    recipients: String,
    state: String,
    attempts: i64,
    next_attempt_at: String,
    last_error: Option<String>,
    subject: String,
}

fn outbox(db: &Path) -> Vec<Queued> {
    let conn = Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT id, message_id, recipients, state, attempts, next_attempt_at, last_error, raw
             FROM outbox ORDER BY id",
        )
        .unwrap();
    stmt.query_map([], |r| {
        let raw: Vec<u8> = r.get(7)?;
        Ok(Queued {
            id: r.get(0)?,
            message_id: r.get(1)?,
            recipients: r.get(2)?,
            state: r.get(3)?,
            attempts: r.get(4)?,
            next_attempt_at: r.get(5)?,
            last_error: r.get(6)?,
            subject: read_letter(&raw, &[]).unwrap().subject,
        })
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// Waits (at most 30 s) until `user`'s mailbox holds every letter of `ids` addressed to `to`;
/// marks them seen and returns them by Message-ID.
fn collect(
    servers: &MailServers,
    user: &str,
    to: &str,
    ids: &HashSet<String>,
) -> HashMap<String, IncomingLetter> {
    let mut inbox = ImapInbox::connect(&servers.imap(user, Security::None)).expect("IMAP login");
    let mut found = HashMap::new();
    let deadline = Instant::now() + StdDuration::from_secs(30);
    loop {
        for (uid, raw) in inbox.pending().expect("IMAP fetch") {
            let Ok(letter) = read_letter(&raw, &[]) else {
                continue;
            };
            // Message-IDs repeat across runs (the game clock is fixed); the tagged address not.
            if ids.contains(&letter.message_id) && letter.to.iter().any(|a| a.email == to) {
                inbox.mark_handled(uid).unwrap();
                found.insert(letter.message_id.clone(), letter);
            }
        }
        if found.len() == ids.len() {
            return found;
        }
        let missing: Vec<_> = ids.iter().filter(|i| !found.contains_key(*i)).collect();
        assert!(
            Instant::now() < deadline,
            "{user}'s mailbox lacks {missing:?}"
        );
        std::thread::sleep(StdDuration::from_millis(200));
    }
}

/// The power a player holds in a game.
fn power_of(judge: &mut Harness, game: &str, email: &str) -> String {
    let tx = judge.daemon.store.begin().unwrap();
    let game = tx.game_by_name(game).unwrap().unwrap();
    tx.members(game.id)
        .unwrap()
        .into_iter()
        .find(|m| m.email == email)
        .and_then(|m| m.power)
        .unwrap()
}

/// Orders that hold every unit of a tiny-variant power.
fn signon_and_hold(power: &str, game: &str, password: &str) -> String {
    match power {
        "north" => format!("SIGNON N{game} {password}\nF Nor H\n"),
        _ => format!("SIGNON S{game} {password}\nA Sou H\n"),
    }
}

/// SMTP is away for an evening: letters arrive, a reminder and a deadline fall due, and
/// everything waits in the outbox with retries scheduled while the daemon goes on. When
/// Postfix is back every letter goes out once, each address getting its letters in the
/// order they were queued, and all of them arrive in the players' IMAP mailboxes.
#[test]
fn letters_wait_while_smtp_is_away_and_go_out_in_order() {
    let Some(servers) = servers("letters_wait_while_smtp_is_away_and_go_out_in_order") else {
        return;
    };
    let tag = unique();
    let alice = format!("player1+a{tag}@{}", servers.domain);
    let bob = format!("player2+b{tag}@{}", servers.domain);
    let mut config = test_config();
    config.judge.address = servers.address("judge");
    config.deadlines.movement_hours = 3;
    config.deadlines.retreat_hours = 3;
    config.deadlines.adjustment_hours = 3;
    config.deadlines.reminder_hours = 1;
    let mut judge = Harness::with_config("outage-smtp", config);
    // The players' addresses are taken as proven: this test is about the outage.
    judge.vouch(&[&alice, &bob]);
    let db = judge.dir.0.join("judge.db");
    let handed = Handed::default();
    let away = SmtpSettings {
        host: "127.0.0.1".into(),
        port: closed_port(),
        security: Security::None,
        user: None,
        password: None,
        ca_pem: None,
        timeout_secs: 5,
    };
    judge.daemon.transport = Box::new(Noting {
        inner: SmtpTransport::new(&away).unwrap(),
        handed: handed.clone(),
    });

    // 18:00 to 22:00, a round every ten minutes: the game is made and starts, Alice orders,
    // Bob is reminded at 20:20, the deadline passes at 21:20. Nothing can be sent.
    let evening = at("2027-01-05T18:00:00Z");
    let mut now = evening;
    for step in 0..=24 {
        now = evening + Duration::minutes(10 * step);
        judge.set_time(now);
        let arrived = match step {
            0 => Some(mail(
                &alice,
                "new",
                &format!("n1{tag}@x"),
                "CREATE ?night pw1 tiny\n",
            )),
            2 => Some(mail(
                &bob,
                "join",
                &format!("n2{tag}@x"),
                "SIGNON ?night pw2\n",
            )),
            5 => {
                let power = power_of(&mut judge, "night", &alice);
                let orders = signon_and_hold(&power, "night", "pw1");
                Some(mail(&alice, "orders", &format!("n3{tag}@x"), &orders))
            }
            _ => None,
        };
        if let Some(raw) = arrived {
            assert!(judge.daemon.accept(&raw, "test"));
        }
        let round = judge.daemon.round();
        assert_eq!(round.letters_out, 0, "at {now}: the server is away");
    }
    let waiting = outbox(&db);
    let subjects: Vec<&str> = waiting.iter().map(|q| q.subject.as_str()).collect();
    assert!(waiting.iter().all(|q| q.state == "pending"), "{waiting:#?}");
    assert!(
        subjects.iter().any(|s| s.contains(" Results")),
        "the deadline passed during the outage: {subjects:?}"
    );
    assert!(
        subjects.iter().any(|s| s.ends_with(" Reminder")),
        "Bob's reminder fell due during the outage: {subjects:?}"
    );
    assert!(
        waiting.len() >= 8,
        "answers, start notices, reminder, results: {subjects:?}"
    );
    // The first letter waiting for each address has been tried and has its next try
    // scheduled; the later ones wait behind it.
    let now_text = now.format("%Y-%m-%dT%H:%M:%SZ").to_string();
    for address in [&alice, &bob] {
        let first = waiting.iter().find(|q| q.recipients == *address).unwrap();
        assert!(first.attempts >= 3, "{first:#?}");
        assert!(first.next_attempt_at > now_text, "{first:#?}");
        let error = first.last_error.as_deref().unwrap_or("");
        assert!(error.contains("SMTP"), "{first:#?}");
    }
    assert!(
        waiting
            .iter()
            .filter(|q| q.attempts > 0)
            .all(|q| q.next_attempt_at > now_text),
        "every letter tried has a retry scheduled: {waiting:#?}"
    );
    let queued = waiting.len();

    // 22:00: Postfix is reachable again. Rounds go on every ten minutes (and the game with
    // them) until the outbox is empty.
    judge.daemon.transport = Box::new(Noting {
        inner: SmtpTransport::new(&servers.smtp(Security::None)).unwrap(),
        handed: handed.clone(),
    });
    for _ in 0..48 {
        now += Duration::minutes(10);
        judge.set_time(now);
        judge.daemon.round();
        if outbox(&db).iter().all(|q| q.state != "pending") {
            break;
        }
    }
    let all = outbox(&db);
    assert!(
        all.iter().all(|q| q.state == "sent"),
        "every letter went out, none given up: {all:#?}"
    );
    assert!(all.len() >= queued);
    // Each letter handed to Postfix exactly once; to each address in the order queued.
    let handed = handed.lock().unwrap().clone();
    let order: HashMap<&str, i64> = all.iter().map(|q| (q.message_id.as_str(), q.id)).collect();
    let ids: HashSet<&str> = handed.iter().map(|(_, id)| id.as_str()).collect();
    assert_eq!(
        ids.len(),
        handed.len(),
        "a letter went out twice: {handed:?}"
    );
    assert_eq!(ids.len(), all.len());
    for address in [&alice, &bob] {
        let sequence: Vec<i64> = handed
            .iter()
            .filter(|(to, _)| to.contains(address))
            .map(|(_, id)| order[id.as_str()])
            .collect();
        assert!(
            sequence.windows(2).all(|w| w[0] < w[1]),
            "{address} got letters out of order: {sequence:?}"
        );
    }
    // And every one of them is in the player's mailbox.
    for (user, address) in [("player1", &alice), ("player2", &bob)] {
        let expected: HashSet<String> = all
            .iter()
            .filter(|q| q.recipients == *address)
            .map(|q| q.message_id.clone())
            .collect();
        let arrived = collect(servers, user, address, &expected);
        assert!(
            arrived.values().any(|l| l.subject.ends_with("M Results")),
            "{user} got the results"
        );
    }
}

/// Postfix refuses a player's address for good (550, unknown user): each letter to it is
/// tried once, recorded as failed with the server's words, and the keeper is told; the
/// other player gets every letter and the game goes on past its deadline.
#[test]
fn a_recipient_refused_for_good_is_recorded_and_the_keeper_told() {
    let Some(servers) = servers("a_recipient_refused_for_good_is_recorded_and_the_keeper_told")
    else {
        return;
    };
    let tag = unique();
    let alice = format!("player6+a{tag}@{}", servers.domain);
    let gone = format!("gone{tag}@{}", servers.domain);
    let keeper = format!("player7+k{tag}@{}", servers.domain);
    let mut config = test_config();
    config.judge.address = servers.address("judge");
    config.judge.keeper = keeper.clone();
    config.deadlines.movement_hours = 3;
    let mut judge = Harness::with_config("outage-refused", config);
    judge.vouch(&[&alice, &gone]);
    let db = judge.dir.0.join("judge.db");
    judge.daemon.transport = Box::new(SmtpTransport::new(&servers.smtp(Security::None)).unwrap());
    let t0 = at("2027-01-05T18:00:00Z");
    judge.set_time(t0);
    judge.deliver(&mail(
        &alice,
        "new",
        &format!("r1{tag}@x"),
        "CREATE ?far pw1 tiny\n",
    ));
    judge.deliver(&mail(
        &gone,
        "join",
        &format!("r2{tag}@x"),
        "SIGNON ?far pw2\n",
    ));
    let started = {
        let tx = judge.daemon.store.begin().unwrap();
        tx.game_by_name("far").unwrap().unwrap()
    };
    let power = power_of(&mut judge, "far", &alice);
    judge.deliver(&mail(
        &alice,
        "orders",
        &format!("r3{tag}@x"),
        &signon_and_hold(&power, "far", "pw1"),
    ));
    // The deadline passes; rounds go on until the notices the last refusals caused are sent.
    let deadline = started.deadline_at.unwrap();
    for minute in 1..=5 {
        judge.tick(deadline + Duration::minutes(minute));
        if outbox(&db).iter().all(|q| q.state != "pending") {
            break;
        }
    }

    let after = {
        let tx = judge.daemon.store.begin().unwrap();
        tx.game_by_name("far").unwrap().unwrap()
    };
    assert!(
        after.phase_serial > started.phase_serial,
        "the game went on: {after:?}"
    );
    let all = outbox(&db);
    let refused: Vec<&Queued> = all.iter().filter(|q| q.recipients == gone).collect();
    assert!(
        refused.len() >= 3,
        "answer, start notice, results: {all:#?}"
    );
    for q in &refused {
        assert_eq!((q.state.as_str(), q.attempts), ("failed", 1), "{q:#?}");
        let error = q.last_error.as_deref().unwrap_or("");
        assert!(error.contains("550"), "the server's words are kept: {q:#?}");
    }
    let to_alice: Vec<&Queued> = all.iter().filter(|q| q.recipients == alice).collect();
    assert!(to_alice.iter().all(|q| q.state == "sent"), "{to_alice:#?}");
    let to_keeper: Vec<&Queued> = all.iter().filter(|q| q.recipients == keeper).collect();
    assert_eq!(
        to_keeper.len(),
        refused.len(),
        "one notice per refusal: {all:#?}"
    );
    assert!(
        to_keeper.iter().all(|q| q.state == "sent"),
        "{to_keeper:#?}"
    );
    assert_eq!(all.len(), refused.len() + to_alice.len() + to_keeper.len());

    // The keeper's notices and Alice's letters arrive.
    let ids = |letters: &[&Queued]| -> HashSet<String> {
        letters.iter().map(|q| q.message_id.clone()).collect()
    };
    let notices = collect(servers, "player7", &keeper, &ids(&to_keeper));
    for notice in notices.values() {
        assert!(notice.subject.contains(&gone), "{}", notice.subject);
        assert!(
            crate::says(&notice.body, "refused for good") && notice.body.contains("550"),
            "{}",
            notice.body
        );
    }
    let letters = collect(servers, "player6", &alice, &ids(&to_alice));
    assert!(
        letters.values().any(|l| l.subject.ends_with("M Results")),
        "Alice got the results"
    );
}

/// A mailbox behind a fake IMAP server that cuts connections when told to.
#[derive(Default)]
struct FakeMailbox {
    /// (UID, message, seen), in UID order.
    messages: Vec<(u32, Vec<u8>, bool)>,
    /// The next so many FETCHes are cut: after the first message, halfway through the second.
    cut_fetches: usize,
    /// The next so many FETCHes are cut cleanly: every message sent, no tagged OK.
    cut_fetches_cleanly: usize,
    /// The next so many STOREs are cut before they are done or answered.
    cut_stores: usize,
    connections: usize,
    /// How many times each UID was marked seen.
    stored: BTreeMap<u32, usize>,
}

impl FakeMailbox {
    fn add(&mut self, raw: Vec<u8>) {
        let uid = self.messages.len() as u32 + 1;
        self.messages.push((uid, raw, false));
    }
}

/// Serves `mailbox` on a loopback port, one thread per connection; returns the port.
fn fake_imap(mailbox: Arc<Mutex<FakeMailbox>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else {
                return;
            };
            let mailbox = mailbox.clone();
            std::thread::spawn(move || serve_imap(stream, &mailbox));
        }
    });
    port
}

/// Just enough IMAP for `ImapInbox`: LOGIN, CAPABILITY, SELECT, UID SEARCH UNSEEN,
/// UID FETCH (UID BODY.PEEK[]), UID STORE +FLAGS.SILENT (\Seen), NOOP, LOGOUT.
fn serve_imap(stream: TcpStream, mailbox: &Mutex<FakeMailbox>) {
    stream
        .set_read_timeout(Some(StdDuration::from_secs(30)))
        .unwrap();
    mailbox.lock().unwrap().connections += 1;
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    let cut = |out: &mut TcpStream| {
        let _ = out.flush();
        let _ = out.shutdown(Shutdown::Both);
    };
    if out
        .write_all(b"* OK [CAPABILITY IMAP4rev1 UIDPLUS] fake ready\r\n")
        .is_err()
    {
        return;
    }
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        let word = |i: usize| {
            words
                .get(i)
                .map(|w| w.to_ascii_uppercase())
                .unwrap_or_default()
        };
        let tag = words.first().cloned().unwrap_or_default();
        let mut mb = mailbox.lock().unwrap();
        let reply: Vec<u8> = match (word(1).as_str(), word(2).as_str()) {
            ("LOGIN", _) => format!("{tag} OK LOGIN completed\r\n").into_bytes(),
            ("CAPABILITY", _) => {
                format!("* CAPABILITY IMAP4rev1 UIDPLUS\r\n{tag} OK done\r\n").into_bytes()
            }
            ("SELECT", _) => format!(
                "* FLAGS (\\Seen \\Deleted)\r\n* {} EXISTS\r\n* 0 RECENT\r\n\
                 * OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT {}] ok\r\n{tag} OK [READ-WRITE] done\r\n",
                mb.messages.len(),
                mb.messages.len() + 1
            )
            .into_bytes(),
            ("NOOP", _) => format!("{tag} OK done\r\n").into_bytes(),
            ("LOGOUT", _) => {
                let _ = out.write_all(format!("* BYE fake\r\n{tag} OK done\r\n").as_bytes());
                return;
            }
            ("UID", "SEARCH") => {
                let unseen: Vec<String> = mb
                    .messages
                    .iter()
                    .filter(|(_, _, seen)| !seen)
                    .map(|(uid, _, _)| uid.to_string())
                    .collect();
                let found = if unseen.is_empty() {
                    String::new()
                } else {
                    format!(" {}", unseen.join(" "))
                };
                format!("* SEARCH{found}\r\n{tag} OK done\r\n").into_bytes()
            }
            ("UID", "FETCH") => {
                let uids: Vec<u32> = word(3).split(',').filter_map(|u| u.parse().ok()).collect();
                let cut_midway = mb.cut_fetches > 0;
                mb.cut_fetches -= usize::from(cut_midway);
                let cut_cleanly = !cut_midway && mb.cut_fetches_cleanly > 0;
                mb.cut_fetches_cleanly -= usize::from(cut_cleanly);
                let cut_at = uids.len().min(2).saturating_sub(1);
                let mut reply = Vec::new();
                for (i, uid) in uids.iter().enumerate() {
                    let Some(seq) = mb.messages.iter().position(|(u, _, _)| u == uid) else {
                        continue;
                    };
                    let raw = &mb.messages[seq].1;
                    let head = format!(
                        "* {} FETCH (UID {uid} BODY[] {{{}}}\r\n",
                        seq + 1,
                        raw.len()
                    );
                    reply.extend_from_slice(head.as_bytes());
                    if cut_midway && i == cut_at {
                        reply.extend_from_slice(&raw[..raw.len() / 2]);
                        let _ = out.write_all(&reply);
                        cut(&mut out);
                        return;
                    }
                    reply.extend_from_slice(raw);
                    reply.extend_from_slice(b")\r\n");
                }
                if cut_cleanly {
                    let _ = out.write_all(&reply);
                    cut(&mut out);
                    return;
                }
                reply.extend_from_slice(format!("{tag} OK FETCH completed\r\n").as_bytes());
                reply
            }
            ("UID", "STORE") => {
                if mb.cut_stores > 0 {
                    mb.cut_stores -= 1;
                    cut(&mut out);
                    return;
                }
                for uid in word(3).split(',').filter_map(|u| u.parse::<u32>().ok()) {
                    if let Some(m) = mb.messages.iter_mut().find(|(u, _, _)| *u == uid) {
                        m.2 = true;
                        *mb.stored.entry(uid).or_default() += 1;
                    }
                }
                format!("{tag} OK STORE completed\r\n").into_bytes()
            }
            _ => format!("{tag} BAD not in this fake\r\n").into_bytes(),
        };
        drop(mb);
        if out.write_all(&reply).is_err() {
            return;
        }
    }
}

/// The IMAP server drops the connection halfway through a FETCH, then after a FETCH's last
/// message before its OK, then before answering a STORE: each round reconnects, and in the
/// end every letter was handled once, answered once and marked seen, and the daemon goes
/// on reading new mail.
#[test]
fn imap_cut_mid_fetch_loses_nothing_and_handles_nothing_twice() {
    let mut judge = Harness::new("outage-imap");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let mailbox = Arc::new(Mutex::new(FakeMailbox::default()));
    let letters = [
        ("alice@example.test", "i1@x", "CREATE ?cut pw1 tiny\n"),
        ("bob@example.test", "i2@x", "HELP\n"),
        ("carol@example.test", "i3@x", "HELP\n"),
    ];
    {
        let mut mb = mailbox.lock().unwrap();
        for (from, id, body) in letters {
            mb.add(mail(from, "hello", id, body));
        }
        mb.cut_fetches = 1;
        mb.cut_fetches_cleanly = 1;
        mb.cut_stores = 1;
    }
    let port = fake_imap(mailbox.clone());
    let mut settings = ImapSettings::new(
        "127.0.0.1",
        port,
        Security::None,
        "judge@example.test",
        "secret",
    );
    settings.timeout_secs = 5;
    judge.daemon.inbox = Inbox::Imap {
        settings: Box::new(settings),
        connection: None,
        idle: false,
    };
    let mut answers: Vec<IncomingLetter> = Vec::new();
    let mut round = |judge: &mut Harness| {
        let round = judge.daemon.round();
        answers.extend(judge.take_sent());
        round.letters_in
    };
    // Round 1: cut halfway through the second message; the fetch fails, nothing is taken.
    // Round 2: cut cleanly after the last message (no OK): the three letters are whole, the
    // first is handled, its mark finds the connection gone, so the round stops there.
    // Round 3: a new connection; the first letter is known by its Message-ID, and marking it
    // is cut before the server answers.
    // Round 4: the first letter is marked, the other two handled and marked.
    let taken: Vec<usize> = (0..5).map(|_| round(&mut judge)).collect();
    assert_eq!(taken, [0, 1, 0, 2, 0], "each letter handled once");
    {
        let mb = mailbox.lock().unwrap();
        assert!(mb.messages.iter().all(|(_, _, seen)| *seen));
        assert!(mb.connections >= 3, "{} connections", mb.connections);
    }
    // The daemon goes on: new mail is read on the same terms.
    mailbox
        .lock()
        .unwrap()
        .add(mail("dave@example.test", "hello", "i4@x", "HELP\n"));
    assert_eq!(round(&mut judge), 1);
    let mut answered: BTreeMap<String, usize> = BTreeMap::new();
    for answer in &answers {
        *answered.entry(answer.references[0].clone()).or_default() += 1;
    }
    let expected: BTreeMap<String, usize> = ["i1@x", "i2@x", "i3@x", "i4@x"]
        .into_iter()
        .map(|id| (id.to_owned(), 1))
        .collect();
    assert_eq!(answered, expected, "each letter answered exactly once");
    let mb = mailbox.lock().unwrap();
    assert!(mb.messages.iter().all(|(_, _, seen)| *seen));
    let tx = judge.daemon.store.begin().unwrap();
    for id in expected.keys() {
        assert!(tx.has_message(id).unwrap());
    }
    assert!(tx.unhandled_messages().unwrap().is_empty());
}

/// Another process holds the database's write lock while a letter arrives, then the disk
/// is full while another arrives: each round fails softly, the letters stay in the inbox
/// Maildir unanswered, nothing queued goes out unrecorded; once the lock goes and the
/// space returns, each letter is handled and answered exactly once.
#[test]
fn a_busy_or_full_database_keeps_the_letter_for_later() {
    let mut judge = Harness::new("outage-db");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let db = judge.dir.0.join("judge.db");
    let inbox = Maildir::open(judge.dir.0.join("inbox")).unwrap();
    judge.daemon.inbox = Inbox::Maildir(inbox.clone());
    // A short wait for the lock, so that a locked round takes a moment, not 5 s a step.
    judge
        .daemon
        .store
        .set_busy_timeout(StdDuration::from_millis(50))
        .unwrap();
    // A letter handled before the lock, its answer not yet sent.
    assert!(
        judge
            .daemon
            .accept(&mail("alice@example.test", "one", "d1@x", "HELP\n"), "test")
    );

    let locker = Connection::open(&db).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    inbox
        .deliver(&mail("bob@example.test", "two", "d2@x", "HELP\n"))
        .unwrap();
    for _ in 0..3 {
        let round = judge.daemon.round();
        assert_eq!((round.letters_in, round.letters_out), (0, 0));
    }
    assert_eq!(
        inbox.pending().unwrap().len(),
        1,
        "the letter stays in the inbox"
    );
    assert!(judge.take_sent().is_empty(), "nothing goes out unrecorded");
    locker.execute_batch("COMMIT").unwrap();
    let round = judge.daemon.round();
    assert_eq!((round.letters_in, round.letters_out), (1, 2));
    assert!(inbox.pending().unwrap().is_empty());
    let sent = judge.take_sent();
    let answered: Vec<&str> = sent.iter().map(|l| l.references[0].as_str()).collect();
    assert_eq!(answered, ["d1@x", "d2@x"]);

    // The disk is full: the file may not grow by a page.
    let pages = judge.daemon.store.page_count().unwrap();
    judge.daemon.store.set_max_pages(Some(pages)).unwrap();
    let signature = "-- \n".to_owned() + &"a long signature line\n".repeat(5000);
    inbox
        .deliver(&mail(
            "carol@example.test",
            "three",
            "d3@x",
            &format!("HELP\n{signature}"),
        ))
        .unwrap();
    for _ in 0..3 {
        assert_eq!(judge.daemon.round().letters_in, 0);
    }
    assert_eq!(
        inbox.pending().unwrap().len(),
        1,
        "the letter stays in the inbox"
    );
    assert!(judge.take_sent().is_empty());
    judge.daemon.store.set_max_pages(None).unwrap();
    assert_eq!(judge.daemon.round().letters_in, 1);
    assert!(inbox.pending().unwrap().is_empty());
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].references[0], "d3@x");
    assert!(judge.daemon.store.is_intact().unwrap());
}

/// `strategos deliver` with the database locked hands the letter back to the mail system
/// (exit 75, EX_TEMPFAIL: it keeps the letter and tries again); the next try, after the
/// lock is gone, handles it, and a third does not handle it twice.
#[test]
fn deliver_with_the_database_locked_asks_the_mail_system_to_retry() {
    let dir = TempDir::new("outage-deliver");
    let root = &dir.0;
    let config = root.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[paths]\ndatabase = \"{0}/judge.db\"\n[outbox]\nmaildir = \"{0}/sent\"\n\
             [inbox]\nmaildir = \"{0}/inbox\"\n",
            root.display()
        ),
    )
    .unwrap();
    let deliver = || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_strategos"))
            .args([
                "--config",
                config.to_str().unwrap(),
                "deliver",
                "--now",
                "2027-01-05T12:00:00Z",
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let letter = mail("you@example.org", "hello", "locked-1@example.org", "HELP\n");
        child.stdin.take().unwrap().write_all(&letter).unwrap();
        child.wait_with_output().unwrap()
    };
    let sent = || {
        std::fs::read_dir(root.join("sent/new"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    // The database exists (with its schema) before another process locks it.
    drop(strategos::store::Store::open(&root.join("judge.db")).unwrap());
    let locker = Connection::open(root.join("judge.db")).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let out = deliver();
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(sent(), 0);
    locker.execute_batch("COMMIT").unwrap();
    let out = deliver();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(sent(), 1);
    let out = deliver();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(sent(), 1, "not answered twice");
}

/// A stored letter whose handling fails because the disk is full is not charged for it: each
/// failed attempt is given back, so however many rounds the disk stays full, the letter is
/// handled (not set aside as poison) once there is room, on its first counted attempt.
#[test]
fn a_letter_is_never_set_aside_for_the_database_s_fault() {
    let mut judge = Harness::new("outage-attempts");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    // Its answer (three help files) needs pages the full disk has not got.
    let raw = mail(
        "alice@example.test",
        "help",
        "full1@x",
        &"GET his\n".repeat(3),
    );
    {
        // Stored, not yet handled (as after a stop).
        let tx = judge.daemon.store.begin().unwrap();
        tx.record_message(
            "full1@x#0",
            "full1@x",
            "test",
            &raw,
            at("2027-01-05T12:00:00Z"),
        )
        .unwrap();
        tx.commit().unwrap();
    }
    let pages = judge.daemon.store.page_count().unwrap();
    judge.daemon.store.set_max_pages(Some(pages)).unwrap();
    let attempts_so_far = |judge: &mut Harness| {
        let tx = judge.daemon.store.begin().unwrap();
        let stored = tx.stored_messages("full1@x").unwrap();
        (stored[0].state.clone(), stored[0].attempts)
    };
    for _ in 0..5 {
        assert_eq!(judge.daemon.round().letters_in, 0);
        assert_eq!(attempts_so_far(&mut judge), ("new".to_string(), 0));
    }
    assert!(judge.take_sent().is_empty());
    judge.daemon.store.set_max_pages(None).unwrap();
    assert_eq!(judge.daemon.round().letters_in, 1);
    assert_eq!(attempts_so_far(&mut judge), ("handled".to_string(), 1));
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].references, ["full1@x"]);
}

/// The test's own hand in a real IMAP account: folders made, letters put in them (seen or
/// not, flagged deleted or not), and what each folder holds read back. Plain IMAP on loopback.
struct Hand {
    runtime: tokio::runtime::Runtime,
    session: async_imap::Session<tokio::net::TcpStream>,
}

/// A message as a folder holds it: its Message-ID, and whether it is seen and deleted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Held {
    message_id: String,
    seen: bool,
    deleted: bool,
}

impl Hand {
    fn login(servers: &MailServers, user: &str) -> Hand {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let session = runtime.block_on(async {
            let tcp = tokio::net::TcpStream::connect((servers.host.as_str(), servers.imap_port))
                .await
                .unwrap();
            let mut client = async_imap::Client::new(tcp);
            client.read_response().await.unwrap().expect("a greeting");
            client
                .login(servers.address(user), &servers.password)
                .await
                .map_err(|(e, _)| e)
                .unwrap()
        });
        Hand { runtime, session }
    }

    fn create(&mut self, folder: &str) {
        self.runtime.block_on(self.session.create(folder)).unwrap();
    }

    /// Removes the test's folders from the shared account.
    fn remove(&mut self, folders: &[&str]) {
        let session = &mut self.session;
        self.runtime.block_on(async {
            session.select("INBOX").await.unwrap();
            for folder in folders {
                let _ = session.delete(folder).await;
            }
        });
    }

    /// Puts `raw` into `folder` with `flags` (`""`, `"(\\Seen)"`...).
    fn append(&mut self, folder: &str, raw: &[u8], flags: &str) {
        let flags = (!flags.is_empty()).then_some(flags);
        self.runtime
            .block_on(self.session.append(folder, flags, None, raw))
            .unwrap();
    }

    /// What `folder` holds, by Message-ID.
    fn held(&mut self, folder: &str) -> Vec<Held> {
        use futures_util::TryStreamExt;
        let session = &mut self.session;
        let mut held: Vec<Held> = self.runtime.block_on(async {
            session.select(folder).await.unwrap();
            let fetched: Vec<_> = session
                .fetch("1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap_or_default();
            fetched
                .iter()
                .map(|f| {
                    let header = String::from_utf8_lossy(f.header().unwrap_or_default());
                    let id = header.trim().trim_start_matches("Message-ID:").trim();
                    Held {
                        message_id: id.trim_matches(['<', '>']).to_string(),
                        seen: f.flags().any(|x| x == async_imap::types::Flag::Seen),
                        deleted: f.flags().any(|x| x == async_imap::types::Flag::Deleted),
                    }
                })
                .collect()
        });
        held.sort();
        held
    }
}

/// The judge reading `folder` over plain IMAP as `user`, moving handled mail to `done`.
fn imap_inbox(servers: &MailServers, user: &str, folder: &str, done: Option<&str>) -> Inbox {
    let mut settings = servers.imap(user, Security::None);
    settings.folder = folder.to_string();
    settings.done_folder = done.map(str::to_string);
    Inbox::Imap {
        settings: Box::new(settings),
        connection: None,
        idle: false,
    }
}

/// A letter over IMAP ends marked whatever moment the judge was killed at, and is handled
/// once. In the real Dovecot, letters are left as a judge killed at each moment leaves them:
/// stored but not yet marked; stored and flagged seen but not yet moved; copied to the folder
/// of handled mail and flagged deleted but not yet expunged (a server without MOVE). The
/// next round moves each of them without answering it again, and handles the new one; without
/// a folder of handled mail, a letter stored but not flagged is flagged, not answered again.
#[test]
fn imap_letters_end_marked_whatever_moment_the_judge_was_killed() {
    let Some(servers) = servers("imap_letters_end_marked_whatever_moment_the_judge_was_killed")
    else {
        return;
    };
    let tag = unique();
    let (folder, done, flat) = (
        format!("kill-{tag}"),
        format!("kill-{tag}-done"),
        format!("kill-{tag}-flat"),
    );
    let mut hand = Hand::login(servers, "player7");
    for f in [&folder, &done, &flat] {
        hand.create(f);
    }
    let mut judge = Harness::new("outage-imap-marks");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let letter = |from: &str, id: &str| mail(from, "hello", &format!("{id}.{tag}@x"), "HELP\n");
    let (stored, flagged, copied, new) = (
        letter("ann@example.test", "stored"),
        letter("ben@example.test", "flagged"),
        letter("cid@example.test", "copied"),
        letter("dee@example.test", "new"),
    );
    // Handled before the kill, each as a judge killed at that moment left it.
    for raw in [&stored, &flagged, &copied] {
        assert!(judge.daemon.accept(raw, "imap"));
    }
    assert_eq!(judge.daemon.flush(), 3);
    assert_eq!(judge.take_sent().len(), 3);
    hand.append(&folder, &stored, "");
    hand.append(&folder, &flagged, "(\\Seen)");
    hand.append(&done, &copied, "(\\Seen)");
    hand.append(&folder, &copied, "(\\Seen \\Deleted)");
    hand.append(&folder, &new, "");
    judge.daemon.inbox = imap_inbox(servers, "player7", &folder, Some(&done));
    let round = judge.daemon.round();
    assert_eq!(round.letters_in, 1, "only the new letter is handled");
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].references, [format!("new.{tag}@x")]);
    assert!(hand.held(&folder).is_empty(), "{:?}", hand.held(&folder));
    let ids: Vec<String> = hand.held(&done).into_iter().map(|h| h.message_id).collect();
    let mut expected: Vec<String> = ["copied", "flagged", "new", "stored"]
        .iter()
        .map(|id| format!("{id}.{tag}@x"))
        .collect();
    expected.sort();
    assert_eq!(ids, expected, "each letter moved, once");
    // Nothing more to do.
    assert_eq!(judge.daemon.round().letters_in, 0);
    assert!(judge.take_sent().is_empty());

    // Without a folder of handled mail: a stored letter not yet flagged is flagged.
    let (kept, fresh) = (
        letter("eve@example.test", "kept"),
        letter("fay@example.test", "fresh"),
    );
    assert!(judge.daemon.accept(&kept, "imap"));
    judge.daemon.flush();
    judge.take_sent();
    hand.append(&flat, &kept, "");
    hand.append(&flat, &fresh, "");
    judge.daemon.inbox = imap_inbox(servers, "player7", &flat, None);
    assert_eq!(judge.daemon.round().letters_in, 1);
    let sent = judge.take_sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].references, [format!("fresh.{tag}@x")]);
    let held = hand.held(&flat);
    assert_eq!(held.len(), 2);
    assert!(held.iter().all(|h| h.seen && !h.deleted), "{held:?}");
    hand.remove(&[&folder, &done, &flat]);
}

/// The real binary reads a folder of the real Dovecot and is killed at random moments while
/// letters arrive; in the end the folder is empty, every letter is in the folder of handled
/// mail exactly once, and every letter was answered (a repeat only ever with the same
/// Message-ID).
#[test]
fn imap_letters_are_moved_once_however_often_the_judge_is_killed() {
    let Some(servers) = servers("imap_letters_are_moved_once_however_often_the_judge_is_killed")
    else {
        return;
    };
    let tag = unique();
    let (folder, done) = (format!("crash-{tag}"), format!("crash-{tag}-done"));
    let mut hand = Hand::login(servers, "player7");
    hand.create(&folder);
    let dir = TempDir::new("outage-imap-kills");
    let root = &dir.0;
    let config = root.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@example.test\"\nkeeper = \"keeper@example.test\"\n\
             [paths]\ndatabase = \"{0}/judge.db\"\n\
             [inbox]\nkind = \"imap\"\npoll_seconds = 1\n\
             [imap]\nhost = \"{1}\"\nport = {2}\nsecurity = \"none\"\nuser = \"{3}\"\n\
             password = \"{4}\"\nfolder = \"{folder}\"\ndone_folder = \"{done}\"\nidle = false\n\
             [outbox]\nmaildir = \"{0}/sent\"\n\
             [limits]\nletters_per_hour = 100000\nhandling_attempts = 1000\n",
            root.display(),
            servers.host,
            servers.imap_port,
            servers.address("player7"),
            servers.password,
        ),
    )
    .unwrap();
    let run = |once: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_strategos"));
        command.args(["--config", config.to_str().unwrap(), "run"]);
        if once {
            command.arg("--once");
        }
        command
            .args(["--now", "2027-01-05T12:00:00Z"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        command
    };
    let mut ids = Vec::new();
    let mut dice: u64 = 0x1ead_beef;
    for kill in 0..20 {
        for _ in 0..2 {
            let id = format!("k{}.{tag}@x", ids.len());
            let from = format!("p{}@example.test", ids.len());
            hand.append(&folder, &mail(&from, "hello", &id, "HELP\n"), "");
            ids.push(id);
        }
        dice ^= dice << 13;
        dice ^= dice >> 7;
        dice ^= dice << 17;
        let mut child = run(false).spawn().unwrap();
        std::thread::sleep(StdDuration::from_millis(20 + (dice % 200) + kill));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(run(true).status().unwrap().success());
    assert!(hand.held(&folder).is_empty(), "the folder is empty");
    let moved: Vec<String> = hand.held(&done).into_iter().map(|h| h.message_id).collect();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(moved, expected, "every letter moved exactly once");
    let sent = Maildir::open(root.join("sent")).unwrap();
    let mut answers: BTreeMap<String, HashSet<String>> = BTreeMap::new();
    for message in sent.pending().unwrap() {
        let letter = read_letter(&sent.read(&message).unwrap(), &[]).unwrap();
        answers
            .entry(letter.references[0].clone())
            .or_default()
            .insert(letter.message_id);
    }
    assert_eq!(answers.len(), ids.len(), "every letter answered");
    assert!(answers.values().all(|a| a.len() == 1), "each answered once");
    let mut store = strategos::store::Store::open(&root.join("judge.db")).unwrap();
    let tx = store.begin().unwrap();
    for id in &ids {
        assert_eq!(tx.messages_with_id(id).unwrap(), 1, "{id} stored once");
    }
    assert!(tx.unhandled_messages().unwrap().is_empty());
    hand.remove(&[&folder, &done]);
}
