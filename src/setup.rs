//! Building the daemon from the configuration: database, templates, inbox and transport;
//! the checks at start (files holding secrets that other users may read, settings that
//! cannot work); and the stop signal. Every failure here names what to fix and stops
//! start-up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use strategos::config::{Config, SecurityConfig};
use strategos::daemon::fault::Fault;
use strategos::daemon::watchdog::Watchdog;
use strategos::daemon::{Clock, Daemon, Inbox};
use strategos::files::exposure;
use strategos::judge::Judge;
use strategos::mail::imap::ImapSettings;
use strategos::mail::maildir::Maildir;
use strategos::mail::security::Security;
use strategos::mail::send::{
    MaildirTransport, SendmailTransport, SmtpSettings, SmtpTransport, Transport,
};
use strategos::report::Templates;
use strategos::store::{Store, Upgrade};
use strategos::variant::Variant;

fn security(s: SecurityConfig) -> Security {
    match s {
        SecurityConfig::None => Security::None,
        SecurityConfig::Starttls => Security::StartTls,
        SecurityConfig::Tls => Security::Tls,
    }
}

/// Refuses a database (or its journal files) that a user other than the judge's may read:
/// it holds password hashes, the key that makes `CONFIRM` tokens, held letters with their
/// passwords, press and addresses.
pub fn refuse_exposed_database(config: &Config) -> Result<(), String> {
    let database = &config.paths.database;
    for suffix in ["", "-wal", "-shm"] {
        let mut name = database.clone().into_os_string();
        name.push(suffix);
        let file = std::path::PathBuf::from(name);
        if let Some(who) = exposure(&file) {
            return Err(format!(
                "paths.database: {} is readable by {who}, and it holds password hashes, the \
                 key of CONFIRM tokens, held letters and addresses; make it the judge's alone \
                 (chmod 600 {}*) and start again",
                file.display(),
                database.display()
            ));
        }
    }
    Ok(())
}

/// The checks at start, each problem a line in the log: files holding secrets that another
/// user may read (the database is refused: `refuse_exposed_database`), settings that put a
/// password on the network in clear or cannot send mail.
pub fn check_at_start(config: &Config) -> Result<(), String> {
    refuse_exposed_database(config)?;
    let mut secret_files = Vec::new();
    if let Some(file) = config.file.as_ref().filter(|f| !f.secrets.is_empty()) {
        secret_files.push((file.path.clone(), file.secrets.join(", ")));
    }
    if config.inbox.kind == "imap"
        && let Some(file) = &config.imap.password_file
    {
        secret_files.push((file.clone(), "imap.password_file".into()));
    }
    if config.outbox.kind == "smtp"
        && let Some(file) = &config.smtp.password_file
    {
        secret_files.push((file.clone(), "smtp.password_file".into()));
    }
    for (file, holds) in secret_files {
        if let Some(who) = exposure(&file) {
            tracing::warn!(
                "{} holds a secret ({holds}) and is readable by {who}: make it readable by the \
                 judge alone (chmod 600, or 640 with the judge's group)",
                file.display()
            );
        }
    }
    let mut folders = Vec::new();
    if config.inbox.kind == "maildir" {
        folders.push(("inbox.maildir", &config.inbox.maildir));
    }
    if config.outbox.kind == "maildir" {
        folders.push(("outbox.maildir", &config.outbox.maildir));
    }
    for (key, folder) in folders {
        if let Some(who) = exposure(folder) {
            tracing::warn!(
                "{key}: the Maildir {0} may be listed by {who}, and its letters hold passwords \
                 and tokens: make it the judge's alone (chmod -R go= {0})",
                folder.display()
            );
        }
    }
    for warning in config.warnings() {
        tracing::warn!("{warning}");
    }
    Ok(())
}

