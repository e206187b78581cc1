//! Moving raw mail in and out: Maildir, sendmail-like commands and the recording transport on
//! their own, SMTP and IMAP against the real servers of `mailserver`.
//!
//! Tests run in parallel: each one that reads a mailbox has its own user, and finds its
//! message by a unique tag in the subject. Every wait is bounded.
//!
//! Refused logins are tried against small fake servers, never against dovecot: each failed
//! login from 127.0.0.1 makes dovecot delay the next logins from there (2, 4, 8, then 15 s),
//! which would slow every other test using the real servers.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use strategos::mail::imap::{ImapInbox, ImapSettings};
use strategos::mail::maildir::Maildir;
use strategos::mail::security::Security;
use strategos::mail::send::{
    MaildirTransport, RecordingTransport, SendError, SendmailTransport, SmtpSettings,
    SmtpTransport, Transport,
};

use crate::mailserver::{MailServers, servers, servers_with_tls};

/// A folder of its own under the system's temp dir, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("strategos-{}", tag(test)));
        fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A tag no other test and no earlier run uses.
fn tag(test: &str) -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    format!("{test}-{}-{}", std::process::id(), now.as_nanos())
}

/// A small letter with the tag in its subject and Cyrillic in its 8-bit body.
fn letter(from: &str, to: &str, tag: &str) -> Vec<u8> {
    format!(
        "From: Judge <{from}>\r\n\
         To: <{to}>\r\n\
         Subject: Orders received [{tag}]\r\n\
         Date: {}\r\n\
         Message-ID: <{tag}@strategos.test>\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\
         \r\n\
         A MOS - UKR\r\n\
         Армия Москва — Украина\r\n",
        chrono::Utc::now().to_rfc2822()
    )
    .into_bytes()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

fn to(address: &str) -> Vec<String> {
    vec![address.to_owned()]
}

/// Polls the inbox until a message with `tag` is pending (at most 30 s); returns its UID.
fn wait_for_tag(inbox: &mut ImapInbox, tag: &str) -> (u32, Vec<u8>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let pending = inbox.pending().expect("pending");
        if let Some(found) = pending.into_iter().find(|(_, raw)| contains(raw, tag)) {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "no message tagged {tag} within 30 s"
        );
        thread::sleep(Duration::from_millis(50));
    }
}

fn is_listed(inbox: &mut ImapInbox, uid: u32) -> bool {
    inbox
        .pending()
        .expect("pending")
        .iter()
        .any(|(u, _)| *u == uid)
}

/// Sends a tagged letter to `user` over SMTP, then finds it over IMAP, marks it handled and
/// checks it is no longer pending.
fn round_trip(
    servers: &MailServers,
    user: &str,
    smtp: SmtpSettings,
    imap: ImapSettings,
    test: &str,
) -> (u32, String) {
    let started = Instant::now();
    let tag = tag(test);
    let address = servers.address(user);
    let mut inbox = ImapInbox::connect(&imap).expect("IMAP connects");
    let mut transport = SmtpTransport::new(&smtp).expect("SMTP settings");
    let raw = letter(&servers.address("judge"), &address, &tag);
    transport
        .send(&servers.address("judge"), &to(&address), &raw)
        .expect("sent");
    let (uid, fetched) = wait_for_tag(&mut inbox, &tag);
    assert!(
        contains(&fetched, "Армия Москва — Украина"),
        "the 8-bit body arrives intact"
    );
    assert!(
        is_listed(&mut inbox, uid),
        "fetching with BODY.PEEK[] leaves it unseen"
    );
    inbox.mark_handled(uid).expect("marked handled");
    assert!(
        !is_listed(&mut inbox, uid),
        "a handled message is no longer pending"
    );
    inbox.logout().expect("logout");
    eprintln!("{test}: {:?}", started.elapsed());
    (uid, tag)
}

