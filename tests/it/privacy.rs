//! What the judge keeps is its own: files holding secrets that other users may read are named
//! in the log at start (the database refused), a password sent in clear to another machine is
//! warned of; and no write follows a symbolic link planted where the judge writes (the
//! archive, backups, pictures).

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::judge_harness::TempDir;

fn strategos(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strategos"))
        .arg("--config")
        .arg(dir.join("config.toml"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn secrets_others_may_read_are_named_at_start_and_the_database_refused() {
    let dir = TempDir::new("privacy-start");
    let config = dir.0.join("config.toml");
    std::fs::write(
        &config,
        "[judge]\ntoken_key = \"0000000000000000000000000000000000000000000000000000000000000001\"\n\
         [paths]\ndatabase = \"judge.db\"\n[inbox]\nmaildir = \"inbox\"\n\
         [outbox]\nkind = \"smtp\"\n[smtp]\nhost = \"mail.example.org\"\nport = 9\n\
         security = \"none\"\nuser = \"judge\"\npassword_file = \"smtp-password\"\n",
    )
    .unwrap();
    std::fs::write(dir.0.join("smtp-password"), "hunter2\n").unwrap();
    chmod(&config, 0o644);
    chmod(&dir.0.join("smtp-password"), 0o644);
    let out = strategos(&dir.0, &["run", "--once"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let log = said(&out);
    for warned in [
        "config.toml holds a secret (judge.token_key) and is readable by every user",
        "smtp-password holds a secret (smtp.password_file) and is readable by every user",
        "the SMTP password goes to mail.example.org without TLS",
    ] {
        assert!(log.contains(warned), "no warning that {warned}:\n{log}");
    }
    assert!(!log.contains("hunter2"), "{log}");
    // The files the judge made are its own, whatever umask it was started with.
    for made in ["judge.db", "inbox", "inbox/new"] {
        let mode = std::fs::metadata(dir.0.join(made))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "{made} is {mode:o}");
    }
    // Made private, nothing is said.
    chmod(&config, 0o600);
    chmod(&dir.0.join("smtp-password"), 0o600);
    let out = strategos(&dir.0, &["run", "--once"]);
    assert!(!said(&out).contains("readable by"), "{}", said(&out));
    // A database others may read: refused by every command, naming the file and the fix.
    chmod(&dir.0.join("judge.db"), 0o644);
    for args in [&["run", "--once"][..], &["game", "list"]] {
        let out = strategos(&dir.0, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            said(&out).contains("judge.db is readable by every user")
                && said(&out).contains("chmod 600"),
            "{}",
            said(&out)
        );
    }
}

#[test]
fn no_write_follows_a_link_planted_where_the_judge_writes() {
    let dir = TempDir::new("privacy-links");
    std::fs::write(
        dir.0.join("config.toml"),
        "[paths]\ndatabase = \"judge.db\"\narchive = \"site\"\n[inbox]\nmaildir = \"inbox\"\n\
         [outbox]\nmaildir = \"sent\"\n",
    )
    .unwrap();
    let letter = "From: ann@example.test\r\nSubject: hi\r\nMessage-ID: <links-1@x>\r\n\r\nHELP\r\n";
    let inbox = strategos::mail::maildir::Maildir::open(dir.0.join("inbox")).unwrap();
    inbox.deliver(letter.as_bytes()).unwrap();
    // Someone's files the judge must not touch, and links to them where it writes.
    let victim = dir.0.join("victim");
    std::fs::write(&victim, "kept").unwrap();
    let nowhere = dir.0.join("nowhere");
    std::fs::create_dir_all(dir.0.join("site")).unwrap();
    symlink(&victim, dir.0.join("site/index.html")).unwrap();
    let out = strategos(&dir.0, &["run", "--once"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
    let index = dir.0.join("site/index.html");
    assert!(
        !std::fs::symlink_metadata(&index)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&index).unwrap().contains("<html"));
    assert_eq!(
        std::fs::metadata(&index).unwrap().permissions().mode() & 0o777,
        0o644,
        "the archive is for everyone to read"
    );
    // The archive written by hand, with a dangling link at its index.
    std::fs::create_dir_all(dir.0.join("out")).unwrap();
    symlink(&nowhere, dir.0.join("out/index.html")).unwrap();
    let out = strategos(&dir.0, &["archive", "--out", "out"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(!nowhere.exists(), "the link's target is not created");
    // A backup refuses a name a link holds, dangling or not, and creates nothing.
    for (name, target) in [("copy.db", &nowhere), ("copy2.db", &victim)] {
        symlink(target, dir.0.join(name)).unwrap();
        let out = strategos(&dir.0, &["backup", name]);
        assert_eq!(out.status.code(), Some(2), "{}", said(&out));
        assert!(said(&out).contains("exists already"), "{}", said(&out));
    }
    assert!(!nowhere.exists());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
    // A picture drawn over a link replaces the link.
    symlink(&victim, dir.0.join("std.svg")).unwrap();
    let out = strategos(
        &dir.0,
        &["map", "--variant", "standard", "--out", "std.svg"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
    assert!(
        std::fs::read_to_string(dir.0.join("std.svg"))
            .unwrap()
            .contains("<svg")
    );
    // Nothing half-written is left beside them.
    let left: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
