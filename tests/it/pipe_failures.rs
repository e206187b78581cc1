//! The Postfix pipe never bounces a letter the judge could not store: `strategos deliver`,
//! installed from `deploy/postfix/` into the tests' real Postfix, meets each fault a keeper
//! meets (a configuration it cannot read, a key it does not know, a database owned by another
//! user, locked by another process, of a newer schema, or of an older one that needs
//! migrating), exits 75, and Postfix keeps the letter in its queue (its log saying "deferred",
//! with no output of the command, which it would mail back to the sender); once the fault is
//! mended, the letter is delivered and answered. The configuration's paths are relative, read
//! from its own folder, though the pipe runs in another.

use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use strategos::mail::security::Security;
use strategos::mail::send::{SmtpTransport, Transport};
use strategos::store::SCHEMA;

use crate::judge_harness::TempDir;
use crate::mailserver::{MailServers, servers};
use crate::postfix_pipe::{POSTFIX, postconf, shipped_for};
use crate::upgrade::{database_of_schema, make_newer};

/// The judge's address in this test.
const ADDRESS: &str = "strategos-faults@example.test";

/// The user and group Postfix runs the pipe as in the tests.
const NOBODY: (u32, u32) = (65534, 65534);

/// The judge as Postfix pipes to it, and what is needed to watch Postfix do it.
struct Pipe<'a> {
    servers: &'a MailServers,
    conf: PathBuf,
    log: PathBuf,
    judge: PathBuf,
    config: PathBuf,
    smtp: SmtpTransport,
    letters: usize,
}