/// Maildir: deliver, list oldest first, read, mark handled (twice), nothing left pending.
#[test]
fn maildir_round_trip() {
    let scratch = Scratch::new("maildir");
    let maildir = Maildir::open(scratch.0.join("inbox")).unwrap();
    for sub in ["new", "cur", "tmp"] {
        assert!(scratch.0.join("inbox").join(sub).is_dir(), "{sub}/ is made");
    }
    assert!(maildir.pending().unwrap().is_empty());
    let first = maildir.deliver(b"Subject: first\r\n\r\none\r\n").unwrap();
    let second = maildir.deliver(b"Subject: second\r\n\r\ntwo\r\n").unwrap();
    assert_ne!(first, second);
    assert!(
        fs::read_dir(scratch.0.join("inbox/tmp"))
            .unwrap()
            .next()
            .is_none(),
        "tmp/ is empty"
    );

    let pending = maildir.pending().unwrap();
    let ids: Vec<&str> = pending.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, [first.as_str(), second.as_str()], "oldest first");
    assert_eq!(
        maildir.read(&pending[0]).unwrap(),
        b"Subject: first\r\n\r\none\r\n"
    );

    maildir.mark_handled(&pending[0]).unwrap();
    maildir.mark_handled(&pending[0]).unwrap(); // again: nothing to do
    assert!(
        scratch
            .0
            .join("inbox/cur")
            .join(format!("{first}:2,S"))
            .is_file()
    );
    assert_eq!(
        maildir.read(&pending[0]).unwrap(),
        b"Subject: first\r\n\r\none\r\n",
        "still readable"
    );
    let left: Vec<String> = maildir
        .pending()
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(left, [second]);

    maildir.mark_handled(&pending[1]).unwrap();
    assert!(maildir.pending().unwrap().is_empty());
    let reopened = Maildir::open(scratch.0.join("inbox")).unwrap();
    assert!(
        reopened.pending().unwrap().is_empty(),
        "opening again changes nothing"
    );
}

/// A message that cannot be read is an error for itself only; the others are read.
#[test]
fn maildir_unreadable_message_stays_and_the_others_go_on() {
    let scratch = Scratch::new("maildir-broken");
    let maildir = Maildir::open(&scratch.0).unwrap();
    let good = maildir.deliver(b"Subject: fine\r\n\r\n").unwrap();
    std::os::unix::fs::symlink(
        scratch.0.join("nowhere"),
        scratch.0.join("new/1.broken.host"),
    )
    .unwrap();
    fs::create_dir(scratch.0.join("new/.hidden-folder")).unwrap();

    let pending = maildir.pending().unwrap();
    assert_eq!(
        pending.len(),
        2,
        "the broken message is listed, hidden entries are not"
    );
    let mut read = 0;
    for message in &pending {
        match maildir.read(message) {
            Ok(raw) => {
                assert_eq!(message.id, good);
                assert_eq!(raw, b"Subject: fine\r\n\r\n");
                maildir.mark_handled(message).unwrap();
                read += 1;
            }
            Err(_) => assert_eq!(message.id, "1.broken.host"),
        }
    }
    assert_eq!(read, 1);
    let left: Vec<String> = maildir
        .pending()
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(left, ["1.broken.host"], "never lost, never moved");
}

/// The Maildir transport puts sent mail, unchanged, into `new/` of the sent folder.
#[test]
fn maildir_transport_keeps_sent_mail() {
    let scratch = Scratch::new("maildir-sent");
    let mut sent = MaildirTransport::open(scratch.0.join("sent")).unwrap();
    let raw = letter("judge@example.test", "player1@example.test", "sent");
    sent.send("judge@example.test", &to("player1@example.test"), &raw)
        .unwrap();
    let error = sent.send("judge@example.test", &[], &raw).unwrap_err();
    assert!(matches!(error, SendError::Permanent(_)), "{error}");
    let pending = sent.maildir().pending().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(sent.maildir().read(&pending[0]).unwrap(), raw);
}

/// A sendmail-like command gets the message on stdin and the recipients as arguments, after
/// `--` so that none is read as an option.
#[test]
fn sendmail_transport_pipes_the_message() {
    let scratch = Scratch::new("sendmail");
    let out = scratch.0.join("message");
    let script = r#"cat > "$0" && printf '%s\n' "$@" > "$0.recipients""#;
    let mut sendmail =
        SendmailTransport::new(vec!["sh".into(), "-c".into(), script.into(), path(&out)]);
    let raw = letter("judge@example.test", "player1@example.test", "sendmail");
    let recipients = vec![
        "player1@example.test".to_owned(),
        "player2@example.test".to_owned(),
    ];
    sendmail
        .send("judge@example.test", &recipients, &raw)
        .unwrap();
    assert_eq!(fs::read(&out).unwrap(), raw);
    assert_eq!(
        fs::read_to_string(format!("{}.recipients", path(&out))).unwrap(),
        "--\nplayer1@example.test\nplayer2@example.test\n"
    );
    // A command that ends with `--` already gets no second one; an address that looks like an
    // option stays after it.
    let mut sendmail = SendmailTransport::new(vec![
        "sh".into(),
        "-c".into(),
        script.into(),
        path(&out),
        "--".into(),
    ]);
    sendmail
        .send(
            "judge@example.test",
            &["-oQ/tmp/x@evil.test".to_owned()],
            &raw,
        )
        .unwrap();
    assert_eq!(
        fs::read_to_string(format!("{}.recipients", path(&out))).unwrap(),
        "--\n-oQ/tmp/x@evil.test\n"
    );
}

