//! Real mail servers (postfix + dovecot from `../shared/tools/mailserver`) for the mail tests.
//!
//! The servers come from the `MAILTEST_*` variables when a wrapper started them (`.ci/run`);
//! otherwise the test binary starts them once itself. When none can be had, each test prints a
//! visible `SKIPPED` line and returns, unless `MAILTEST_REQUIRED=1`, which makes it fail.

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

/// Starts the servers with the script (a no-op if they already run) and reads its `export` lines.
fn start() -> Result<MailServers, String> {
    if !std::path::Path::new(SCRIPT).exists() {
        return Err(format!("{SCRIPT} not found"));
    }
    // The script starts its daemons with their own stdin/stdout/stderr, so reading its output
    // to the end does not wait for them.
    let out = Command::new("bash")
        .arg(SCRIPT)
        .arg("start")
        .stdin(Stdio::null())
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
