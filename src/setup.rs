//! Building the daemon from the configuration: database, templates, inbox and transport;
//! and the stop signal. Every failure here names what to fix and stops start-up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use strategos::config::{Config, SecurityConfig};
use strategos::daemon::fault::Fault;
use strategos::daemon::watchdog::Watchdog;
use strategos::daemon::{Clock, Daemon, Inbox};
use strategos::judge::Judge;
use strategos::mail::imap::ImapSettings;
use strategos::mail::maildir::Maildir;
use strategos::mail::security::Security;
use strategos::mail::send::{
    MaildirTransport, SendmailTransport, SmtpSettings, SmtpTransport, Transport,
};
use strategos::report::Templates;
use strategos::store::Store;
use strategos::variant::Variant;

fn security(s: SecurityConfig) -> Security {
    match s {
        SecurityConfig::None => Security::None,
        SecurityConfig::Starttls => Security::StartTls,
        SecurityConfig::Tls => Security::Tls,
    }
}

/// The daemon the configuration describes; `with_inbox` false for `deliver`.
pub fn daemon(
    config: Config,
    variants: Vec<Variant>,
    clock: Clock,
    with_inbox: bool,
) -> Result<Daemon, String> {
    let templates = Templates::load(Some(config.paths.templates.as_path()).filter(|p| p.is_dir()))?;
    if let Some(dir) = config
        .paths
        .database
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("paths.database: cannot create {}: {e}", dir.display()))?;
    }
    let store = Store::open(&config.paths.database).map_err(|e| {
        format!(
            "paths.database: cannot open {}: {e}",
            config.paths.database.display()
        )
    })?;
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
        "sendmail" => Box::new(SendmailTransport::new(config.outbox.sendmail.clone())),
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