fn path(p: &Path) -> String {
    p.to_str().unwrap().to_owned()
}

/// Exit 75 is transient, other codes permanent, a missing program or a hang transient.
#[test]
fn sendmail_exit_codes_decide_the_failure() {
    let raw = letter(
        "judge@example.test",
        "player1@example.test",
        "sendmail-codes",
    );
    let recipient = to("player1@example.test");
    let run = |script: &str| {
        SendmailTransport::new(vec!["sh".into(), "-c".into(), script.into()]).send(
            "judge@example.test",
            &recipient,
            &raw,
        )
    };
    assert_eq!(run("cat > /dev/null"), Ok(()));
    assert_eq!(run("exit 0"), Ok(()), "a command may ignore its input");
    let tempfail = run("echo 'queue full' >&2; exit 75").unwrap_err();
    assert!(
        matches!(&tempfail, SendError::Transient(m) if m.contains("queue full")),
        "{tempfail}"
    );
    let refused = run("echo 'no such user' >&2; exit 67").unwrap_err();
    assert!(
        matches!(&refused, SendError::Permanent(m) if m.contains("67")),
        "{refused}"
    );
    assert!(matches!(run("kill -9 $$"), Err(SendError::Transient(_))));

    let missing = SendmailTransport::new(vec!["/nonexistent/sendmail".into()])
        .send("judge@example.test", &recipient, &raw)
        .unwrap_err();
    assert!(missing.is_transient(), "{missing}");

    let mut slow = SendmailTransport::new(vec!["sh".into(), "-c".into(), "exec sleep 30".into()]);
    slow.timeout = Duration::from_millis(300);
    let started = Instant::now();
    let hung = slow
        .send("judge@example.test", &recipient, &raw)
        .unwrap_err();
    assert!(hung.is_transient(), "{hung}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the hung command is killed"
    );
}

/// The recording transport keeps what it sends and fails as it is told.
#[test]
fn recording_transport_fails_as_told() {
    let mut recorder = RecordingTransport::new();
    let raw = b"Subject: x\r\n\r\n".to_vec();
    recorder.fail_next(2);
    recorder.refuse("Nobody@Example.test");
    recorder.fail_transiently_for("player2@example.test", 1);

    let send = |r: &mut RecordingTransport, who: &str| r.send("judge@example.test", &to(who), &raw);
    assert!(matches!(
        send(&mut recorder, "player1@example.test"),
        Err(SendError::Transient(_))
    ));
    assert!(matches!(
        send(&mut recorder, "player1@example.test"),
        Err(SendError::Transient(_))
    ));
    assert_eq!(send(&mut recorder, "player1@example.test"), Ok(()));
    for _ in 0..2 {
        let refused = send(&mut recorder, "nobody@example.test").unwrap_err();
        assert!(
            matches!(refused, SendError::Permanent(_)),
            "refused every time: {refused}"
        );
    }
    assert!(
        send(&mut recorder, "player2@example.test")
            .unwrap_err()
            .is_transient()
    );
    assert_eq!(send(&mut recorder, "player2@example.test"), Ok(()));

    assert_eq!(recorder.attempts, 7);
    let who: Vec<&str> = recorder.sent.iter().map(|m| m.to[0].as_str()).collect();
    assert_eq!(who, ["player1@example.test", "player2@example.test"]);
    assert_eq!(recorder.sent[0].raw, raw);
    assert_eq!(recorder.sent[0].from, "judge@example.test");
}

/// A closed port is a transient failure for SMTP and an error for IMAP, both at once.
#[test]
fn closed_port_is_transient() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let settings = SmtpSettings {
        host: "127.0.0.1".into(),
        port,
        security: Security::None,
        user: None,
        password: None,
        ca_pem: None,
        timeout_secs: 5,
    };
    let raw = letter("judge@example.test", "player1@example.test", "closed");
    let error = SmtpTransport::new(&settings)
        .unwrap()
        .send("judge@example.test", &to("player1@example.test"), &raw)
        .unwrap_err();
    eprintln!("{error}");
    assert!(error.is_transient(), "{error}");

    let imap = ImapSettings::new("127.0.0.1", port, Security::None, "judge", "secret");
    let error = ImapInbox::connect(&imap).unwrap_err();
    eprintln!("{error}");
    assert!(error.contains("connect"), "{error}");
}