/// The daemon the configuration describes; `with_inbox` false for `deliver`. An older
/// database is brought up to date only with `Upgrade::Migrate` (`strategos run`).
pub fn daemon(
    config: Config,
    variants: Vec<Variant>,
    clock: Clock,
    with_inbox: bool,
    upgrade: Upgrade,
) -> Result<Daemon, String> {
    let templates = Templates::load(Some(config.paths.templates.as_path()).filter(|p| p.is_dir()))?;
    check_at_start(&config)?;
    if let Some(dir) = config
        .paths
        .database
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("paths.database: cannot create {}: {e}", dir.display()))?;
    }
    let database = &config.paths.database;
    let opened = match upgrade {
        Upgrade::Refuse => Store::open(database).map(|store| (store, None)),
        Upgrade::Migrate => Store::open_migrating(database),
    };
    let (store, migrated) =
        opened.map_err(|e| format!("paths.database: cannot open {}: {e}", database.display()))?;
    if let Some(m) = migrated {
        tracing::info!(
            "the database {} is migrated from schema {} to {}; its copy from before is {}",
            database.display(),
            m.from,
            m.to,
            m.backup.display()
        );
    }
    let inbox = if !with_inbox {
        Inbox::None
    } else if config.inbox.kind == "imap" {
        let password = Config::secret(&config.imap.password, &config.imap.password_file)
            .map_err(|e| format!("imap.password_file: {e}"))?
            .unwrap_or_default();
        let mut settings = ImapSettings::new(
            &config.imap.host,
            config.imap.port,
            security(config.imap.security),
            &config.imap.user,
            password,
        );
        settings.folder = config.imap.folder.clone();
        settings.done_folder = config.imap.done_folder.clone();
        settings.ca_pem = config.imap.ca_pem.clone();
        Inbox::Imap {
            settings: Box::new(settings),
            connection: None,
            idle: config.imap.idle,
        }
    } else {
        Inbox::Maildir(Maildir::open(&config.inbox.maildir).map_err(|e| {
            format!(
                "inbox.maildir: cannot open {}: {e}",
                config.inbox.maildir.display()
            )
        })?)
    };
    let transport: Box<dyn Transport> = match config.outbox.kind.as_str() {
        "smtp" => {
            let password = Config::secret(&config.smtp.password, &config.smtp.password_file)
                .map_err(|e| format!("smtp.password_file: {e}"))?;
            let settings = SmtpSettings {
                host: config.smtp.host.clone(),
                port: config.smtp.port,
                security: security(config.smtp.security),
                user: config.smtp.user.clone(),
                password,
                ca_pem: config.smtp.ca_pem.clone(),
                timeout_secs: 30,
            };
            Box::new(SmtpTransport::new(&settings).map_err(|e| format!("smtp: {e}"))?)
        }
        "sendmail" => {
            let transport = SendmailTransport::new(config.outbox.sendmail.clone());
            match transport.blocked() {
                Some(why) => tracing::error!("outbox.kind = \"sendmail\" cannot work here: {why}"),
                None => tracing::info!(
                    "outbox.kind = \"sendmail\": the command hands letters to the mail \
                     system's queue, which needs a unit without NoNewPrivileges= and with its \
                     spool writable (the shipped unit has neither: use kind = \"smtp\")"
                ),
            }
            Box::new(transport)
        }
        _ => Box::new(MaildirTransport::open(&config.outbox.maildir).map_err(|e| {
            format!(
                "outbox.maildir: cannot open {}: {e}",
                config.outbox.maildir.display()
            )
        })?),
    };
    let judge = Judge {
        config,
        variants,
        templates,
        last_position: Default::default(),
        pictures_ahead: Default::default(),
    };
    // The watchdog ends a handling that outlasts its time; the fault (tests only) is read in
    // debug builds alone.
    let seconds = judge.config.limits.letter_seconds;
    let watchdog = if seconds == 0 {
        None
    } else {
        Some(
            Watchdog::start(std::time::Duration::from_secs(seconds))
                .map_err(|e| format!("limits.letter_seconds: cannot start the watchdog: {e}"))?,
        )
    };
    Ok(Daemon {
        judge,
        store,
        inbox,
        transport,
        clock,
        watchdog,
        fault: Fault::from_environment(),
        archive_due: false,
    })
}

/// A flag raised by SIGTERM or SIGINT, so the loop stops between rounds.
pub fn stop_signal() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            use tokio::signal::unix::{SignalKind, signal};
            let (Ok(mut term), Ok(mut int)) = (
                signal(SignalKind::terminate()),
                signal(SignalKind::interrupt()),
            ) else {
                return;
            };
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            flag.store(true, Ordering::SeqCst);
        });
    });
    stop
}
