//! Sending raw messages: the `Transport` trait and its ways out: a Maildir (the default "sent"
//! folder), SMTP (lettre), a sendmail-like command, and a recording transport for tests.
//!
//! Every failure is `Transient` (try the letter again later), `Unavailable` (the way out
//! itself does not work now: no letter can go, so the outbox stops its round rather than
//! waiting on each letter) or `Permanent` (this letter will never go to these recipients).
//! Problems of the judge's own configuration (wrong SMTP password, missing command, a
//! sendmail that the process's sandbox stops) are not permanent: an administrator can fix
//! them without any letter being given up.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use lettre::Transport as _;
use lettre::address::{Address, Envelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};

use crate::mail::maildir::Maildir;
pub use crate::mail::security::Security;

/// Why a message could not be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendError {
    /// Try this letter again later: a 4xx reply, a command that exited 75 or was killed.
    Transient(String),
    /// Nothing can be sent now, this letter or any other: no connection, a timeout, a TLS
    /// failure, the login refused, a command that cannot start, hangs or cannot work under
    /// the process's sandbox. Try again later, and send nothing more meanwhile.
    Unavailable(String),
    /// Never going to work for this message: a 5xx reply (unknown user, message refused), an
    /// address that cannot be written.
    Permanent(String),
}

impl SendError {
    /// Whether the letter may go later (`Transient` or `Unavailable`).
    pub fn is_transient(&self) -> bool {
        matches!(self, SendError::Transient(_) | SendError::Unavailable(_))
    }

    /// The explanation, without saying which kind of failure it is.
    pub fn message(&self) -> &str {
        match self {
            SendError::Transient(m) | SendError::Unavailable(m) | SendError::Permanent(m) => m,
        }
    }
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Transient(m) => write!(f, "temporary failure: {m}"),
            SendError::Unavailable(m) => write!(f, "nothing can be sent now: {m}"),
            SendError::Permanent(m) => write!(f, "permanent failure: {m}"),
        }
    }
}

impl std::error::Error for SendError {}

/// A way to send a raw RFC 5322 message to envelope recipients.
pub trait Transport {
    /// Sends `raw` as is, from envelope sender `from` to envelope recipients `to`.
    fn send(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError>;

    /// Like `send`, for a transport that makes many letters durable at once (the Maildir: one
    /// wait for the disk for all): the letter may only be staged, and it is sent only once
    /// `settle` returns Ok. By default the letter is sent at once.
    fn stage(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        self.send(from, to, raw)
    }

    /// Sends every letter staged since the last call; an error means none of them is sent
    /// (some may go out again when tried again). By default there is nothing to do.
    fn settle(&mut self) -> Result<(), SendError> {
        Ok(())
    }

    /// Whether `stage` only stages, so that letters are best staged together, then settled.
    fn stages(&self) -> bool {
        false
    }
}

fn require_recipients(to: &[String]) -> Result<(), SendError> {
    if to.is_empty() {
        return Err(SendError::Permanent("no recipients".to_owned()));
    }
    Ok(())
}

/// Delivers every message, unchanged, into a Maildir (the default "sent" folder). The envelope
/// is not recorded: the message's own headers say who it is for.
#[derive(Debug)]
pub struct MaildirTransport {
    maildir: Maildir,
    /// Letters staged and not yet settled.
    staged: Vec<crate::mail::maildir::Staged>,
}

/// A copy writes into the same Maildir, with nothing staged.
impl Clone for MaildirTransport {
    fn clone(&self) -> MaildirTransport {
        MaildirTransport::new(self.maildir.clone())
    }
}

impl MaildirTransport {
    pub fn new(maildir: Maildir) -> MaildirTransport {
        MaildirTransport {
            maildir,
            staged: Vec::new(),
        }
    }

    /// Opens (creating if needed) the Maildir at `path`.
    pub fn open(path: impl AsRef<Path>) -> io::Result<MaildirTransport> {
        Ok(MaildirTransport::new(Maildir::open(path)?))
    }

    pub fn maildir(&self) -> &Maildir {
        &self.maildir
    }
}

impl MaildirTransport {
    fn failure(&self, e: &io::Error) -> SendError {
        SendError::Transient(format!(
            "cannot write to {}: {e}",
            self.maildir.path().display()
        ))
    }
}

impl Transport for MaildirTransport {
    fn send(&mut self, _from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        require_recipients(to)?;
        self.maildir
            .deliver(raw)
            .map(|_| ())
            .map_err(|e| self.failure(&e))
    }

