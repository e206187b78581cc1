//! The database's schema across versions of the judge. `PRAGMA user_version` counts the
//! migrations applied; a new database is made at the latest schema in one transaction, but an
//! existing one of an older schema is brought up only when asked (`strategos run`, `strategos
//! migrate`: `Upgrade::Migrate`), after a copy of it is written beside it and checked; every
//! other command refuses it (`Upgrade::Refuse`). A database of a newer schema than this judge
//! knows is refused by every command, naming the version that brought it there: each
//! migration records, in `schema_history` (kept outside the numbered migrations, so that
//! any version can read it), the judge that applied it.

use std::fmt;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::MIGRATIONS;

/// The schema this judge writes: the number of its migrations.
pub const SCHEMA: i64 = MIGRATIONS.len() as i64;

/// How this judge names itself in `schema_history` and in its messages.
pub fn judge_version() -> String {
    format!(
        "strategos {} (database schema {SCHEMA})",
        env!("CARGO_PKG_VERSION")
    )
}

/// What opening a database may do to an older schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upgrade {
    /// Refuse it: only `run` and `migrate` change a schema.
    Refuse,
    /// Copy it beside itself, check the copy, then bring it up to date.
    Migrate,
}

/// A database brought up to date by `Upgrade::Migrate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Migrated {
    pub from: i64,
    pub to: i64,
    /// The checked copy of the database as it was, beside it.
    pub backup: PathBuf,
}

/// Why a database could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// SQLite could not open or read it (busy, locked, unreadable, full...).
    Sqlite(rusqlite::Error),
    /// Its schema is older than this judge's and it was not asked to migrate it.
    Behind { found: i64 },
    /// Its schema is newer than this judge knows; `made_by` is the judge that last brought
    /// it up, when it says.
    Ahead { found: i64, made_by: Option<String> },
    /// The copy before migrating could not be written or did not check out.
    Backup(String),
    /// The file could not be made.
    File(String),
}

