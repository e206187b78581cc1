//! `strategos deliver`: one letter piped in by the mail server (Postfix's `pipe`), as the
//! classic judges ran. The mail server bounces the letter back to its sender on any exit
//! status but 0 and 75, and mails back what the command wrote; so, until the letter is
//! safely stored, every failure (the configuration, its paths, permissions, a database that
//! is locked, migrating, of another schema or full, the arguments) exits 75 (EX_TEMPFAIL)
//! and the mail server keeps the letter and offers it again; once it is stored, the command
//! exits 0 whatever comes after. It writes nothing on standard output or error (unless they
//! are a terminal, for a keeper trying it by hand): its log goes to the system log.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use strategos::config::{Config, ProcessEnvironment};
use strategos::store::Upgrade;
use strategos::syslog::Syslog;

/// sysexits.h: "temporary failure, user is invited to retry".
const EX_TEMPFAIL: u8 = 75;

/// Whether the command line asks for `deliver` (read before the arguments are understood).
pub fn asked() -> bool {
    std::env::args().skip(1).any(|a| a == "deliver")
}

/// Where the log goes: the system log; standard error only when it is a terminal (a keeper
/// at the keyboard); else nowhere, rather than back to a letter's sender.
fn start_log() {
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt().with_target(false);
    match Syslog::connect() {
        Some(log) if !terminal => builder
            .with_writer(log)
            .with_ansi(false)
            .without_time()
            .with_level(false)
            .init(),
        _ if terminal => builder.with_writer(std::io::stderr).init(),
        _ => builder.with_writer(std::io::sink).init(),
    }
    // A panic's message goes to the log too, never to the mail server.
    std::panic::set_hook(Box::new(|panic| tracing::error!("{panic}")));
}

/// Arguments this version does not understand: logged, and the letter kept.
pub fn refuse_arguments(error: &clap::Error) -> ExitCode {
    start_log();
    tracing::error!(
        "strategos deliver: {}; the mail server keeps the letter (exit status 75)",
        error.to_string().trim()
    );
    ExitCode::from(EX_TEMPFAIL)
}

/// Logs why the letter could not be stored and asks the mail server to keep it.
fn keep(why: &str) -> ExitCode {
    tracing::error!(
        "strategos deliver: {why}; the mail server keeps the letter and offers it again (exit status 75)"
    );
    ExitCode::from(EX_TEMPFAIL)
}

/// `strategos deliver [--now T]` with the configuration at `config` (or the default).
pub fn deliver(config: Option<&Path>, now: Option<&str>) -> ExitCode {
    start_log();
    let mut raw = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut raw) {
        return keep(&format!("cannot read the letter: {e}"));
    }
    let built = Config::load(config, &ProcessEnvironment).and_then(|config| {
        let clock = super::clock(now)?;
        let variants = super::configured_variants(&config)?;
        // Only `run` and `migrate` change the database's schema.
        super::setup::daemon(config, variants, clock, false, Upgrade::Refuse)
    });
    let mut daemon = match built {
        Ok(daemon) => daemon,
        Err(why) => return keep(&why),
    };
    // A letter the database could not take (busy, locked, full, unwritable) stays with the
    // mail server.
    match daemon.try_accept(&raw, "stdin") {
        Ok(_) => {}
        Err(e) => return keep(&format!("the letter could not be stored: {e}")),
    }
    // Stored: whatever happens now, the letter is the judge's (a panic is logged, and the
    // next round of any judge process handles what is left).
    let after = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        daemon.round();
        // An answer queued behind another process's letter to the same address leaves
        // before this process does (for up to a minute).
        daemon.send_before_leaving(1200, &mut || {
            std::thread::sleep(std::time::Duration::from_millis(50))
        });
    }));
    if after.is_err() {
        tracing::error!(
            "strategos deliver: the letter is stored, but its handling stopped; the next round \
             of the judge goes on with it"
        );
    }
    ExitCode::SUCCESS
}
