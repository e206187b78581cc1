//! The judge's configuration (`config.toml`): every key has a default that works on a
//! machine with nothing installed. A bad file is refused with a message naming the key.
//!
//! Secrets may come from the environment: `STRATEGOS_IMAP_PASSWORD` and
//! `STRATEGOS_SMTP_PASSWORD` override the file, or name a password file.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Everything `config.toml` can say.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub judge: JudgeConfig,
    pub paths: PathsConfig,
    pub inbox: InboxConfig,
    pub outbox: OutboxConfig,
    pub imap: ImapConfig,
    pub smtp: SmtpConfig,
    pub deadlines: DeadlineConfig,
    pub limits: LimitsConfig,
    pub maps: MapsConfig,
    /// The file this configuration was read from, if any (not a key of the file).
    #[serde(skip)]
    pub file: Option<ConfigFile>,
}

/// Where a configuration came from, for the checks at start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// The keys of secrets the file itself holds (passwords, keys, seeds), whose file then
    /// must be the judge's alone.
    pub secrets: Vec<&'static str>,
}

/// Pictures of the board.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MapsConfig {
    /// Results letters carry the picture of the new board (each game's master and each
    /// player may still turn it off); `false` turns it off for every game, for a judge whose
    /// machine cannot spare the drawing (about 40 ms a game and language each phase).
    pub results_pictures: bool,
}

impl Default for MapsConfig {
    fn default() -> Self {
        MapsConfig {
            results_pictures: true,
        }
    }
}

/// Who the judge is.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct JudgeConfig {
    /// The judge's name in From lines and reports.
    pub name: String,
    /// The judge's address: players write here.
    pub address: String,
    /// The judge's code in subjects and in the `::` lines of its letters (njudge's
    /// JUDGE_CODE, four letters by tradition): `STRA:game - S1901M Results`.
    pub code: String,
    /// The keeper (administrator), told about failures that need a person.
    pub keeper: String,
    /// Time zone of new games (IANA name).
    pub time_zone: String,
    /// A fixed dice seed (64 hex digits) for new Here I Stand games, for tests and
    /// demonstrations only: whoever knows it can foresee every roll. Unset, each game draws
    /// its own secret seed.
    pub dice_seed: Option<String>,
    /// A fixed key (64 hex digits) for the confirmation tokens the judge mails, for tests and
    /// demonstrations only: whoever knows it can make tokens. Unset, the judge draws its own
    /// key once and keeps it in the database.
    pub token_key: Option<String>,
}

/// Where files live.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PathsConfig {
    pub database: PathBuf,
    /// Letter templates; the built-in ones are used for any file missing here.
    pub templates: PathBuf,
    /// Variant files loaded besides the built-in ones.
    pub variants: PathBuf,
    /// When set, the daemon rewrites the static HTML archive here after each phase.
    pub archive: Option<PathBuf>,
}

/// Where mail comes in.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct InboxConfig {
    /// `maildir` or `imap`.
    pub kind: String,
    /// The inbox Maildir (kind = maildir).
    pub maildir: PathBuf,
    /// Seconds between polls (IMAP IDLE wakes earlier when the server offers it).
    pub poll_seconds: u64,
}

/// Where mail goes out.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct OutboxConfig {
    /// `maildir` (write into a Maildir of sent mail), `smtp` or `sendmail`.
    pub kind: String,
    /// The Maildir of sent mail (kind = maildir).
    pub maildir: PathBuf,
    /// The command mail is piped to (kind = sendmail); recipients are added as arguments.
    pub sendmail: Vec<String>,
    /// Attempts before a letter is given up as failed.
    pub max_attempts: u32,
}

/// How connections are secured.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SecurityConfig {
    None,
    Starttls,
    Tls,
}

