//! `deploy/`: one install procedure (deploy/README.md and the unit's comment alike), which,
//! followed on a machine whose umask is 022, leaves no file of the judge readable by another
//! user but the public archive's; the unit rated 2.0 or better by `systemd-analyze security`;
//! and the judge keeping, as it runs, within the system calls, socket families and memory
//! mappings the unit allows (watched with `strace`). The last two need `systemd-analyze` and
//! `strace`, which `.ci/run` installs (and requires with `STRATEGOS_UNIT_REQUIRED=1`);
//! without them they say SKIPPED.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::judge_harness::TempDir;

fn shipped(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The install steps of deploy/README.md (its first `sh` block).
fn readme_steps() -> Vec<String> {
    let readme = shipped("deploy/README.md");
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("deploy/README.md has an sh block");
    block.lines().map(str::to_string).collect()
}

/// A program the test needs, or `None` after saying the test is skipped (a failure when
/// `STRATEGOS_UNIT_REQUIRED=1`).
fn needs(program: &str, test: &str) -> Option<()> {
    let found = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some(());
    }
    if std::env::var("STRATEGOS_UNIT_REQUIRED").as_deref() == Ok("1") {
        panic!("{test}: {program} is required (STRATEGOS_UNIT_REQUIRED=1) but not found");
    }
    eprintln!("SKIPPED {test}: {program} is not installed");
    None
}

#[test]
fn the_install_steps_are_one_procedure() {
    let unit = shipped("deploy/strategos.service");
    let comment: Vec<String> = unit
        .lines()
        .skip_while(|l| !l.contains("deploy/README.md says"))
        .skip(1)
        .take_while(|l| l.starts_with("#   "))
        .map(|l| l.trim_start_matches("#   ").to_string())
        .collect();
    assert_eq!(comment, readme_steps());
    // Every file and folder is installed with its mode.
    for step in readme_steps().iter().filter(|s| s.starts_with("install ")) {
        assert!(step.contains(" -m "), "no mode: {step}");
    }
}

#[test]
fn the_unit_is_rated_2_or_better() {
    let test = "the_unit_is_rated_2_or_better";
    if needs("systemd-analyze", test).is_none() {
        return;
    }
    let unit = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/strategos.service");
    let out = Command::new("systemd-analyze")
        .args(["security", "--offline=yes"])
        .arg(&unit)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let rating: f64 = said
        .lines()
        .find_map(|l| {
            l.split("Overall exposure level for strategos.service:")
                .nth(1)
        })
        .and_then(|r| r.split_whitespace().next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no rating in:\n{said}"));
    assert!(rating <= 2.0, "rated {rating}:\n{said}");
}

/// The system calls a filter of `systemd-analyze syscall-filter`'s groups allows: `@group`
/// names expanded, each name as it is.
fn expand(
    names: &[&str],
    groups: &std::collections::HashMap<String, Vec<String>>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut todo: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let mut seen = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        match groups.get(&name) {
            Some(members) => todo.extend(members.iter().cloned()),
            None if name.starts_with('@') => panic!("unknown group {name}"),
            None => {
                out.insert(name);
            }
        }
    }
    out
}

/// The groups `systemd-analyze syscall-filter` lists, each with its members.
fn syscall_groups() -> std::collections::HashMap<String, Vec<String>> {
    let out = Command::new("systemd-analyze")
        .arg("syscall-filter")
        .output()
        .unwrap();
    let mut groups = std::collections::HashMap::new();
    let mut current: Option<String> = None;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let item = line.trim();
        if item.is_empty() || item.starts_with('#') {
            continue;
        }
        if line.starts_with('@') {
            current = Some(item.to_string());
            groups.insert(item.to_string(), Vec::new());
        } else if let Some(group) = &current {
            groups.get_mut(group).unwrap().push(item.to_string());
        }
    }
    groups
}

/// The system calls the shipped unit allows: its `SystemCallFilter=` lines, the first a list
/// allowed, those with `~` lists taken away.
fn allowed_by_unit() -> BTreeSet<String> {
    let groups = syscall_groups();
    let unit = shipped("deploy/strategos.service");
    let mut allowed = BTreeSet::new();
    for value in unit
        .lines()
        .filter_map(|l| l.strip_prefix("SystemCallFilter="))
    {
        match value.strip_prefix('~') {
            Some(denied) => {
                let denied = expand(&denied.split_whitespace().collect::<Vec<_>>(), &groups);
                allowed.retain(|c| !denied.contains(c));
            }
            None => allowed.extend(expand(
                &value.split_whitespace().collect::<Vec<_>>(),
                &groups,
            )),
        }
    }
    allowed
}