    /// Writes the letter into `tmp/`; `settle` flushes the round's letters to disk together
    /// and moves them into `new/` (docs/reliability.md: a letter marked sent is on disk).
    fn stage(&mut self, _from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        require_recipients(to)?;
        let staged = self.maildir.stage(raw).map_err(|e| self.failure(&e))?;
        self.staged.push(staged);
        Ok(())
    }

    fn settle(&mut self) -> Result<(), SendError> {
        let staged = std::mem::take(&mut self.staged);
        self.maildir
            .deliver_staged(staged)
            .map_err(|e| self.failure(&e))
    }

    fn stages(&self) -> bool {
        true
    }
}

/// Where and how to reach an SMTP server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub user: Option<String>,
    pub password: Option<String>,
    /// An extra root CA (PEM) to trust besides the webpki roots: for tests and private servers.
    pub ca_pem: Option<PathBuf>,
    /// Bounds connecting and each exchange with the server.
    pub timeout_secs: u64,
}

/// Sends over SMTP with lettre, reusing connections between messages.
#[derive(Clone)]
pub struct SmtpTransport {
    inner: lettre::SmtpTransport,
    server: String,
}

impl fmt::Debug for SmtpTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpTransport")
            .field("server", &self.server)
            .finish()
    }
}

impl SmtpTransport {
    /// Prepares the transport; nothing is connected until the first `send`. Fails if the CA
    /// file cannot be read or the TLS settings cannot be built.
    pub fn new(settings: &SmtpSettings) -> Result<SmtpTransport, String> {
        let tls = if settings.security == Security::None {
            Tls::None
        } else {
            let mut parameters = TlsParameters::builder(settings.host.clone());
            if let Some(path) = &settings.ca_pem {
                let pem = crate::mail::security::read_ca_pem(path)?;
                let certificate = Certificate::from_pem(&pem)
                    .map_err(|e| format!("bad CA file {}: {e}", path.display()))?;
                parameters = parameters.add_root_certificate(certificate);
            }
            let parameters = parameters
                .build_rustls()
                .map_err(|e| format!("TLS setup: {e}"))?;
            match settings.security {
                Security::StartTls => Tls::Required(parameters),
                _ => Tls::Wrapper(parameters),
            }
        };
        let mut builder = lettre::SmtpTransport::builder_dangerous(settings.host.as_str())
            .port(settings.port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(settings.timeout_secs.max(1))));
        if let Some(user) = &settings.user {
            let password = settings.password.clone().unwrap_or_default();
            builder = builder.credentials(Credentials::new(user.clone(), password));
        }
        Ok(SmtpTransport {
            inner: builder.build(),
            server: format!(
                "{}:{} ({})",
                settings.host, settings.port, settings.security
            ),
        })
    }
}

impl Transport for SmtpTransport {
    fn send(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        require_recipients(to)?;
        let address = |a: &str| {
            a.parse::<Address>()
                .map_err(|e| SendError::Permanent(format!("bad address `{a}`: {e}")))
        };
        let from = address(from)?;
        let to = to
            .iter()
            .map(|a| address(a))
            .collect::<Result<Vec<_>, _>>()?;
        let envelope =
            Envelope::new(Some(from), to).map_err(|e| SendError::Permanent(e.to_string()))?;
        self.inner
            .send_raw(&envelope, raw)
            .map(|_| ())
            .map_err(|e| classify_smtp(&self.server, &e))
    }
}

/// 5xx replies are permanent, except those about the judge's own login (the server can take
/// nothing until it is fixed); no connection, timeouts and TLS failures leave the server
/// unavailable; any other failure (4xx) is transient.
fn classify_smtp(server: &str, error: &lettre::transport::smtp::Error) -> SendError {
    let message = format!("SMTP {server}: {}", error_chain(error));
    let login_problem = error.status().is_some_and(|code| {
        let code = code.to_string();
        matches!(code.as_str(), "530" | "534" | "535" | "538")
    });
    if login_problem {
        SendError::Unavailable(format!(
            "login refused, check the SMTP user and password: {message}"
        ))
    } else if error.is_permanent() {
        SendError::Permanent(message)
    } else if error.status().is_none() && !error.is_response() && !error.is_client() {
        SendError::Unavailable(message)
    } else {
        SendError::Transient(message)
    }
}

