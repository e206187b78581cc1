//! The only SQL: games, players, the raw inbox, the outbox and the archive in one SQLite
//! file (WAL, foreign keys, versioned migrations).
//!
//! Callers open a `Tx` for each unit of work: a handled letter, the state it changes and
//! the letters it causes commit together or not at all.

mod addresses;
mod ahead;
mod diary;
mod games;
mod identities;
mod mail;
mod position;
mod trust;
mod upgrade;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, Transaction};

pub use addresses::Added;
pub use diary::DiaryEntry;
pub use games::{ArchivedReport, GameRow, MemberRow, PhaseRow, PlayerRow};
pub use identities::IdentityRow;
pub use mail::{
    MessageState, OutboxEnvelope, OutboxRow, QueuedLetter, RawState, StoredMessage,
    UnsettledMessage,
};
pub use position::{position_from_json, position_to_json};
pub use trust::{FailureRow, RequestRow};
pub use upgrade::{Migrated, OpenError, SCHEMA, Upgrade, judge_version};

/// The migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    include_str!("schema.sql"),
    include_str!("schema2.sql"),
    include_str!("schema3.sql"),
    include_str!("schema4.sql"),
    include_str!("schema5.sql"),
    include_str!("schema6.sql"),
    include_str!("schema7.sql"),
    include_str!("schema8.sql"),
    include_str!("schema9.sql"),
    include_str!("schema10.sql"),
    include_str!("schema11.sql"),
];

/// An open database.
pub struct Store {
    conn: Connection,
}

/// A transaction on the store: every method of the judge's state works inside one.
pub struct Tx<'a> {
    tx: Transaction<'a>,
    /// The attachments' bodies this transaction stored in `outbox_parts`, with when they were
    /// queued and their ids: the letters of one game's phase, queued together, share them.
    parts: std::cell::RefCell<Vec<(Vec<u8>, String, i64)>>,
}