/// A judge with two games at their deadline, a letter in its inbox, SMTP to the tests'
/// Postfix and an archive: what `strategos run` does at a busy moment.
fn busy_judge(dir: &Path, smtp_port: u16) -> (PathBuf, String) {
    use crate::judge_harness::{Harness, mail, test_config};
    let mut config = test_config();
    config.limits.games_created_per_day = 5;
    let mut harness = Harness::with_config("unit-games", config);
    let start: chrono::DateTime<chrono::Utc> = "2027-01-05T12:00:00Z".parse().unwrap();
    harness.set_time(start);
    harness.vouch(&["gina@example.test", "bob@example.test"]);
    let mut n = 0;
    for game in ["u1", "u2"] {
        for (from, body) in [
            (
                "gina@example.test",
                format!("CREATE ?{game} gmpw standard MODERATED\n"),
            ),
            ("bob@example.test", format!("SIGNON ?{game} bobpw\n")),
            (
                "gina@example.test",
                format!("SIGNON ?{game} gmpw\nFORCE BEGIN\n"),
            ),
        ] {
            n += 1;
            harness.deliver(&mail(from, "unit", &format!("u{n}@x"), &body));
        }
    }
    harness.daemon.store.back_up(&dir.join("judge.db")).unwrap();
    let inbox = strategos::mail::maildir::Maildir::open(dir.join("inbox")).unwrap();
    inbox
        .deliver(&mail("bob@example.test", "unit", "u-help@x", "HELP\n"))
        .unwrap();
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@example.test\"\n[paths]\ndatabase = \"judge.db\"\n\
             archive = \"www\"\n[inbox]\nmaildir = \"inbox\"\npoll_seconds = 1\n\
             [outbox]\nkind = \"smtp\"\n[smtp]\nhost = \"127.0.0.1\"\nport = {smtp_port}\n\
             security = \"none\"\n"
        ),
    )
    .unwrap();
    (config, "2027-01-09T12:00:00Z".to_string())
}