/// IMAP inbox settings (inbox.kind = imap).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ImapConfig {
    pub host: String,
    pub port: u16,
    pub security: SecurityConfig,
    pub user: String,
    pub password: Option<String>,
    /// A file holding the password (first line), instead of `password`.
    pub password_file: Option<PathBuf>,
    pub folder: String,
    /// Move handled mail here, so the mail folder holds only mail not yet handled; when absent
    /// it is marked seen and stays, and the mail folder only grows.
    pub done_folder: Option<String>,
    /// Wait with IDLE between polls when the server offers it.
    pub idle: bool,
    /// An extra root certificate (PEM) to trust, for private servers and tests.
    pub ca_pem: Option<PathBuf>,
}

/// SMTP settings (outbox.kind = smtp).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: SecurityConfig,
    pub user: Option<String>,
    pub password: Option<String>,
    pub password_file: Option<PathBuf>,
    pub ca_pem: Option<PathBuf>,
}

/// Deadlines of new games, in hours from the start of a phase; the grace after a deadline
/// and the delay before early processing, as njudge's defaults (its `deadlines` file).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DeadlineConfig {
    pub movement_hours: u32,
    pub retreat_hours: u32,
    pub adjustment_hours: u32,
    /// Hours before a deadline when players who owe orders are reminded.
    pub reminder_hours: u32,
    /// Hours after a deadline a game waits for late orders, with late notices to everyone
    /// each day, before its NMR policy (civil disorder, or waiting for a new player).
    pub movement_grace_hours: u32,
    pub retreat_grace_hours: u32,
    pub adjustment_grace_hours: u32,
    /// Minutes from the last orders to processing before the deadline.
    pub delay_minutes: u32,
}

/// Protection against floods and oversized mail.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Largest message read, in bytes; larger ones get a polite refusal.
    pub max_message_bytes: usize,
    /// Letters from one sender read per hour (refused ones count too); beyond that one
    /// notice, then only letters signing on with a seat's password are read.
    pub letters_per_hour: u32,
    /// Wrong passwords after which one letter checks no more passwords.
    pub password_failures_per_letter: u32,
    /// Wrong passwords within an hour for one seat (or one account's seats) that lock it.
    pub password_failures_per_hour: u32,
    /// Minutes a seat stays locked: no password is checked for it meanwhile.
    pub lock_minutes: u32,
    /// Hours a confirmation token stays valid.
    pub confirm_hours: u32,
    /// Hours at most a deadline waits for a letter held for a locked seat to be confirmed.
    pub held_wait_hours: u32,
    /// Commands read from one letter (a block of order lines is one); the rest are not read.
    pub commands_per_letter: u32,
    /// Order lines read from one letter, all its blocks together; the rest are not read.
    pub order_lines_per_letter: u32,
    /// Games one account (all its addresses together) may create in 24 hours.
    pub games_created_per_day: u32,
    /// Addresses one account may have (`I AM ALSO`), the chosen one included.
    pub addresses_per_account: u32,
    /// The largest letter the judge writes, in bytes of body; past it the rest is summed up.
    pub answer_bytes: usize,
    /// Letters one letter may cause to other people (announcements, press, reports...).
    pub letters_to_others_per_letter: u32,
    /// Days a quarantined letter (one that could not be read) is kept whole for the keeper;
    /// then its body is removed and its headers kept.
    pub keep_quarantined_days: u32,
    /// Days the attachments of letters sent (the pictures of the board) are kept in the
    /// outbox after every letter queued with them is sent; then their bodies are removed and
    /// the letters' text kept.
    pub keep_sent_attachments_days: u32,
    /// Attempts at handling one letter, each counted before it begins, after which a letter
    /// whose handling never finished (the judge killed, stopped by the watchdog or panicking
    /// on it each time) is quarantined, its sender told once, and the letters behind it go on.
    pub handling_attempts: u32,
    /// Seconds the handling of one letter may last before the watchdog ends the process (exit
    /// status 75) for its supervisor to start again; 0: no watchdog.
    pub letter_seconds: u64,
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            name: "Strategos".into(),
            address: "judge@localhost".into(),
            code: "STRA".into(),
            keeper: "keeper@localhost".into(),
            time_zone: "UTC".into(),
            dice_seed: None,
            token_key: None,
        }
    }
}

