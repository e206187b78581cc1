//! `deploy/postfix/`: the Postfix configuration that pipes the judge's address to `strategos
//! deliver`, installed into the real Postfix the tests run (`../shared/tools/mailserver`,
//! started by `.ci/run` or by the test binary): its three pieces as shipped, with the address
//! and paths of the test, then letters sent over SMTP come back answered in the judge's sent
//! Maildir; and every failure before a letter is stored makes Postfix keep the letter (never
//! bounce it), which is delivered once the fault is mended (`pipe_failures.rs`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use strategos::mail::security::Security;
use strategos::mail::send::{SmtpTransport, Transport};

use crate::judge_harness::TempDir;
use crate::mailserver::servers;

/// The judge's address in the test (inside the servers' domain, so Postfix takes it).
const ADDRESS: &str = "strategos-pipe@example.test";

/// The tests that change Postfix's configuration (the pipe's service, the transport table)
/// run one at a time.
pub static POSTFIX: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A shipped file of `deploy/postfix/` with the test's address, paths and user in place of
/// the example ones; comment lines left out.
fn shipped(name: &str, conf: &Path, config: &Path) -> Vec<String> {
    shipped_for(name, conf, config, ADDRESS, config.parent().unwrap())
}

/// `shipped` for the judge at `address`, its pipe run in `directory`.
pub fn shipped_for(
    name: &str,
    conf: &Path,
    config: &Path,
    address: &str,
    directory: &Path,
) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/postfix")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.replace("/usr/local/bin/strategos", env!("CARGO_BIN_EXE_strategos"))
                .replace("/etc/strategos/config.toml", &config.display().to_string())
                .replace("user=strategos", "user=nobody")
                .replace(
                    "directory=/var/lib/strategos",
                    &format!("directory={}", directory.display()),
                )
                .replace("judge@example.org", address)
                .replace(
                    "hash:/etc/postfix/transport",
                    &format!("texthash:{}/transport", conf.display()),
                )
        })
        .collect()
}

pub fn postconf(conf: &Path, args: &[&str]) {
    let out = Command::new("postconf")
        .arg("-c")
        .arg(conf)
        .args(args)
        .output()
        .expect("postconf runs");
    assert!(
        out.status.success(),
        "postconf {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn postfix_pipes_the_judges_letters_to_deliver() {
    let Some(servers) = servers("postfix_pipes_the_judges_letters_to_deliver") else {
        return;
    };
    let _one_at_a_time = POSTFIX.lock().unwrap_or_else(|e| e.into_inner());
    let folder = servers.dir.clone().expect("the servers say their folder");
    let conf = folder.join("postfix/conf");
    // The judge's own folder, writable by the pipe's user.
    let judge = TempDir::new("postfix-pipe");
    std::fs::set_permissions(
        &judge.0,
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let config = judge.0.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"{ADDRESS}\"\nkeeper = \"judge@example.test\"\n\
             [paths]\ndatabase = \"{0}/judge.db\"\n[inbox]\nmaildir = \"{0}/inbox\"\n\
             [outbox]\nmaildir = \"{0}/sent\"\n",
            judge.0.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&config, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    // The three pieces of deploy/postfix, as shipped.
    let service = shipped("master.cf", &conf, &config).join(" ");
    let service = service.split_whitespace().collect::<Vec<_>>().join(" ");
    postconf(&conf, &["-M", &format!("strategos/unix={service}")]);
    for setting in shipped("main.cf", &conf, &config) {
        let setting: String = setting.split_whitespace().collect::<Vec<_>>().join(" ");
        postconf(&conf, &["-e", &setting.replace(" = ", "=")]);
    }
    std::fs::write(
        conf.join("transport"),
        shipped("transport", &conf, &config).join("\n") + "\n",
    )
    .unwrap();
    // Postfix takes mail for the address (the test servers list their mailboxes).
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
    assert!(
        reload.status.success(),
        "{}",
        String::from_utf8_lossy(&reload.stderr)
    );

    // Two letters through SMTP: each is piped to `strategos deliver` and answered.
    let mut smtp = SmtpTransport::new(&servers.smtp(Security::None)).expect("SMTP settings");
    let player = servers.address("player5");
    for (n, body) in ["HELP", "VERSION"].iter().enumerate() {
        let raw = format!(
            "From: {player}\r\nTo: {ADDRESS}\r\nSubject: piped {n}\r\nMessage-ID: <pipe-{n}-{}@example.test>\r\n\r\n{body}\r\n",
            std::process::id()
        );
        // Right after the reload, a Postfix process started before it may still hold the old
        // list of mailboxes and refuse the address: the letter is offered again until the
        // new configuration answers.
        let offered = Instant::now();
        loop {
            match smtp.send(&player, &[ADDRESS.to_string()], raw.as_bytes()) {
                Ok(_) => break,
                Err(_) if offered.elapsed() < Duration::from_secs(30) => {
                    std::thread::sleep(Duration::from_millis(200));
                }
                Err(e) => panic!("Postfix takes the letter: {e:?}"),
            }
        }
    }
    let sent = judge.0.join("sent/new");
    let started = Instant::now();
    let answers = loop {
        let answers: Vec<String> = std::fs::read_dir(&sent)
            .map(|dir| {
                dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                    .collect()
            })
            .unwrap_or_default();
        if answers.len() >= 2 || started.elapsed() > Duration::from_secs(60) {
            break answers;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let log = std::fs::read_to_string(folder.join("log/postfix.log")).unwrap_or_default();
    let tail: Vec<&str> = log.lines().rev().take(15).collect();
    // Time for a letter sent twice to show.
    std::thread::sleep(Duration::from_millis(500));
    let subjects: Vec<String> = std::fs::read_dir(&sent)
        .map(|dir| {
            dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                .filter_map(|a| {
                    a.lines()
                        .find(|l| l.starts_with("Subject:"))
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        subjects.len(),
        2,
        "answers in the judge's sent Maildir: {subjects:?}; postfix log:\n{tail:?}"
    );
    for (n, what) in [(0, "Re: STRA piped 0"), (1, "Re: STRA piped 1")] {
        assert!(
            answers.iter().any(|a| a.contains(what)),
            "answer {n} ({what}) missing: {answers:?}"
        );
    }
    assert!(answers.iter().any(|a| a.contains("Strategos")));
    assert!(
        log.contains("relay=strategos"),
        "Postfix delivered through the pipe: {tail:?}"
    );
}
