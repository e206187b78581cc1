//! Real mail servers (postfix + dovecot from `../shared/tools/mailserver`) for the mail tests.
//!
//! The servers come from the `MAILTEST_*` variables when a wrapper started them (`.ci/run`,
//! which stops them itself); otherwise the test binary starts an instance of its own, in a
//! folder and on ports no other run uses, and stops it (and removes its folder) when the
//! binary exits, so `cargo test` leaves no server running and never stops anyone else's.
//! When none can be had, each test prints a visible `SKIPPED` line and returns, unless
//! `MAILTEST_REQUIRED=1`, which makes it fail.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use strategos::mail::imap::ImapSettings;
use strategos::mail::security::Security;
use strategos::mail::send::SmtpSettings;

/// The script that installs, starts and stops the servers.
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/mailserver");

/// Running servers, as the script describes them.
#[derive(Debug)]
pub struct MailServers {
    pub host: String,
    pub smtp_port: u16,
    pub smtps_port: u16,
    pub imap_port: u16,
    pub imaps_port: u16,
    pub domain: String,
    pub password: String,
    /// The test CA; `None` when the servers run without TLS.
    pub ca_pem: Option<PathBuf>,
    /// Where dovecot keeps each user's Maildir (`<root>/<user@domain>/Maildir`).
    pub maildir_root: Option<PathBuf>,
    /// The servers' folder (`MAILTEST_DIR`): Postfix's configuration is in `postfix/conf`.
    pub dir: Option<PathBuf>,
}

impl MailServers {
    /// `player3` → `player3@example.test`.
    pub fn address(&self, user: &str) -> String {
        format!("{user}@{}", self.domain)
    }

    /// SMTP settings without login: the servers accept mail from loopback.
    pub fn smtp(&self, security: Security) -> SmtpSettings {
        SmtpSettings {
            host: self.host.clone(),
            port: if security == Security::Tls {
                self.smtps_port
            } else {
                self.smtp_port
            },
            security,
            user: None,
            password: None,
            ca_pem: self.ca_pem.clone(),
            timeout_secs: 10,
        }
    }

    /// IMAP settings for a user's INBOX.
    pub fn imap(&self, user: &str, security: Security) -> ImapSettings {
        let port = if security == Security::Tls {
            self.imaps_port
        } else {
            self.imap_port
        };
        let mut settings = ImapSettings::new(
            &self.host,
            port,
            security,
            self.address(user),
            &self.password,
        );
        settings.ca_pem = self.ca_pem.clone();
        settings.timeout_secs = 10;
        settings
    }

    /// Reads the servers from `MAILTEST_*` values.
    fn from_values(value: impl Fn(&str) -> Option<String>) -> Result<MailServers, String> {
        let text = |key: &str| {
            value(key)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("{key} is not set"))
        };
        let port = |key: &str| {
            let v = text(key)?;
            v.parse::<u16>().map_err(|e| format!("{key}={v}: {e}"))
        };
        Ok(MailServers {
            host: text("MAILTEST_HOST")?,
            smtp_port: port("MAILTEST_SMTP_PORT")?,
            smtps_port: port("MAILTEST_SMTPS_PORT")?,
            imap_port: port("MAILTEST_IMAP_PORT")?,
            imaps_port: port("MAILTEST_IMAPS_PORT")?,
            domain: text("MAILTEST_DOMAIN")?,
            password: text("MAILTEST_PASSWORD")?,
            ca_pem: text("MAILTEST_CA_PEM").ok().map(PathBuf::from),
            maildir_root: text("MAILTEST_MAILDIR_ROOT").ok().map(PathBuf::from),
            dir: text("MAILTEST_DIR").ok().map(PathBuf::from),
        })
    }
}

/// The servers for `test`, or `None` after printing why the test is skipped.
///
/// Panics instead of skipping when `MAILTEST_REQUIRED=1`.
pub fn servers(test: &str) -> Option<&'static MailServers> {
    static SERVERS: OnceLock<Result<MailServers, String>> = OnceLock::new();
    let found = SERVERS.get_or_init(|| {
        if std::env::var_os("MAILTEST_HOST").is_some() {
            return MailServers::from_values(|key| std::env::var(key).ok());
        }
        if std::env::var("MAILTEST_AUTOSTART").as_deref() == Ok("0") {
            return Err("MAILTEST_HOST is not set and MAILTEST_AUTOSTART=0".to_owned());
        }
        start()
    });
    match found {
        Ok(servers) => Some(servers),
        Err(why) if std::env::var("MAILTEST_REQUIRED").as_deref() == Ok("1") => {
            panic!("mail servers required (MAILTEST_REQUIRED=1) but unavailable: {why}")
        }
        Err(why) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: mail servers unavailable: {why}"
            );
            None
        }
    }
}