#[test]
fn the_judge_keeps_within_the_unit_s_system_calls() {
    let test = "the_judge_keeps_within_the_unit_s_system_calls";
    if needs("systemd-analyze", test).is_none() || needs("strace", test).is_none() {
        return;
    }
    let Some(servers) = crate::mailserver::servers(test) else {
        return;
    };
    let dir = TempDir::new("unit-strace");
    let (config, now) = busy_judge(&dir.0, servers.smtp_port);
    let trace = dir.0.join("trace");
    // As its own user, as the unit runs it (as root SQLite would also give its journal
    // files the database's owner, fchown, which the unit's filter refuses and SQLite does
    // without).
    let nobody = 65534;
    let mut folders = vec![dir.0.clone()];
    while let Some(path) = folders.pop() {
        std::os::unix::fs::chown(&path, Some(nobody), Some(nobody)).unwrap();
        if path.is_dir() {
            folders.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        }
    }
    // `strategos run` as the unit runs it, until SIGTERM once its first round is done.
    let mut command = Command::new("strace");
    command.uid(nobody).gid(nobody);
    let mut child = command
        .args(["-f", "-qq", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_strategos"))
        .arg("--config")
        .arg(&config)
        .args(["run", "--now", &now])
        .current_dir(&dir.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log_path = dir.0.join("log");
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut text = String::new();
        let _ = std::io::BufReader::new(stderr).read_to_string(&mut text);
        std::fs::write(log_path, &text).unwrap();
        text
    });
    let started = Instant::now();
    let sent = |dir: &Path| {
        rusqlite::Connection::open(dir.join("judge.db"))
            .ok()
            .and_then(|c| {
                c.query_row(
                    "SELECT count(*) FROM outbox WHERE state = 'sent'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .ok()
            })
            .unwrap_or(0)
    };
    // Both games processed (their pictures painted ahead), their letters sent, the archive
    // written.
    while sent(&dir.0) < 6 || !dir.0.join("www/index.html").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the judge did not finish its round"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // The judge itself (strace's child) is stopped as systemd stops it.
    let judge_pid = std::fs::read_to_string(format!("/proc/{}/task/{0}/children", child.id()))
        .unwrap()
        .split_whitespace()
        .next()
        .expect("the judge runs under strace")
        .parse::<i32>()
        .unwrap();
    // SAFETY: kill(2) with a pid this test started and a valid signal.
    unsafe { libc::kill(judge_pid, libc::SIGTERM) };
    let status = child.wait().unwrap();
    let log = reader.join().unwrap();
    assert!(status.success(), "{status:?}\n{log}");
    assert!(log.contains("stopped"), "{log}");

    let allowed = allowed_by_unit();
    assert!(allowed.contains("openat") && !allowed.contains("setuid"));
    let traced = std::fs::read_to_string(&trace).unwrap();
    let mut called = BTreeSet::new();
    let mut refused = Vec::new();
    for line in traced.lines() {
        let Some(call) = line.split_once(' ').map(|(_, rest)| rest.trim_start()) else {
            continue;
        };
        let Some(name) = call.split('(').next().filter(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        }) else {
            continue;
        };
        called.insert(name.to_string());
        if name == "socket"
            && !["AF_UNIX", "AF_INET", "AF_INET6"]
                .iter()
                .any(|f| call.contains(&format!("({f},")))
        {
            refused.push(format!("a socket family the unit refuses: {call}"));
        }
        if matches!(name, "mmap" | "mprotect")
            && call.contains("PROT_WRITE")
            && call.contains("PROT_EXEC")
        {
            refused.push(format!("writable and executable memory: {call}"));
        }
    }
    // The execve strace makes to start the judge is the unit's own.
    called.remove("execve");
    let outside: Vec<&String> = called.iter().filter(|c| !allowed.contains(*c)).collect();
    assert!(
        outside.is_empty() && refused.is_empty(),
        "outside the unit's system calls: {outside:?}; {refused:#?}"
    );
    assert!(called.len() > 30, "traced only {called:?}");
}

/// Follows deploy/README.md's install steps under `root` (a folder standing for `/`), as its
/// user: no `useradd`, no `systemctl`, no owners.
fn install_under(root: &Path) {
    for folder in ["usr/local/bin", "etc/systemd/system", "var/lib", "var/www"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    let manifest = env!("CARGO_MANIFEST_DIR");
    for step in readme_steps() {
        if step.starts_with("useradd") || step.starts_with("systemctl") {
            continue;
        }
        let step = step
            .replace("-o strategos ", "")
            .replace("-g strategos ", "")
            .replace("target/release/strategos", env!("CARGO_BIN_EXE_strategos"))
            .replace(" deploy/", &format!(" {manifest}/deploy/"))
            .replace(" /usr/", &format!(" {}/usr/", root.display()))
            .replace(" /etc/", &format!(" {}/etc/", root.display()))
            .replace(" /var/", &format!(" {}/var/", root.display()));
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("umask 022; {step}"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{step}: {out:?}");
    }
}

#[test]
fn installed_by_the_steps_no_file_but_the_archive_is_readable_by_others() {
    let dir = TempDir::new("install");
    let root = dir.0.join("root");
    install_under(&root);
    // The installed configuration, its paths under the stand-in root and no mail leaving.
    let config = root.join("etc/strategos/config.toml");
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("/var/", &format!("{}/var/", root.display()))
        .replace("port = 25", "port = 9");
    std::fs::write(&config, text).unwrap();
    let state = root.join("var/lib/strategos");
    let binary = root.join("usr/local/bin/strategos");
    // The judge's commands, each started with umask 022 as a shell or a mail server would.
    let run = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("umask 022; exec \"$@\"")
            .arg("sh")
            .arg(&binary)
            .arg("--config")
            .arg(&config)
            .args(args)
            .current_dir(&state)
            .env("STRATEGOS_SYSLOG_SOCKET", dir.0.join("no-syslog"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    let letter = |n: usize, body: &str| {
        format!(
            "From: ann@example.test\r\nSubject: s{n}\r\nMessage-ID: <install-{n}@x>\r\n\r\n{body}\r\n"
        )
    };
    run(
        &["deliver", "--now", "2027-01-05T12:00:00Z"],
        &letter(1, "CREATE ?open apw"),
    );
    let inbox = strategos::mail::maildir::Maildir::open(state.join("inbox")).unwrap();
    inbox
        .deliver(letter(2, "REGISTER secretpw Ann").as_bytes())
        .unwrap();
    run(&["run", "--once", "--now", "2027-01-05T12:01:00Z"], "");
    run(&["backup", state.join("copy.db").to_str().unwrap()], "");
    run(&["migrate"], "");
    run(
        &[
            "archive",
            "--out",
            root.join("var/www/strategos").to_str().unwrap(),
        ],
        "",
    );
    assert!(state.join("strategos.db").is_file());
    assert!(root.join("var/www/strategos/index.html").is_file());
    assert_eq!(
        inbox.pending().unwrap().len(),
        0,
        "the stored letter left the inbox"
    );

    let archive = root.join("var/www/strategos");
    let mut seen = 0;
    let mut exposed = Vec::new();
    let mut walk = vec![root.clone()];
    while let Some(path) = walk.pop() {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let mode = meta.permissions().mode() & 0o777;
        if meta.is_dir() {
            walk.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        }
        seen += 1;
        let shown = path.strip_prefix(&root).unwrap().display().to_string();
        if path.starts_with(&archive) {
            // The public archive: world-readable on purpose.
            let public = if meta.is_dir() { 0o755 } else { 0o644 };
            if mode != public {
                exposed.push(format!("{shown} {mode:o}, not {public:o}"));
            }
        } else if path.starts_with(&state) {
            if mode & 0o077 != 0 {
                exposed.push(format!("{shown} {mode:o}"));
            }
        } else if path.starts_with(root.join("etc/strategos")) && mode & 0o007 != 0 {
            exposed.push(format!("{shown} {mode:o}"));
        }
    }
    assert!(seen > 20, "only {seen} files");
    assert!(exposed.is_empty(), "readable by others: {exposed:#?}");
}