/// Plain SMTP, read back over plain IMAP.
#[test]
fn smtp_plain_to_imap_plain() {
    let Some(servers) = servers("smtp_plain_to_imap_plain") else {
        return;
    };
    round_trip(
        servers,
        "player3",
        servers.smtp(Security::None),
        servers.imap("player3", Security::None),
        "smtp-plain",
    );
}

/// SMTP with STARTTLS and a login, read back over IMAP with STARTTLS.
#[test]
fn smtp_starttls_to_imap_starttls() {
    let Some(servers) = servers_with_tls("smtp_starttls_to_imap_starttls") else {
        return;
    };
    let mut smtp = servers.smtp(Security::StartTls);
    smtp.user = Some(servers.address("judge"));
    smtp.password = Some(servers.password.clone());
    round_trip(
        servers,
        "player4",
        smtp,
        servers.imap("player4", Security::StartTls),
        "smtp-starttls",
    );
}

/// SMTPS read back over IMAPS; handled mail moves to its own folder.
#[test]
fn smtps_to_imaps_moves_handled_mail() {
    let Some(servers) = servers_with_tls("smtps_to_imaps_moves_handled_mail") else {
        return;
    };
    let mut imap = servers.imap("player5", Security::Tls);
    imap.done_folder = Some("Handled".to_owned());
    let (_, tag) = round_trip(
        servers,
        "player5",
        servers.smtp(Security::Tls),
        imap,
        "smtps",
    );
    // dovecot keeps the folder as `.Handled` in the user's Maildir.
    if let Some(root) = &servers.maildir_root {
        let handled = root
            .join(servers.address("player5"))
            .join("Maildir/.Handled/cur");
        let moved = fs::read_dir(&handled)
            .unwrap()
            .filter_map(Result::ok)
            .any(|entry| contains(&fs::read(entry.path()).unwrap_or_default(), &tag));
        assert!(moved, "the handled message is in {}", handled.display());
    }
}

/// An unknown user of the domain is refused at RCPT: a permanent failure.
#[test]
fn smtp_unknown_user_is_permanent() {
    let Some(servers) = servers("smtp_unknown_user_is_permanent") else {
        return;
    };
    let nobody = servers.address("nobody");
    let raw = letter(&servers.address("judge"), &nobody, &tag("unknown"));
    let error = SmtpTransport::new(&servers.smtp(Security::None))
        .unwrap()
        .send(&servers.address("judge"), &to(&nobody), &raw)
        .unwrap_err();
    eprintln!("{error}");
    assert!(
        matches!(&error, SendError::Permanent(m) if m.contains("550")),
        "{error}"
    );
}

/// A real SMTP server (Postfix) takes a recipient with a quoted local part as lettre writes
/// it (a foreign domain: it lands in the test servers' catch-all).
#[test]
fn smtp_takes_a_quoted_local_part() {
    let Some(servers) = servers("smtp_takes_a_quoted_local_part") else {
        return;
    };
    let quoted = "\"ann smith\"@quoted.test";
    let raw = letter(&servers.address("judge"), quoted, &tag("quoted"));
    SmtpTransport::new(&servers.smtp(Security::None))
        .unwrap()
        .send(&servers.address("judge"), &to(quoted), &raw)
        .expect("Postfix takes the quoted recipient");
}

/// Without the test CA the servers' certificates are refused, by SMTP and by IMAP.
#[test]
fn tls_without_the_test_ca_is_refused() {
    let Some(servers) = servers_with_tls("tls_without_the_test_ca_is_refused") else {
        return;
    };
    let mut smtp = servers.smtp(Security::Tls);
    smtp.ca_pem = None;
    let player = servers.address("player6");
    let raw = letter(&servers.address("judge"), &player, &tag("no-ca"));
    let error = SmtpTransport::new(&smtp)
        .unwrap()
        .send(&servers.address("judge"), &to(&player), &raw)
        .unwrap_err();
    eprintln!("{error}");
    assert!(error.is_transient(), "{error}");

    for security in [Security::Tls, Security::StartTls] {
        let mut imap = servers.imap("player6", security);
        imap.ca_pem = None;
        let error = ImapInbox::connect(&imap).unwrap_err();
        eprintln!("{error}");
        assert!(error.to_lowercase().contains("certificate"), "{error}");
    }
}