/// Like `servers`, for a test that also needs TLS (the servers may run without it).
pub fn servers_with_tls(test: &str) -> Option<&'static MailServers> {
    let servers = servers(test)?;
    if servers.ca_pem.is_some() {
        return Some(servers);
    }
    let why = "the servers run without TLS (MAILTEST_CA_PEM is empty)";
    if std::env::var("MAILTEST_REQUIRED").as_deref() == Ok("1") {
        panic!("{test}: TLS required (MAILTEST_REQUIRED=1) but {why}");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
    None
}

/// The folder of the instance this test binary started: `/tmp/strategos-mailtest-<pid>`.
pub fn own_folder(pid: u32) -> PathBuf {
    std::env::temp_dir().join(format!("strategos-mailtest-{pid}"))
}

/// The folder of the servers this process started, stopped when it exits.
static STARTED: OnceLock<PathBuf> = OnceLock::new();

/// Stops the servers this process started and removes their folder: run when it exits.
extern "C" fn stop_own_servers() {
    let Some(folder) = STARTED.get() else {
        return;
    };
    let _ = Command::new("bash")
        .arg(SCRIPT)
        .arg("clean")
        .env("MAILTEST_DIR", folder)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = std::fs::remove_file(folder.with_extension("lock"));
}

/// Ports free now on loopback, one for each server (the script binds them at once).
fn free_ports(n: usize) -> Result<Vec<u16>, String> {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("no free port: {e}"))?;
    listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.port()).map_err(|e| e.to_string()))
        .collect()
}

/// Starts an instance of the servers of this process's own (its folder and free ports) with
/// the script, arranges for it to be stopped at exit, and reads its `export` lines.
fn start() -> Result<MailServers, String> {
    if !std::path::Path::new(SCRIPT).exists() {
        return Err(format!("{SCRIPT} not found"));
    }
    let folder = own_folder(std::process::id());
    let ports = free_ports(5)?;
    // The script starts its daemons with their own stdin/stdout/stderr, so reading its output
    // to the end does not wait for them.
    let mut command = Command::new("bash");
    command
        .arg(SCRIPT)
        .arg("start")
        .env("MAILTEST_DIR", &folder)
        .stdin(Stdio::null());
    for (key, port) in [
        "MAILTEST_SMTP_PORT",
        "MAILTEST_SMTPS_PORT",
        "MAILTEST_IMAP_PORT",
        "MAILTEST_IMAPS_PORT",
        "MAILTEST_LMTP_PORT",
    ]
    .iter()
    .zip(&ports)
    {
        command.env(key, port.to_string());
    }
    // Whatever happens from here, what was started goes when the process ends.
    if STARTED.set(folder.clone()).is_ok() {
        // SAFETY: registering a plain `extern "C" fn()` with the C library's `atexit`; the
        // function touches only a static set before and spawns a process.
        unsafe {
            libc::atexit(stop_own_servers);
        }
    }
    let out = command
        .output()
        .map_err(|e| format!("cannot run {SCRIPT}: {e}"))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        let last = said
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("`{SCRIPT} start` failed ({}): {last}", out.status));
    }
    let exported = export_lines(&String::from_utf8_lossy(&out.stdout));
    MailServers::from_values(|key| exported.get(key).cloned())
}

/// `export KEY='value'` lines into a map (no `set_var`: it is unsafe with threads).
fn export_lines(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("export "))
        .filter_map(|assignment| assignment.split_once('='))
        .map(|(key, value)| {
            let value = value.trim();
            let value = value
                .strip_prefix('\'')
                .and_then(|v| v.strip_suffix('\''))
                .unwrap_or(value);
            (key.trim().to_owned(), value.to_owned())
        })
        .collect()
}

/// A test binary that started its own servers stops them when it exits: run one mail test
/// in a child process (without the wrapper's servers), then find neither its folder nor any
/// process of it left.
#[test]
fn the_servers_a_test_run_starts_are_stopped_when_it_ends() {
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "mail_transport::smtp_plain_to_imap_plain",
            "--nocapture",
        ])
        .env("MAILTEST_AUTOSTART", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for key in ["MAILTEST_HOST", "MAILTEST_REQUIRED"] {
        child.env_remove(key);
    }
    let child = child.spawn().unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the child run failed:\n{said}");
    if said.contains("SKIPPED") {
        if std::env::var("MAILTEST_REQUIRED").as_deref() == Ok("1") {
            panic!("the child run could not start mail servers:\n{said}");
        }
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the_servers_a_test_run_starts_are_stopped_when_it_ends: {said}"
        );
        return;
    }
    let folder = own_folder(pid);
    assert!(!folder.exists(), "{} is left behind", folder.display());
    let needle = folder.to_string_lossy().into_owned();
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&needle))
        .collect();
    assert!(left.is_empty(), "servers still running: {left:?}");
}

#[test]
fn export_lines_are_read() {
    let read = export_lines("export MAILTEST_HOST='127.0.0.1'\nexport MAILTEST_CA_PEM=''\nnoise\n");
    assert_eq!(
        read.get("MAILTEST_HOST").map(String::as_str),
        Some("127.0.0.1")
    );
    assert_eq!(read.get("MAILTEST_CA_PEM").map(String::as_str), Some(""));
    assert_eq!(read.len(), 2);
}