impl Pipe<'_> {
    /// Sends a letter to the judge; returns its Postfix queue id.
    fn send(&mut self, subject: &str) -> String {
        self.letters += 1;
        let id = format!("fault-{}-{}@example.test", self.letters, std::process::id());
        let player = self.servers.address("player6");
        let raw = format!(
            "From: {player}\r\nTo: {ADDRESS}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\r\nHELP\r\n"
        );
        // Right after a reload a Postfix process may still hold the old list of mailboxes.
        let offered = Instant::now();
        while let Err(e) = self
            .smtp
            .send(&player, &[ADDRESS.to_string()], raw.as_bytes())
        {
            assert!(
                offered.elapsed() < Duration::from_secs(30),
                "Postfix takes the letter: {e:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        let needle = format!(": message-id=<{id}>");
        let line = self.wait_for_log(|l| l.contains(&needle), "its queue id");
        let before = line.split(&needle).next().unwrap_or_default();
        before.rsplit(' ').next().unwrap_or_default().to_string()
    }

    /// The first line of Postfix's log that `wanted` accepts, waiting for it (Postfix works
    /// on its own time; up to a minute).
    fn wait_for_log(&self, wanted: impl Fn(&str) -> bool, what: &str) -> String {
        let started = Instant::now();
        loop {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            if let Some(line) = log.lines().find(|l| wanted(l)) {
                return line.to_string();
            }
            if started.elapsed() > Duration::from_secs(60) {
                let tail: Vec<&str> = log.lines().rev().take(20).collect();
                panic!("no line of the Postfix log shows {what}: {tail:#?}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The delivery of `queue` through the pipe, as Postfix logs it once it is `status`.
    fn delivery(&self, queue: &str, status: &str) -> String {
        let prefix = format!(" {queue}: to=<{ADDRESS}>");
        self.wait_for_log(
            |l| l.contains(&prefix) && l.contains("relay=strategos") && l.contains(status),
            &format!("{queue} {status}"),
        )
    }

    /// Whether Postfix's queue holds `queue`.
    fn queued(&self, queue: &str) -> bool {
        let out = Command::new("postqueue")
            .arg("-c")
            .arg(&self.conf)
            .arg("-p")
            .output()
            .expect("postqueue runs");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .any(|l| l.starts_with(queue))
    }

    /// Asks Postfix to deliver the letter kept as `queue` now.
    fn flush(&self, queue: &str) {
        let out = Command::new("postqueue")
            .arg("-c")
            .arg(&self.conf)
            .args(["-i", queue])
            .output()
            .expect("postqueue runs");
        assert!(out.status.success(), "{out:?}");
    }

    /// Answers in the judge's sent Maildir to letters whose subject holds `subject`.
    fn answers(&self, subject: &str) -> usize {
        std::fs::read_dir(self.judge.join("sent/new"))
            .map(|dir| {
                dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                    .filter(|a| a.contains(&format!("Subject: Re: STRA {subject}")))
                    .count()
            })
            .unwrap_or(0)
    }

    /// A letter sent while `break_it` holds: deferred and kept, with nothing of the
    /// command's output in Postfix's log; then, `mend` done, delivered and answered once.
    fn deferred_then_delivered(
        &mut self,
        fault: &str,
        break_it: impl FnOnce(&Pipe),
        mend: impl FnOnce(&Pipe),
    ) {
        break_it(self);
        let subject = format!("fault {fault}");
        let queue = self.send(&subject);
        let deferred = self.delivery(&queue, "status=deferred");
        assert!(
            !deferred.contains("Command output"),
            "{fault}: the command's output would go back to the sender: {deferred}"
        );
        assert!(self.queued(&queue), "{fault}: Postfix keeps the letter");
        assert_eq!(self.answers(&subject), 0, "{fault}: not answered yet");
        mend(self);
        self.flush(&queue);
        self.delivery(&queue, "status=sent");
        assert!(!self.queued(&queue), "{fault}: delivered");
        assert_eq!(self.answers(&subject), 1, "{fault}: answered once");
    }

    fn database(&self) -> PathBuf {
        self.judge.join("judge.db")
    }
}

/// Gives `path` (and the database's journal files beside it, if it is one) to `owner`.
fn give(path: &Path, owner: (u32, u32)) {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        if Path::new(&name).exists() {
            chown(&name, Some(owner.0), Some(owner.1)).unwrap();
        }
    }
}

fn config_text(extra: &str) -> String {
    format!(
        "[judge]\naddress = \"{ADDRESS}\"\nkeeper = \"judge@example.test\"\n{extra}\
         [paths]\ndatabase = \"judge.db\"\n[inbox]\nmaildir = \"inbox\"\n\
         [outbox]\nmaildir = \"sent\"\n"
    )
}

#[test]
fn each_failure_before_a_letter_is_stored_defers_it_until_mended() {
    let Some(servers) = servers("each_failure_before_a_letter_is_stored_defers_it_until_mended")
    else {
        return;
    };
    let _one_at_a_time = POSTFIX.lock().unwrap_or_else(|e| e.into_inner());
    let folder = servers.dir.clone().expect("the servers say their folder");
    let conf = folder.join("postfix/conf");
    // The judge's folder is the pipe user's; the pipe runs in another folder.
    let dir = TempDir::new("pipe-faults");
    let judge = dir.0.join("judge");
    let elsewhere = dir.0.join("elsewhere");
    for made in [&judge, &elsewhere] {
        std::fs::create_dir_all(made).unwrap();
        std::fs::set_permissions(made, std::fs::Permissions::from_mode(0o700)).unwrap();
        chown(made, Some(NOBODY.0), Some(NOBODY.1)).unwrap();
    }
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = judge.join("config.toml");
    let write_config = |extra: &str| {
        std::fs::write(&config, config_text(extra)).unwrap();
        // As deploy/README.md installs it: root's, readable by the judge's group.
        chown(&config, Some(0), Some(NOBODY.1)).unwrap();
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o640)).unwrap();
    };
    write_config("");
    let service = shipped_for("master.cf", &conf, &config, ADDRESS, &elsewhere).join(" ");
    let service = service.split_whitespace().collect::<Vec<_>>().join(" ");
    postconf(&conf, &["-M", &format!("strategos/unix={service}")]);
    for setting in shipped_for("main.cf", &conf, &config, ADDRESS, &elsewhere) {
        let setting: String = setting.split_whitespace().collect::<Vec<_>>().join(" ");
        postconf(&conf, &["-e", &setting.replace(" = ", "=")]);
    }
    std::fs::write(
        conf.join("transport"),
        shipped_for("transport", &conf, &config, ADDRESS, &elsewhere).join("\n") + "\n",
    )
    .unwrap();
    let mailboxes = conf.join("vmailbox");
    let listed = std::fs::read_to_string(&mailboxes).unwrap();
    if !listed.lines().any(|l| l.starts_with(ADDRESS)) {
        std::fs::write(&mailboxes, format!("{listed}{ADDRESS} OK\n")).unwrap();
    }
    let reload = Command::new("postfix")
        .arg("-c")
        .arg(&conf)
        .arg("reload")
        .output()
        .expect("postfix runs");
    assert!(reload.status.success(), "{reload:?}");
    let mut pipe = Pipe {
        servers,
        conf: conf.clone(),
        log: folder.join("log/postfix.log"),
        judge: judge.clone(),
        config: config.clone(),
        smtp: SmtpTransport::new(&servers.smtp(Security::None)).expect("SMTP settings"),
        letters: 0,
    };

    // Working: the relative paths are read from the configuration's folder, not from the
    // folder the pipe runs in.
    let queue = pipe.send("fault none");
    pipe.delivery(&queue, "status=sent");
    assert_eq!(pipe.answers("fault none"), 1);
    assert!(
        pipe.database().is_file(),
        "the database beside the configuration"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    let mode = std::fs::metadata(pipe.database())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o077,
        0,
        "the database is the judge's alone: {mode:o}"
    );

    // A configuration the pipe's user cannot read.
    pipe.deferred_then_delivered(
        "unreadable configuration",
        |p| {
            chown(&p.config, Some(0), Some(0)).unwrap();
            std::fs::set_permissions(&p.config, std::fs::Permissions::from_mode(0o600)).unwrap();
        },
        |_| write_config(""),
    );
    // A key this version does not know.
    pipe.deferred_then_delivered(
        "unknown key",
        |_| write_config("frobnicate = 1\n"),
        |_| write_config(""),
    );
    // A database owned by another user.
    pipe.deferred_then_delivered(
        "database of another user",
        |p| give(&p.database(), (0, 0)),
        |p| give(&p.database(), NOBODY),
    );
    // A database another process holds locked (the daemon in a long transaction).
    let holder: std::cell::RefCell<Option<Connection>> = Default::default();
    pipe.deferred_then_delivered(
        "database locked",
        |p| {
            let conn = Connection::open(p.database()).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            give(&p.database(), NOBODY);
            *holder.borrow_mut() = Some(conn);
        },
        |_| {
            let conn = holder.borrow_mut().take().unwrap();
            conn.execute_batch("ROLLBACK").unwrap();
            drop(conn);
        },
    );
    // A database a later version of the judge brought up.
    pipe.deferred_then_delivered(
        "database of a newer schema",
        |p| {
            make_newer(&p.database());
            give(&p.database(), NOBODY);
        },
        |p| {
            let conn = Connection::open(p.database()).unwrap();
            conn.pragma_update(None, "user_version", SCHEMA).unwrap();
            drop(conn);
            give(&p.database(), NOBODY);
        },
    );
    // A database an older version left, which needs migrating: mended by `strategos migrate`
    // run as the judge's user, which first copies it beside itself.
    pipe.deferred_then_delivered(
        "database to migrate",
        |p| {
            std::fs::rename(p.database(), p.judge.join("newer.db")).unwrap();
            database_of_schema(&p.database(), SCHEMA - 1);
            crate::upgrade::make_private(&p.database());
            give(&p.database(), NOBODY);
        },
        |p| {
            use std::os::unix::process::CommandExt;
            let out = Command::new(env!("CARGO_BIN_EXE_strategos"))
                .arg("--config")
                .arg(&p.config)
                .arg("migrate")
                .uid(NOBODY.0)
                .gid(NOBODY.1)
                .current_dir(&elsewhere)
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
            let copy = p
                .judge
                .join(format!("judge.db.schema-{}.backup", SCHEMA - 1));
            assert!(copy.is_file(), "{out:?}");
        },
    );
}
