//! The watchdog: a thread that ends the process when the handling of one letter has lasted
//! longer than `limits.letter_seconds`, so that a letter that stalls the judge cannot hold up
//! the letters behind it for ever.
//!
//! Ending the process is the only sure way back: Rust cannot stop a thread from outside, and
//! the stalled handling holds the database's write transaction. Every attempt at a letter is
//! counted and committed before it begins, so a supervisor that starts the judge again
//! (systemd's `Restart=`, a mail system offering a piped letter again) finds the letter with
//! one attempt more, and after `limits.handling_attempts` of them the letter is quarantined
//! and the others handled. The exit status is 75 (EX_TEMPFAIL: try again later).
//!
//! It reads the real clock (`Instant`), never the judge's: it measures how long the process
//! works, not game time.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tracing::error;

/// The exit status of a process the watchdog ended.
pub const WATCHDOG_EXIT: i32 = 75;

/// A running watchdog; dropping it stops its thread.
pub struct Watchdog {
    shared: Arc<Shared>,
}

struct Shared {
    limit: Duration,
    state: Mutex<Watch>,
    changed: Condvar,
}

#[derive(Default)]
struct Watch {
    /// What is being handled, and since when.
    current: Option<(String, Instant)>,
    stopped: bool,
}

/// The handling of one letter, watched until this is dropped (unwinding included).
pub struct Watching {
    shared: Arc<Shared>,
}

fn lock(shared: &Shared) -> MutexGuard<'_, Watch> {
    shared.state.lock().unwrap_or_else(|e| e.into_inner())
}

impl Watchdog {
    /// Starts the thread; `limit` is how long one letter's handling may last.
    pub fn start(limit: Duration) -> std::io::Result<Watchdog> {
        let shared = Arc::new(Shared {
            limit,
            state: Mutex::new(Watch::default()),
            changed: Condvar::new(),
        });
        let watched = shared.clone();
        std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || watch(&watched))?;
        Ok(Watchdog { shared })
    }

    /// Watches the handling of `what` (a letter, named for the log) until the guard drops.
    pub fn watch(&self, what: impl Into<String>) -> Watching {
        lock(&self.shared).current = Some((what.into(), Instant::now()));
        self.shared.changed.notify_all();
        Watching {
            shared: self.shared.clone(),
        }
    }

    /// How long one letter's handling may last.
    pub fn limit(&self) -> Duration {
        self.shared.limit
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        lock(&self.shared).current = None;
        self.shared.changed.notify_all();
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.shared).stopped = true;
        self.shared.changed.notify_all();
    }
}

/// The watchdog's thread: sleeps until something is watched, then until its time is up;
/// ends the process if it is still the same handling by then.
fn watch(shared: &Shared) {
    let mut state = lock(shared);
    loop {
        if state.stopped {
            return;
        }
        let Some((what, since)) = state.current.clone() else {
            state = shared
                .changed
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let lasted = since.elapsed();
        if lasted >= shared.limit {
            error!(
                letter = %what,
                seconds = shared.limit.as_secs_f64(),
                "the handling of one letter outlasted limits.letter_seconds: the judge stops \
                 (exit status {WATCHDOG_EXIT}) so that its supervisor starts it again; the \
                 letter's attempts are counted, and it is quarantined once they are spent"
            );
            std::process::exit(WATCHDOG_EXIT);
        }
        state = shared
            .changed
            .wait_timeout(state, shared.limit - lasted)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}