/// Times are stored as fixed-width UTC text, so text order is time order.
pub fn time_text(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Reads a time stored by `time_text`.
pub fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

impl Store {
    /// Opens (creating if needed) the database at `path`. A new database is made at this
    /// judge's schema; one of an older schema is refused (`Store::open_migrating` brings it
    /// up), and so is one of a newer schema.
    pub fn open(path: &std::path::Path) -> Result<Store, OpenError> {
        Store::open_as(path, Upgrade::Refuse).map(|(store, _)| store)
    }

    /// Opens (creating if needed) the database at `path`, bringing an older schema up to
    /// date after writing a checked copy of it beside it (`strategos run`, `strategos
    /// migrate`). Returns what was migrated, if anything.
    pub fn open_migrating(path: &std::path::Path) -> Result<(Store, Option<Migrated>), OpenError> {
        Store::open_as(path, Upgrade::Migrate)
    }

    fn open_as(
        path: &std::path::Path,
        upgrade: Upgrade,
    ) -> Result<(Store, Option<Migrated>), OpenError> {
        // A new database is made the judge's alone whatever the process's umask; SQLite
        // gives its journal files the database's mode.
        if !crate::files::taken(path) {
            match crate::files::create_private(path) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                    return Err(OpenError::File(format!(
                        "cannot create {}: {e}",
                        path.display()
                    )));
                }
                _ => {}
            }
        }
        let mut conn = Connection::open(path)?;
        Store::configure(&conn)?;
        let migrated = upgrade::bring_up(&mut conn, Some(path), upgrade)?;
        Ok((Store { conn }, migrated))
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> rusqlite::Result<Store> {
        let mut conn = Connection::open_in_memory()?;
        Store::configure(&conn)?;
        upgrade::bring_up(&mut conn, None, Upgrade::Migrate).map_err(|e| match e {
            OpenError::Sqlite(e) => e,
            // A new database is never behind, ahead or copied.
            other => rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                Some(other.to_string()),
            ),
        })?;
        Ok(Store { conn })
    }

    /// The connection's settings, before anything is read.
    fn configure(conn: &Connection) -> rusqlite::Result<()> {
        // Waiting for another process comes first: two `strategos deliver` started together on
        // a database not made yet both switch it to WAL and bring its schema up.
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Store::use_wal(conn)?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Every statement the judge runs stays prepared (there are fewer than this).
        conn.set_prepared_statement_cache_capacity(256);
        Ok(())
    }

    /// The schema version of the database (`SCHEMA` once open).
    pub fn schema(&self) -> rusqlite::Result<i64> {
        upgrade::version(&self.conn)
    }

    /// Puts the database in WAL mode (readers and one writer at once). The switch needs the
    /// file to itself and SQLite does not wait for it as it waits for a lock, so while other
    /// processes are opening the same new file it is tried again, for as long as a lock is
    /// waited for.
    fn use_wal(conn: &Connection) -> rusqlite::Result<()> {
        let mut tries = 0;
        loop {
            match conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
            {
                Ok(_) => return Ok(()),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::DatabaseBusy && tries < 500 =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Starts a unit of work.
    pub fn begin(&mut self) -> rusqlite::Result<Tx<'_>> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        Ok(Tx {
            tx,
            parts: Default::default(),
        })
    }

    /// How long a unit of work waits for another writer to finish before it fails with
    /// "database is locked" (5 s unless set).
    pub fn set_busy_timeout(&self, wait: std::time::Duration) -> rusqlite::Result<()> {
        self.conn.busy_timeout(wait)
    }

    /// Caps the file at `pages` pages for this connection (`PRAGMA max_page_count`; never
    /// below its present size, `None` lifts the cap): a write that would grow the file beyond
    /// fails as on a full disk (SQLITE_FULL). For tests of a full disk, and for quotas.
    /// Returns the cap in force.
    pub fn set_max_pages(&self, pages: Option<i64>) -> rusqlite::Result<i64> {
        // SQLite clamps a cap above its own largest page count.
        let pages = pages.unwrap_or(i64::from(u32::MAX)).max(1);
        self.conn
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| {
                r.get(0)
            })
    }

    /// The size of the file in pages.
    pub fn page_count(&self) -> rusqlite::Result<i64> {
        self.conn.query_row("PRAGMA page_count", [], |r| r.get(0))
    }

    /// A consistent copy of the whole database written to `path`, safe while the judge runs
    /// (SQLite's `VACUUM INTO` reads one snapshot, and writers go on), and checked: intact,
    /// of the same schema. Nothing may be at `path` (not even a link); the copy is written
    /// into a new file beside it, only its owner may read it, and it is linked into place
    /// once checked, so a failed copy leaves nothing.
    pub fn back_up(&self, path: &std::path::Path) -> Result<(), String> {
        let version = self
            .schema()
            .map_err(|e| format!("cannot read the database: {e}"))?;
        upgrade::copy_checked(&self.conn, path, version)
    }

    /// `PRAGMA integrity_check` says ok.
    pub fn is_intact(&self) -> rusqlite::Result<bool> {
        let result: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        Ok(result == "ok")
    }
}

