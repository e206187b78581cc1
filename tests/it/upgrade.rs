//! Upgrades: a database an older judge left (made here from the migrations it had) is
//! brought up only by `strategos run` or `strategos migrate`, each first writing a checked
//! copy of it beside it; every other command refuses it, naming what to do; every command
//! refuses a database of a newer schema, naming the version that made it.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use rusqlite::Connection;
use strategos::store::{SCHEMA, Store};

use crate::judge_harness::TempDir;

/// A database as the judge of schema `schema` left it: the first `schema` migrations of
/// `src/store/`, applied as that judge applied them, with a player in it.
pub fn database_of_schema(path: &Path, schema: i64) {
    let conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    for n in 1..=schema {
        let file = if n == 1 {
            "schema.sql".to_string()
        } else {
            format!("schema{n}.sql")
        };
        let sql = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src/store")
                .join(file),
        )
        .unwrap();
        conn.execute_batch(&sql).unwrap();
    }
    conn.pragma_update(None, "user_version", schema).unwrap();
    conn.execute(
        "INSERT INTO players (email, name, password_hash, registered_at)
         VALUES ('old@example.test', 'Old Timer', 'x', '2026-01-01T00:00:00Z')",
        [],
    )
    .unwrap();
}

/// Marks the database as made by a later judge, of schema `SCHEMA + 1`.
pub fn make_newer(path: &Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_history (schema INTEGER PRIMARY KEY, made_by TEXT NOT NULL)",
    )
    .unwrap();
    conn.execute(
        "INSERT OR REPLACE INTO schema_history (schema, made_by) VALUES (?1, ?2)",
        rusqlite::params![
            SCHEMA + 1,
            format!("strategos 9.9.9 (database schema {})", SCHEMA + 1)
        ],
    )
    .unwrap();
    conn.pragma_update(None, "user_version", SCHEMA + 1)
        .unwrap();
}

/// `chmod 600` the database.
pub fn make_private(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

fn version_of(path: &Path) -> i64 {
    Connection::open(path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

fn strategos(config: &Path, args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_strategos"))
        .arg("--config")
        .arg(config)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("STRATEGOS_SYSLOG_SOCKET", config.with_file_name("syslog"))
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Files beside the database whose name says they are copies from before a migration.
fn copies(folder: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".backup"))
        .collect();
    found.sort();
    found
}

const LETTER: &str = "From: old@example.test\r\nSubject: hello\r\nMessage-ID: <upgrade-1@example.test>\r\n\r\nHELP\r\n";

#[test]
fn an_older_database_is_migrated_only_by_run_or_migrate_with_a_copy_beside_it() {
    let dir = TempDir::new("upgrade-older");
    let db = dir.0.join("judge.db");
    let config = dir.0.join("config.toml");
    std::fs::write(
        &config,
        "[paths]\ndatabase = \"judge.db\"\n[inbox]\nmaildir = \"inbox\"\n[outbox]\nmaildir = \"sent\"\n",
    )
    .unwrap();
    let older = SCHEMA - 1;
    database_of_schema(&db, older);
    // An older judge left its database readable by every user (it set no umask): refused
    // until the keeper makes it private, as the upgrade steps say.
    let out = strategos(&config, &["run", "--once"], "");
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("chmod 600"), "{}", said(&out));
    make_private(&db);

    // Every command but run and migrate refuses it, and leaves it as it is.
    for args in [
        &["game", "list"][..],
        &["backup", dir.0.join("copy.db").to_str().unwrap()],
        &["archive", "--out", dir.0.join("site").to_str().unwrap()],
    ] {
        let out = strategos(&config, args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", said(&out));
        assert!(
            said(&out).contains("strategos migrate"),
            "{args:?}: {}",
            said(&out)
        );
    }
    let out = strategos(&config, &["deliver"], LETTER);
    assert_eq!(
        out.status.code(),
        Some(75),
        "deliver asks to be tried again"
    );
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert_eq!(version_of(&db), older);
    assert!(copies(&dir.0).is_empty(), "{:?}", copies(&dir.0));
    assert!(!dir.0.join("copy.db").exists());

    // `strategos migrate`: a checked copy beside it first, then the schema brought up.
    let out = strategos(&config, &["migrate"], "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let copy = format!("judge.db.schema-{older}.backup");
    assert_eq!(copies(&dir.0), std::slice::from_ref(&copy));
    assert!(said(&out).contains(&copy), "{}", said(&out));
    assert_eq!(version_of(&db), SCHEMA);
    assert_eq!(
        version_of(&dir.0.join(&copy)),
        older,
        "the copy is as it was"
    );
    let kept: String = Connection::open(dir.0.join(&copy))
        .unwrap()
        .query_row("SELECT name FROM players", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, "Old Timer");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.0.join(&copy))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o077, 0, "the copy is the judge's alone: {mode:o}");
    let out = strategos(&config, &["migrate"], "");
    assert!(said(&out).contains("nothing to migrate"), "{}", said(&out));
    assert_eq!(copies(&dir.0).len(), 1, "no copy when nothing is migrated");

    // Now every command takes it, and the player is still there.
    let out = strategos(&config, &["deliver"], LETTER);
    assert_eq!(out.status.code(), Some(0));
    let kept: String = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT name FROM players WHERE email = 'old@example.test'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, "Old Timer");

    // `strategos run` migrates too, with its own copy.
    let second = dir.0.join("second.db");
    database_of_schema(&second, older);
    make_private(&second);
    std::fs::write(
        &config,
        "[paths]\ndatabase = \"second.db\"\n[inbox]\nmaildir = \"inbox\"\n[outbox]\nmaildir = \"sent\"\n",
    )
    .unwrap();
    let out = strategos(&config, &["run", "--once"], "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        said(&out).contains("migrated from schema"),
        "{}",
        said(&out)
    );
    assert_eq!(version_of(&second), SCHEMA);
    assert!(
        copies(&dir.0).contains(&format!("second.db.schema-{older}.backup")),
        "{:?}",
        copies(&dir.0)
    );
}

#[test]
fn a_newer_database_is_refused_by_every_command_naming_the_version_to_use() {
    let dir = TempDir::new("upgrade-newer");
    let db = dir.0.join("judge.db");
    let config = dir.0.join("config.toml");
    std::fs::write(
        &config,
        "[paths]\ndatabase = \"judge.db\"\n[inbox]\nmaildir = \"inbox\"\n[outbox]\nmaildir = \"sent\"\n",
    )
    .unwrap();
    drop(Store::open(&db).unwrap());
    make_newer(&db);
    for args in [
        &["game", "list"][..],
        &["migrate"],
        &["run", "--once"],
        &["backup", dir.0.join("copy.db").to_str().unwrap()],
    ] {
        let out = strategos(&config, args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", said(&out));
        assert!(
            said(&out).contains("strategos 9.9.9"),
            "{args:?}: {}",
            said(&out)
        );
    }
    let syslog = strategos::syslog::Listener::bind(&dir.0.join("syslog")).unwrap();
    let out = strategos(&config, &["deliver"], LETTER);
    assert_eq!(out.status.code(), Some(75));
    let log = syslog.lines().join("\n");
    assert!(log.contains("strategos 9.9.9"), "{log}");
    assert_eq!(version_of(&db), SCHEMA + 1, "left as it was");
    assert!(copies(&dir.0).is_empty());
    // The version says the schema it writes.
    let out = strategos(&config, &["--version"], "");
    assert!(
        said(&out).contains(&format!("database schema {SCHEMA}")),
        "{}",
        said(&out)
    );
}