/// IDLE: quiet mailbox, no wake; new mail wakes the wait well before its limit.
#[test]
fn imap_idle_wakes_on_new_mail() {
    let Some(servers) = servers("imap_idle_wakes_on_new_mail") else {
        return;
    };
    // The catch-all mailbox, which no other test reads: this test marks everything in it.
    let mut inbox = ImapInbox::connect(&servers.imap("catchall", Security::None)).unwrap();
    assert!(inbox.can_idle());
    // Mail left by earlier runs is handled first, so that only ours is new.
    for (uid, _) in inbox.pending().unwrap() {
        inbox.mark_handled(uid).unwrap();
    }
    let started = Instant::now();
    assert!(
        !inbox.wait_for_mail(Duration::from_millis(300)).unwrap(),
        "nothing new yet"
    );
    assert!(started.elapsed() >= Duration::from_millis(250));

    let tag = tag("idle");
    let smtp = servers.smtp(Security::None);
    let (from, player) = (servers.address("judge"), servers.address("catchall"));
    let raw = letter(&from, &player, &tag);
    let sender = thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        SmtpTransport::new(&smtp)
            .unwrap()
            .send(&from, &to(&player), &raw)
    });
    let started = Instant::now();
    let woke = inbox.wait_for_mail(Duration::from_secs(20)).unwrap();
    let waited = started.elapsed();
    sender.join().unwrap().expect("sent");
    assert!(woke, "IDLE announced the new mail");
    eprintln!("imap_idle_wakes_on_new_mail: woke after {waited:?}");

    let (uid, _) = wait_for_tag(&mut inbox, &tag);
    inbox.mark_handled(uid).unwrap();
    assert!(!is_listed(&mut inbox, uid));
    assert!(inbox.is_connected());
}

/// A one-connection SMTP server on loopback answering each command by its verb
/// (`EHLO`, `AUTH`, `MAIL`, `RCPT`, `DATA`, `.` for the end of the message); verbs not in
/// `replies` get the usual positive answers.
fn fake_smtp(replies: &'static [(&'static str, &'static str)]) -> u16 {
    fake_smtp_heard(replies).0
}

/// `fake_smtp`, with the command lines it heard (not the message's).
fn fake_smtp_heard(
    replies: &'static [(&'static str, &'static str)],
) -> (u16, Arc<Mutex<Vec<String>>>) {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&heard);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        let _ = writer.write_all(b"220 fake.example.test ESMTP\r\n");
        let (mut line, mut in_data) = (String::new(), false);
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let verb = if in_data {
                if line != ".\r\n" {
                    continue;
                }
                ".".to_owned()
            } else {
                kept.lock().unwrap().push(line.trim_end().to_owned());
                line.split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase()
            };
            let reply = match replies.iter().find(|(v, _)| *v == verb) {
                Some((_, reply)) => reply.to_string(),
                None => match verb.as_str() {
                    "EHLO" => {
                        "250-fake.example.test\r\n250-8BITMIME\r\n250 AUTH PLAIN LOGIN".to_owned()
                    }
                    "DATA" => "354 go ahead".to_owned(),
                    "QUIT" => "221 bye".to_owned(),
                    _ => "250 ok".to_owned(),
                },
            };
            in_data = verb == "DATA" && reply.starts_with("354");
            if writer.write_all(format!("{reply}\r\n").as_bytes()).is_err() || verb == "QUIT" {
                return;
            }
        }
    });
    (port, heard)
}