impl Tx<'_> {
    pub fn commit(self) -> rusqlite::Result<()> {
        self.tx.commit()
    }

    /// Runs a statement, prepared once per connection and kept (SQLite's parsing and
    /// planning of the same few statements for every letter were a noticeable share).
    pub(crate) fn execute_cached<P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
    ) -> rusqlite::Result<usize> {
        self.tx.prepare_cached(sql)?.execute(params)
    }

    /// One row of a query prepared once per connection and kept.
    pub(crate) fn query_row_cached<T, P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
        row: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        self.tx.prepare_cached(sql)?.query_row(params, row)
    }

    /// Marks a point of the transaction that `rollback_to` can return to (savepoints nest;
    /// a name refers to the latest of that name).
    pub fn savepoint(&self, name: &str) -> rusqlite::Result<()> {
        self.execute_cached(&format!("SAVEPOINT \"{name}\""), [])
            .map(|_| ())
    }

    /// Undoes everything since the savepoint `name` (which stays, to be released).
    pub fn rollback_to(&self, name: &str) -> rusqlite::Result<()> {
        self.execute_cached(&format!("ROLLBACK TO \"{name}\""), [])
            .map(|_| ())
    }

    /// Forgets the savepoint `name`, keeping what was done since.
    pub fn release(&self, name: &str) -> rusqlite::Result<()> {
        self.execute_cached(&format!("RELEASE \"{name}\""), [])
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Judge processes started together on a database not made yet (two letters piped by the
    /// mail system at once) all open it: one brings the schema up, the others wait for it
    /// and find it done.
    #[test]
    fn processes_opening_a_new_database_together_all_open_it() {
        let folder = std::env::temp_dir().join(format!(
            "strategos-open-together-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        for round in 0..8 {
            let path = folder.join(format!("judge{round}.db"));
            let start = std::sync::Barrier::new(4);
            let opened: Vec<Result<i64, String>> = std::thread::scope(|scope| {
                let openers: Vec<_> = (0..4)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            let store = Store::open(&path).map_err(|e| e.to_string())?;
                            store
                                .conn
                                .pragma_query_value(None, "user_version", |r| r.get(0))
                                .map_err(|e| e.to_string())
                        })
                    })
                    .collect();
                openers.into_iter().map(|o| o.join().unwrap()).collect()
            });
            for version in opened {
                assert_eq!(version, Ok(MIGRATIONS.len() as i64), "round {round}");
            }
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }

    /// Every query of the store, as its source writes it, is planned by SQLite without
    /// reading a whole table of what grows with the judge's history (messages, members,
    /// games, reports, orders, requests, password failures, the outbox): a letter's cost must
    /// not grow with the number of letters, games and players before it.
    #[test]
    fn no_query_reads_a_whole_table_that_grows() {
        let store = Store::in_memory().unwrap();
        let sources = [
            include_str!("mail.rs"),
            include_str!("games.rs"),
            include_str!("trust.rs"),
            include_str!("identities.rs"),
            include_str!("addresses.rs"),
            include_str!("diary.rs"),
        ];
        let growing = [
            "messages",
            "members",
            "games",
            "reports",
            "orders",
            "undone_orders",
            "future_orders",
            "requests",
            "password_failures",
            "outbox",
            "outbox_parts",
            "players",
            "addresses",
        ];
        let mut checked = 0;
        let mut whole_reads = Vec::new();
        for source in sources {
            for piece in source.split('"').skip(1).step_by(2) {
                let sql = piece.split_whitespace().collect::<Vec<_>>().join(" ");
                if !["SELECT ", "UPDATE ", "DELETE "]
                    .iter()
                    .any(|k| sql.starts_with(k))
                {
                    continue;
                }
                // Placeholders as NULL: the plan does not depend on the values.
                let mut plain = sql.clone();
                for n in (1..=9).rev() {
                    plain = plain.replace(&format!("?{n}"), "NULL");
                }
                let explain = format!("EXPLAIN QUERY PLAN {plain}");
                let Ok(mut statement) = store.conn.prepare(&explain) else {
                    continue;
                };
                let plan: Vec<String> = statement
                    .query_map([], |r| r.get::<_, String>(3))
                    .unwrap()
                    .map(Result::unwrap)
                    .collect();
                checked += 1;
                for step in plan {
                    let scanned = step.strip_prefix("SCAN ").map(|t| t.split(' ').next());
                    if let Some(Some(table)) = scanned
                        && growing.contains(&table)
                        && !step.contains(" USING ")
                    {
                        whole_reads.push(format!("{sql}: {step}"));
                    }
                }
            }
        }
        assert!(checked > 50, "only {checked} queries found");
        assert!(whole_reads.is_empty(), "{whole_reads:#?}");
    }
}