/// An error and its sources, joined by `: ` (lettre puts the server's words in the sources).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// Pipes each message to a command's standard input, recipients appended as arguments after
/// `--` (added unless the command already ends with it), so that no address can be read as an
/// option (`-oQ/tmp/x@evil.test`, `-C/etc/x`). Exit 0 is success, 75 (EX_TEMPFAIL) a transient failure, any
/// other code a permanent one; a command that is killed is a transient failure, one that
/// cannot be started or outlives `timeout` leaves sending unavailable. A command that cannot
/// work in this process's sandbox (`blocked`) is not run at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendmailTransport {
    /// The program and its first arguments, e.g. `["/usr/sbin/sendmail", "-i", "--"]`.
    pub command: Vec<String>,
    /// How long the command may run before it is killed.
    pub timeout: Duration,
}

/// sysexits.h: "temporary failure, user is invited to retry".
const EX_TEMPFAIL: i32 = 75;

impl SendmailTransport {
    /// A command with a one-minute time limit.
    pub fn new(command: Vec<String>) -> SendmailTransport {
        SendmailTransport {
            command,
            timeout: Duration::from_secs(60),
        }
    }

    /// Why the command cannot work in this process, if it cannot: the process runs with
    /// `no_new_privs` (systemd's `NoNewPrivileges=`, or anything a sandbox implies it with),
    /// which drops the set-user or set-group id a mail system's queueing program needs
    /// (Postfix's `postdrop` beside `sendmail`, Exim's set-user-id binary): the command would
    /// wait on a queue it cannot write until its time limit, letter after letter.
    pub fn blocked(&self) -> Option<String> {
        let program = self.command.first()?;
        if !no_new_privileges() {
            return None;
        }
        let resolved = which(program)?;
        let real = std::fs::canonicalize(&resolved).unwrap_or(resolved.clone());
        let mut privileged = vec![real.clone()];
        // Postfix's sendmail is an ordinary program that hands the letter to the set-group-id
        // postdrop beside it.
        for folder in [resolved.parent(), real.parent()].into_iter().flatten() {
            privileged.push(folder.join("postdrop"));
        }
        let needs = privileged.into_iter().find(|p| set_id(p))?;
        Some(format!(
            "this process runs with no_new_privs (systemd's NoNewPrivileges=, or a sandbox \
             setting that implies it), so `{program}` cannot use the set-user or set-group id \
             of {}; run it under a unit without that, or use outbox.kind = \"smtp\" to the \
             local mail server",
            needs.display()
        ))
    }
}

/// Whether this process runs with `no_new_privs` (`NoNewPrivs: 1` in `/proc/self/status`).
fn no_new_privileges() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["NoNewPrivs:", "1"])
    })
}

/// A program's file: as given when it holds a `/`, else found in `PATH`.
fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|folder| folder.join(program))
            .find(|p| p.is_file())
    })
}

/// Whether `path` is a file with its set-user-id or set-group-id bit.
fn set_id(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o6000 != 0)
}