impl Default for PathsConfig {
    fn default() -> Self {
        PathsConfig {
            database: "var/strategos.db".into(),
            templates: "templates".into(),
            variants: "variants".into(),
            archive: None,
        }
    }
}

impl Default for InboxConfig {
    fn default() -> Self {
        InboxConfig {
            kind: "maildir".into(),
            maildir: "var/inbox".into(),
            poll_seconds: 60,
        }
    }
}

impl Default for OutboxConfig {
    fn default() -> Self {
        OutboxConfig {
            kind: "maildir".into(),
            maildir: "var/sent".into(),
            sendmail: vec!["/usr/sbin/sendmail".into(), "-i".into()],
            max_attempts: 20,
        }
    }
}

impl Default for ImapConfig {
    fn default() -> Self {
        ImapConfig {
            host: "localhost".into(),
            port: 993,
            security: SecurityConfig::Tls,
            user: String::new(),
            password: None,
            password_file: None,
            folder: "INBOX".into(),
            done_folder: None,
            idle: true,
            ca_pem: None,
        }
    }
}

impl Default for SmtpConfig {
    fn default() -> Self {
        SmtpConfig {
            host: "localhost".into(),
            port: 587,
            security: SecurityConfig::Starttls,
            user: None,
            password: None,
            password_file: None,
            ca_pem: None,
        }
    }
}

impl Default for DeadlineConfig {
    fn default() -> Self {
        DeadlineConfig {
            movement_hours: 48,
            retreat_hours: 24,
            adjustment_hours: 24,
            reminder_hours: 12,
            movement_grace_hours: 168,
            retreat_grace_hours: 72,
            adjustment_grace_hours: 72,
            delay_minutes: 30,
        }
    }
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            max_message_bytes: 1 << 20,
            letters_per_hour: 60,
            password_failures_per_letter: 3,
            password_failures_per_hour: 5,
            lock_minutes: 60,
            confirm_hours: 72,
            held_wait_hours: 24,
            commands_per_letter: 100,
            order_lines_per_letter: 1000,
            games_created_per_day: 3,
            addresses_per_account: 5,
            answer_bytes: 512 * 1024,
            letters_to_others_per_letter: 200,
            keep_quarantined_days: 30,
            keep_sent_attachments_days: 30,
            handling_attempts: 3,
            letter_seconds: 300,
        }
    }
}

/// The environment a configuration reads secrets from (injected, so tests set their own).
pub trait Environment {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct ProcessEnvironment;

impl Environment for ProcessEnvironment {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

impl Config {
    /// Reads `text` (the contents of `file`), checks every value and applies the environment.
    pub fn from_toml(file: &str, text: &str, env: &dyn Environment) -> Result<Config, String> {
        Config::parse(file, text, env).map(|(config, _)| config)
    }