impl From<rusqlite::Error> for OpenError {
    fn from(e: rusqlite::Error) -> OpenError {
        OpenError::Sqlite(e)
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Sqlite(e) => write!(f, "{e}"),
            OpenError::Behind { found } => write!(
                f,
                "its schema ({found}) is older than this judge's ({SCHEMA}), so it needs \
                 migrating: stop the judge, then run `strategos migrate` (which first copies \
                 the database beside itself), or start `strategos run`, which does the same"
            ),
            OpenError::Ahead { found, made_by } => {
                write!(
                    f,
                    "its schema ({found}) is newer than this judge knows ({SCHEMA}): it was \
                     made by a later version of the judge"
                )?;
                match made_by {
                    Some(by) => write!(f, ", {by}; run that version or a later one")?,
                    None => write!(
                        f,
                        "; run a version whose `strategos --version` says database schema \
                         {found} or more"
                    )?,
                }
                write!(
                    f,
                    " (or restore the copy made before the upgrade, the *.schema-{SCHEMA}.backup \
                     file beside it)"
                )
            }
            OpenError::Backup(why) => write!(f, "no migration without a copy: {why}"),
            OpenError::File(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for OpenError {}

impl OpenError {
    /// SQLite's error, when that is why.
    pub fn sqlite(&self) -> Option<&rusqlite::Error> {
        match self {
            OpenError::Sqlite(e) => Some(e),
            _ => None,
        }
    }
}

/// The schema of an open database: its version, and whether it is a new, empty file.
fn schema_of(conn: &Connection) -> rusqlite::Result<(i64, bool)> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    Ok((version, version == 0 && tables == 0))
}

/// Who brought the database to `version`, if it says.
fn made_by(conn: &Connection, version: i64) -> Option<String> {
    conn.query_row(
        "SELECT made_by FROM schema_history WHERE schema <= ?1 ORDER BY schema DESC LIMIT 1",
        [version],
        |r| r.get(0),
    )
    .ok()
}

/// Brings `conn` to this judge's schema as `upgrade` allows (see the module's text); `path`
/// is the database's file, beside which the copy is written (`None`: in memory, no copy).
pub(super) fn bring_up(
    conn: &mut Connection,
    path: Option<&Path>,
    upgrade: Upgrade,
) -> Result<Option<Migrated>, OpenError> {
    let (found, new) = schema_of(conn)?;
    if found > SCHEMA {
        return Err(OpenError::Ahead {
            found,
            made_by: made_by(conn, found),
        });
    }
    if found == SCHEMA {
        return Ok(None);
    }
    if !new && upgrade == Upgrade::Refuse {
        return Err(OpenError::Behind { found });
    }
    let backup = match (new, path) {
        (false, Some(path)) => Some(copy_before_migrating(conn, path, found)?),
        _ => None,
    };
    // Every step in one transaction that holds the write lock from its start: the schema is
    // never seen half brought up, and a process that waited for another's migration finds it
    // done (or, a new database made meanwhile, made).
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let (now, still_new) = schema_of(&tx)?;
    if now > SCHEMA {
        return Err(OpenError::Ahead {
            found: now,
            made_by: made_by(&tx, now),
        });
    }
    if now < SCHEMA && !still_new && upgrade == Upgrade::Refuse {
        return Err(OpenError::Behind { found: now });
    }
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_history (
             schema INTEGER PRIMARY KEY,
             made_by TEXT NOT NULL
         )",
    )?;
    for (i, migration) in MIGRATIONS.iter().enumerate().skip(now.max(0) as usize) {
        tx.execute_batch(migration)?;
        tx.execute(
            "INSERT OR REPLACE INTO schema_history (schema, made_by) VALUES (?1, ?2)",
            rusqlite::params![i as i64 + 1, judge_version()],
        )?;
    }
    tx.pragma_update(None, "user_version", SCHEMA)?;
    tx.commit()?;
    Ok(backup.map(|backup| Migrated {
        from: found,
        to: SCHEMA,
        backup,
    }))
}

/// Copies the database beside itself before it is migrated, as `<file>.schema-<n>.backup`
/// (`.2`, `.3`... added when that is taken), and checks the copy.
fn copy_before_migrating(conn: &Connection, path: &Path, found: i64) -> Result<PathBuf, OpenError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "strategos.db".into());
    let mut backup = path.with_file_name(format!("{name}.schema-{found}.backup"));
    let mut n = 1;
    while crate::files::taken(&backup) {
        n += 1;
        backup = path.with_file_name(format!("{name}.schema-{found}.backup.{n}"));
    }
    copy_checked(conn, &backup, found).map_err(OpenError::Backup)?;
    Ok(backup)
}

/// Writes a consistent copy of the database `conn` holds to `path`, which must not exist
/// (not even as a link), and checks it: the copy is written into a new private file beside
/// `path` (SQLite's `VACUUM INTO` reads one snapshot while writers go on), found intact and of
/// schema `version`, and only then linked into place. On any failure nothing is left.
pub(super) fn copy_checked(conn: &Connection, path: &Path, version: i64) -> Result<(), String> {
    let shown = path.display();
    if crate::files::taken(path) {
        return Err(format!(
            "{shown} exists already; give a new file for the copy"
        ));
    }
    let temporary = crate::files::new_private_beside(path)
        .map_err(|e| format!("cannot write the copy {shown}: {e}"))?;
    let written = (|| {
        conn.execute("VACUUM INTO ?1", [temporary.to_string_lossy().as_ref()])
            .map_err(|e| format!("cannot write the copy {shown}: {e}"))?;
        let copy = Connection::open_with_flags(
            &temporary,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )
        .map_err(|e| format!("cannot read the copy {shown} back: {e}"))?;
        let intact: String = copy
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| format!("cannot check the copy {shown}: {e}"))?;
        let (copied, _) = schema_of(&copy).map_err(|e| format!("cannot read {shown}: {e}"))?;
        drop(copy);
        if intact != "ok" {
            return Err(format!("the copy {shown} is not intact: {intact}"));
        }
        if copied != version {
            return Err(format!(
                "the copy {shown} is of schema {copied}, not {version}"
            ));
        }
        crate::files::link_new(&temporary, path)
            .map_err(|e| format!("cannot put the copy in place as {shown}: {e}"))
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// The schema version of the open database.
pub(super) fn version(conn: &Connection) -> rusqlite::Result<i64> {
    schema_of(conn).map(|(version, _)| version)
}