/// A quoted local part the judge keeps (`"ann smith"@q.test`) goes out whole: composed into
/// the To header and read back as the same address, delivered by the Maildir, given to
/// sendmail as one argument after `--`, and named as it is in SMTP's RCPT.
#[test]
fn quoted_local_parts_go_out_through_every_transport() {
    use strategos::letter::{Address, OutgoingLetter};
    use strategos::mail::compose::compose;
    use strategos::mail::read::read_letter;
    let quoted = "\"ann smith\"@q.test";
    let letter = OutgoingLetter::fresh(quoted, "Re: orders", "Orders received.\n");
    let judge = Address::new("judge@example.test");
    let raw = compose(&letter, &judge, "q1@strategos.test", chrono::Utc::now());
    assert!(!raw.is_empty());
    let read = read_letter(&raw, &[]).unwrap();
    let recipients: Vec<&str> = read.to.iter().map(|a| a.email.as_str()).collect();
    assert_eq!(recipients, [quoted]);
    let recipients = to(quoted);

    let scratch = Scratch::new("quoted");
    let mut maildir = MaildirTransport::open(scratch.0.join("sent")).unwrap();
    maildir
        .send("judge@example.test", &recipients, &raw)
        .unwrap();
    assert_eq!(maildir.maildir().pending().unwrap().len(), 1);

    let out = scratch.0.join("message");
    let script = r#"cat > /dev/null && printf '%s\n' "$@" > "$0""#;
    let mut sendmail =
        SendmailTransport::new(vec!["sh".into(), "-c".into(), script.into(), path(&out)]);
    sendmail
        .send("judge@example.test", &recipients, &raw)
        .unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), format!("--\n{quoted}\n"));

    let (port, heard) = fake_smtp_heard(&[]);
    let settings = SmtpSettings {
        host: "127.0.0.1".into(),
        port,
        security: Security::None,
        user: None,
        password: None,
        ca_pem: None,
        timeout_secs: 10,
    };
    SmtpTransport::new(&settings)
        .unwrap()
        .send("judge@example.test", &recipients, &raw)
        .unwrap();
    let heard = heard.lock().unwrap();
    assert!(
        heard.iter().any(|l| l == &format!("RCPT TO:<{quoted}>")),
        "{heard:?}"
    );
}

/// Sends one letter to a fake SMTP server answering with `replies`.
fn send_to_fake(replies: &'static [(&'static str, &'static str)], login: bool) -> SendError {
    let settings = SmtpSettings {
        host: "127.0.0.1".into(),
        port: fake_smtp(replies),
        security: Security::None,
        user: login.then(|| "judge@example.test".to_owned()),
        password: login.then(|| "wrong".to_owned()),
        ca_pem: None,
        timeout_secs: 10,
    };
    let raw = letter("judge@example.test", "player1@example.test", "fake");
    SmtpTransport::new(&settings)
        .unwrap()
        .send("judge@example.test", &to("player1@example.test"), &raw)
        .unwrap_err()
}

/// 4xx replies are transient, 5xx permanent, except a refused login (the judge's own
/// settings): transient, so that no letter is given up.
#[test]
fn smtp_replies_decide_the_failure() {
    let busy = send_to_fake(&[("RCPT", "451 4.3.0 mailbox busy, try later")], false);
    eprintln!("{busy}");
    assert!(
        matches!(&busy, SendError::Transient(m) if m.contains("451")),
        "{busy}"
    );
    let too_big = send_to_fake(&[(".", "552 5.3.4 message too big")], false);
    eprintln!("{too_big}");
    assert!(
        matches!(&too_big, SendError::Permanent(m) if m.contains("552")),
        "{too_big}"
    );
    let login = send_to_fake(&[("AUTH", "535 5.7.8 authentication failed")], true);
    eprintln!("{login}");
    assert!(
        matches!(&login, SendError::Unavailable(m) if m.contains("535")),
        "{login}"
    );
}

/// A one-connection IMAP server on loopback that greets with `greeting` and refuses LOGIN.
fn fake_imap(greeting: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        let _ = writer.write_all(format!("{greeting}\r\n").as_bytes());
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            let tag = line.split_whitespace().next().unwrap_or("*").to_owned();
            let reply = format!("{tag} NO [AUTHENTICATIONFAILED] Authentication failed.\r\n");
            if writer.write_all(reply.as_bytes()).is_err() {
                return;
            }
            line.clear();
        }
    });
    port
}

/// A refused login, or a server sending BYE at once, is an error from `connect`.
#[test]
fn imap_refusals_are_errors() {
    let port = fake_imap("* OK [CAPABILITY IMAP4rev1 IDLE] fake ready");
    let settings = ImapSettings::new("127.0.0.1", port, Security::None, "judge", "wrong");
    let error = ImapInbox::connect(&settings).unwrap_err();
    eprintln!("{error}");
    assert!(
        error.contains("login") && error.contains("AUTHENTICATIONFAILED"),
        "{error}"
    );

    let port = fake_imap("* BYE too many connections");
    let settings = ImapSettings::new("127.0.0.1", port, Security::None, "judge", "secret");
    let error = ImapInbox::connect(&settings).unwrap_err();
    eprintln!("{error}");
    assert!(error.contains("too many connections"), "{error}");
}
