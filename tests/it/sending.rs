//! Sending that cannot work fails fast: when the way out is down (no connection, a command
//! that cannot run or hangs) the outbox stops its round at the first letter rather than
//! waiting on each; and a `sendmail` that the process's `no_new_privs` (systemd's
//! `NoNewPrivileges=`) would stop is not run at all, the log saying why at start.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use strategos::mail::send::{RecordingTransport, SendError, Transport};

use crate::judge_harness::{Harness, TempDir, mail};

/// A transport shared with the test, so it can see what was tried.
struct Shared(Arc<Mutex<RecordingTransport>>);

impl Transport for Shared {
    fn send(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        self.0.lock().unwrap().send(from, to, raw)
    }
}

#[test]
fn a_way_out_that_is_down_ends_the_round_at_the_first_letter() {
    let mut judge = Harness::new("sending-down");
    let recorder = Arc::new(Mutex::new(RecordingTransport::new()));
    judge.daemon.transport = Box::new(Shared(recorder.clone()));
    let t0: chrono::DateTime<chrono::Utc> = "2027-01-05T12:00:00Z".parse().unwrap();
    judge.set_time(t0);
    // Three answers queued for three addresses, the server down for the next round.
    recorder.lock().unwrap().go_down(1);
    for (n, who) in ["ann", "bob", "cid"].iter().enumerate() {
        judge.daemon.accept(
            &mail(
                &format!("{who}@example.test"),
                "s",
                &format!("d{n}@x"),
                "HELP\n",
            ),
            "test",
        );
    }
    judge.daemon.flush();
    assert_eq!(
        recorder.lock().unwrap().attempts,
        1,
        "one try, not one a letter"
    );
    assert!(recorder.lock().unwrap().sent.is_empty());
    // The first letter waits for its retry; the others were not tried, and go at once.
    judge.tick(t0 + chrono::Duration::seconds(30));
    let sent: Vec<String> = recorder
        .lock()
        .unwrap()
        .sent
        .iter()
        .map(|m| m.to[0].clone())
        .collect();
    assert_eq!(sent, ["bob@example.test", "cid@example.test"]);
    judge.tick(t0 + chrono::Duration::minutes(5));
    assert_eq!(
        recorder.lock().unwrap().sent.len(),
        3,
        "the first goes after its wait"
    );
}

#[test]
fn a_sendmail_stopped_by_no_new_privileges_is_not_run_and_says_why() {
    let test = "a_sendmail_stopped_by_no_new_privileges_is_not_run_and_says_why";
    if Command::new("setpriv").arg("--version").output().is_err() {
        if std::env::var("STRATEGOS_UNIT_REQUIRED").as_deref() == Ok("1") {
            panic!("{test}: setpriv (util-linux) is required");
        }
        eprintln!("SKIPPED {test}: setpriv is not installed");
        return;
    }
    let dir = TempDir::new("sending-nnp");
    // A mail system's sendmail, with its set-group-id queueing program beside it.
    let tools = dir.0.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let ran = dir.0.join("ran");
    std::fs::write(
        tools.join("sendmail"),
        format!(
            "#!/bin/sh\ncat > /dev/null\necho ran >> '{}'\n",
            ran.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        tools.join("sendmail"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::write(tools.join("postdrop"), "").unwrap();
    std::fs::set_permissions(
        tools.join("postdrop"),
        std::fs::Permissions::from_mode(0o2755),
    )
    .unwrap();
    std::fs::write(
        dir.0.join("config.toml"),
        format!(
            "[paths]\ndatabase = \"judge.db\"\n[inbox]\nmaildir = \"inbox\"\n\
             [outbox]\nkind = \"sendmail\"\nsendmail = [\"{}\"]\n",
            tools.join("sendmail").display()
        ),
    )
    .unwrap();
    let inbox = strategos::mail::maildir::Maildir::open(dir.0.join("inbox")).unwrap();
    let run = |letter: usize, sandboxed: bool, now: &str| {
        inbox
            .deliver(&mail(
                "ann@example.test",
                "s",
                &format!("nnp{letter}@x"),
                "HELP\n",
            ))
            .unwrap();
        let mut command = if sandboxed {
            let mut c = Command::new("setpriv");
            c.arg("--no-new-privs").arg(env!("CARGO_BIN_EXE_strategos"));
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_strategos"))
        };
        let out = command
            .args(["--config", "config.toml", "run", "--once", "--now", now])
            .current_dir(&dir.0)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let log = run(1, true, "2027-01-05T12:00:00Z");
    assert!(
        log.contains("outbox.kind = \"sendmail\" cannot work here")
            && log.contains("NoNewPrivileges"),
        "{log}"
    );
    assert!(log.contains("no more are tried this round"), "{log}");
    assert!(!ran.exists(), "the command was run");
    // Without the sandbox the same command runs, and both letters go (the first once its
    // wait is over).
    let log = run(2, false, "2027-01-05T12:10:00Z");
    assert!(!log.contains("cannot work here"), "{log}");
    assert_eq!(
        std::fs::read_to_string(&ran).unwrap().lines().count(),
        2,
        "{log}"
    );
}