impl Transport for SendmailTransport {
    fn send(&mut self, _from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        require_recipients(to)?;
        let Some((program, arguments)) = self.command.split_first() else {
            return Err(SendError::Unavailable(
                "no sendmail command configured".to_owned(),
            ));
        };
        if let Some(why) = self.blocked() {
            return Err(SendError::Unavailable(why));
        }
        let shown = self.command.join(" ");
        let end_of_options = (arguments.last().map(String::as_str) != Some("--")).then_some("--");
        let mut child = Command::new(program)
            .args(arguments)
            .args(end_of_options)
            .args(to)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SendError::Unavailable(format!("cannot run `{shown}`: {e}")))?;
        // Feed and drain in threads, so that a command which neither reads all its input nor
        // stops talking cannot block us past the time limit.
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let message = raw.to_vec();
        let feeder = thread::spawn(move || stdin.write_all(&message));
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let complaints = thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.by_ref().take(4096).read_to_end(&mut text);
            // Keep reading (and dropping) so the command never blocks on a full pipe.
            let _ = io::copy(&mut stderr, &mut io::sink());
            String::from_utf8_lossy(&text).trim().to_owned()
        });
        let deadline = Instant::now() + self.timeout;
        let mut pause = Duration::from_millis(1);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(SendError::Unavailable(format!(
                        "`{shown}` did not finish within {} s",
                        self.timeout.as_secs_f64()
                    )));
                }
                Ok(None) => {
                    thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(e) => return Err(SendError::Transient(format!("waiting for `{shown}`: {e}"))),
            }
        };
        let fed = feeder.join().unwrap_or(Ok(()));
        let said = complaints.join().unwrap_or_default();
        let said = if said.is_empty() {
            String::new()
        } else {
            format!(": {said}")
        };
        match status.code() {
            Some(0) => match fed {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(SendError::Transient(
                    format!("could not give the message to `{shown}`: {e}"),
                )),
                // A command may stop reading once it has what it needs; its exit code decides.
                _ => Ok(()),
            },
            Some(EX_TEMPFAIL) => Err(SendError::Transient(format!(
                "`{shown}` exited with 75 (temporary failure){said}"
            ))),
            Some(code) => Err(SendError::Permanent(format!(
                "`{shown}` exited with {code}{said}"
            ))),
            None => Err(SendError::Transient(format!(
                "`{shown}` was killed ({status}){said}"
            ))),
        }
    }
}

/// For tests: keeps every message it is given instead of sending it, and fails on request.
///
/// Planned failures are checked in this order: a recipient told to refuse (permanent, every
/// time), then transient failures for a recipient, then the way out down, then transient
/// failures for any message.
/// A failed attempt records nothing in `sent`.
#[derive(Clone, Debug, Default)]
pub struct RecordingTransport {
    /// The messages "sent", in order.
    pub sent: Vec<SentMessage>,
    /// Every call to `send`, failed or not.
    pub attempts: usize,
    next_failures: usize,
    unavailable: usize,
    transient_for: Vec<(String, usize)>,
    refused: Vec<String>,
}

/// A message kept by `RecordingTransport`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentMessage {
    pub from: String,
    pub to: Vec<String>,
    pub raw: Vec<u8>,
}

impl RecordingTransport {
    pub fn new() -> RecordingTransport {
        RecordingTransport::default()
    }

    /// The next `times` sends fail transiently, whoever they are for.
    pub fn fail_next(&mut self, times: usize) {
        self.next_failures += times;
    }

    /// The next `times` sends find the way out down (`SendError::Unavailable`), whoever they
    /// are for.
    pub fn go_down(&mut self, times: usize) {
        self.unavailable += times;
    }

    /// The next `times` sends that include `recipient` fail transiently.
    pub fn fail_transiently_for(&mut self, recipient: &str, times: usize) {
        self.transient_for
            .push((recipient.to_ascii_lowercase(), times));
    }

    /// Every send that includes `recipient` fails permanently (like `550 unknown user`).
    pub fn refuse(&mut self, recipient: &str) {
        self.refused.push(recipient.to_ascii_lowercase());
    }
}

impl Transport for RecordingTransport {
    fn send(&mut self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SendError> {
        self.attempts += 1;
        require_recipients(to)?;
        let lower: Vec<String> = to.iter().map(|a| a.to_ascii_lowercase()).collect();
        if let Some(refused) = self.refused.iter().find(|r| lower.contains(r)) {
            return Err(SendError::Permanent(format!(
                "550 5.1.1 <{refused}>: recipient refused"
            )));
        }
        if let Some((recipient, times)) = self
            .transient_for
            .iter_mut()
            .find(|(r, n)| *n > 0 && lower.contains(r))
        {
            *times -= 1;
            return Err(SendError::Transient(format!(
                "451 4.3.0 <{recipient}>: try again later"
            )));
        }
        if self.unavailable > 0 {
            self.unavailable -= 1;
            return Err(SendError::Unavailable(
                "connection refused by the server".to_owned(),
            ));
        }
        if self.next_failures > 0 {
            self.next_failures -= 1;
            return Err(SendError::Transient(
                "421 4.4.2 connection dropped".to_owned(),
            ));
        }
        self.sent.push(SentMessage {
            from: from.to_owned(),
            to: to.to_vec(),
            raw: raw.to_vec(),
        });
        Ok(())
    }
}