    /// `from_toml`, with the keys of the secrets the text itself holds.
    fn parse(
        file: &str,
        text: &str,
        env: &dyn Environment,
    ) -> Result<(Config, Vec<&'static str>), String> {
        let mut config: Config = toml::from_str(text).map_err(|e| {
            let message = e.message().trim_end().to_string();
            let Some(span) = e.span() else {
                return format!("{file}: {message}");
            };
            let start = span.start.min(text.len());
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let number = text[..line_start].matches('\n').count() + 1;
            // The line itself names the key (`port = "x"`); the section comes from above.
            let section = text[..line_start]
                .lines()
                .rev()
                .find_map(|l| l.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')))
                .map(|s| format!("[{s}] "))
                .unwrap_or_default();
            format!(
                "{file}:{number}: {section}{}: {message}",
                text[line_start..line_end].trim()
            )
        })?;
        let secrets = [
            ("imap.password", config.imap.password.is_some()),
            ("smtp.password", config.smtp.password.is_some()),
            ("judge.token_key", config.judge.token_key.is_some()),
            ("judge.dice_seed", config.judge.dice_seed.is_some()),
        ];
        let secrets = secrets
            .iter()
            .filter(|(_, held)| *held)
            .map(|(key, _)| *key)
            .collect();
        if let Some(p) = env.var("STRATEGOS_IMAP_PASSWORD") {
            config.imap.password = Some(p);
        }
        if let Some(p) = env.var("STRATEGOS_SMTP_PASSWORD") {
            config.smtp.password = Some(p);
        }
        config
            .check()
            .map_err(|(key, why)| format!("{file}: {key}: {why}"))?;
        Ok((config, secrets))
    }

    /// Reads the configuration from `path`, or the defaults when `path` is None and there is
    /// no `config.toml` in the current folder. The relative paths a file gives are read from
    /// the file's own folder, so the judge finds the same files whatever folder it is started
    /// in (a mail server runs `strategos deliver` in its spool); the defaults are relative to
    /// the current folder.
    pub fn load(path: Option<&Path>, env: &dyn Environment) -> Result<Config, String> {
        let (path, required) = match path {
            Some(p) => (p.to_path_buf(), true),
            None => (PathBuf::from("config.toml"), false),
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let (mut config, secrets) = Config::parse(&path.display().to_string(), &text, env)?;
                config.file = Some(ConfigFile {
                    path: path.clone(),
                    secrets,
                });
                if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
                    config.resolve_paths(folder);
                }
                Ok(config)
            }
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                Ok(Config::default())
            }
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Makes every relative path of the configuration relative to `folder`.
    pub fn resolve_paths(&mut self, folder: &Path) {
        let within = |p: &mut PathBuf| {
            if p.is_relative() {
                *p = folder.join(&*p);
            }
        };
        within(&mut self.paths.database);
        within(&mut self.paths.templates);
        within(&mut self.paths.variants);
        within(&mut self.inbox.maildir);
        within(&mut self.outbox.maildir);
        for path in [
            &mut self.paths.archive,
            &mut self.imap.password_file,
            &mut self.imap.ca_pem,
            &mut self.smtp.password_file,
            &mut self.smtp.ca_pem,
        ]
        .into_iter()
        .flatten()
        {
            within(path);
        }
    }

    /// Checks values serde cannot: the key at fault and why.
    fn check(&self) -> Result<(), (&'static str, String)> {
        if !self.judge.address.contains('@') {
            return Err((
                "judge.address",
                format!("'{}' is not a mail address", self.judge.address),
            ));
        }
        if self.judge.code.is_empty() || !self.judge.code.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err((
                "judge.code",
                format!("'{}' is not a code of letters, like STRA", self.judge.code),
            ));
        }
        if !self.judge.keeper.contains('@') {
            return Err((
                "judge.keeper",
                format!("'{}' is not a mail address", self.judge.keeper),
            ));
        }
        if self.judge.time_zone.parse::<chrono_tz::Tz>().is_err() {
            return Err((
                "judge.time_zone",
                format!(
                    "'{}' is not an IANA time zone such as Europe/Moscow",
                    self.judge.time_zone
                ),
            ));
        }
        if let Some(seed) = &self.judge.dice_seed
            && crate::dice::Seed::from_hex(seed).is_none()
        {
            return Err((
                "judge.dice_seed",
                "it is not 64 hex digits (32 bytes)".to_string(),
            ));
        }
        if let Some(key) = &self.judge.token_key
            && crate::dice::Seed::from_hex(key).is_none()
        {
            return Err((
                "judge.token_key",
                "it is not 64 hex digits (32 bytes)".to_string(),
            ));
        }
        if self.limits.password_failures_per_letter == 0
            || self.limits.password_failures_per_hour == 0
        {
            return Err((
                "limits",
                "password_failures_per_letter and password_failures_per_hour must be at least 1"
                    .into(),
            ));
        }
        if self.limits.commands_per_letter == 0 {
            return Err(("limits.commands_per_letter", "must be at least 1".into()));
        }
        if self.limits.order_lines_per_letter == 0 {
            return Err(("limits.order_lines_per_letter", "must be at least 1".into()));
        }
        if self.limits.answer_bytes < 4096 {
            return Err(("limits.answer_bytes", "must be at least 4096".into()));
        }
        if self.limits.handling_attempts == 0 {
            return Err(("limits.handling_attempts", "must be at least 1".into()));
        }
        if self.limits.addresses_per_account == 0 {
            return Err(("limits.addresses_per_account", "must be at least 1".into()));
        }
        if self.limits.confirm_hours == 0 {
            return Err(("limits.confirm_hours", "must be at least 1".into()));
        }
        if !matches!(self.inbox.kind.as_str(), "maildir" | "imap") {
            return Err((
                "inbox.kind",
                format!("'{}' is not maildir or imap", self.inbox.kind),
            ));
        }
        if !matches!(self.outbox.kind.as_str(), "maildir" | "smtp" | "sendmail") {
            return Err((
                "outbox.kind",
                format!("'{}' is not maildir, smtp or sendmail", self.outbox.kind),
            ));
        }
        if self.inbox.poll_seconds == 0 {
            return Err(("inbox.poll_seconds", "must be at least 1".into()));
        }
        if self.outbox.kind == "sendmail" && self.outbox.sendmail.is_empty() {
            return Err(("outbox.sendmail", "needs a command".into()));
        }
        if self.inbox.kind == "imap" && self.imap.user.is_empty() {
            return Err(("imap.user", "is needed when inbox.kind = \"imap\"".into()));
        }
        if self.deadlines.movement_hours == 0
            || self.deadlines.retreat_hours == 0
            || self.deadlines.adjustment_hours == 0
        {
            return Err(("deadlines", "every phase needs at least one hour".into()));
        }
        if self.deadlines.movement_grace_hours > 720
            || self.deadlines.retreat_grace_hours > 720
            || self.deadlines.adjustment_grace_hours > 720
        {
            return Err(("deadlines", "a grace is at most 720 hours".into()));
        }
        if self.deadlines.delay_minutes > 720 * 60 {
            return Err((
                "deadlines.delay_minutes",
                "is at most 43200 (720 hours)".into(),
            ));
        }
        if self.limits.max_message_bytes < 1024 {
            return Err(("limits.max_message_bytes", "must be at least 1024".into()));
        }
        Ok(())
    }

    /// What in the configuration works but is unwise, one sentence each naming its key: a
    /// password sent to another machine without TLS.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        let in_clear = |host: &str, security: SecurityConfig, password: bool| {
            password && security == SecurityConfig::None && !is_loopback(host)
        };
        if self.inbox.kind == "imap"
            && in_clear(
                &self.imap.host,
                self.imap.security,
                self.imap.password.is_some() || self.imap.password_file.is_some(),
            )
        {
            warnings.push(format!(
                "imap.security = \"none\": the IMAP password goes to {} without TLS, readable \
                 on the way; use \"tls\" or \"starttls\"",
                self.imap.host
            ));
        }
        if self.outbox.kind == "smtp"
            && in_clear(
                &self.smtp.host,
                self.smtp.security,
                self.smtp.user.is_some()
                    && (self.smtp.password.is_some() || self.smtp.password_file.is_some()),
            )
        {
            warnings.push(format!(
                "smtp.security = \"none\": the SMTP password goes to {} without TLS, readable \
                 on the way; use \"starttls\" or \"tls\"",
                self.smtp.host
            ));
        }
        warnings
    }

    /// A password given directly or in a file (first line).
    pub fn secret(
        password: &Option<String>,
        file: &Option<PathBuf>,
    ) -> Result<Option<String>, String> {
        if password.is_some() {
            return Ok(password.clone());
        }
        match file {
            None => Ok(None),
            Some(path) => std::fs::read_to_string(path)
                .map(|t| t.lines().next().map(str::to_string))
                .map_err(|e| format!("{}: {e}", path.display())),
        }
    }
}

/// Whether `host` is this machine (a name or address of the loopback), so that what is sent
/// to it never crosses a network.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}
