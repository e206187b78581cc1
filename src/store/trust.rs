//! What proves who someone is, in the database: addresses that confirmed they want the
//! judge's letters, requests waiting for their token, wrong passwords and the seats they
//! lock, and the judge's own secret key.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{Tx, parse_time, time_text};

/// A request waiting for its token to come back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestRow {
    pub id: i64,
    pub token: String,
    /// Where the token was mailed; it must come back from there.
    pub address: String,
    /// `commands`, `address` or `held`.
    pub kind: String,
    /// What to do, as JSON.
    pub payload: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// `pending`, `done` or `expired`.
    pub state: String,
    pub game_id: Option<i64>,
    pub message: Option<i64>,
}

const REQUEST_COLUMNS: &str =
    "id, token, address, kind, payload, created_at, expires_at, state, game_id, message";

fn request_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RequestRow> {
    let created: String = r.get(5)?;
    let expires: String = r.get(6)?;
    Ok(RequestRow {
        id: r.get(0)?,
        token: r.get(1)?,
        address: r.get(2)?,
        kind: r.get(3)?,
        payload: r.get(4)?,
        created_at: parse_time(&created).unwrap_or_default(),
        expires_at: parse_time(&expires).unwrap_or_default(),
        state: r.get(7)?,
        game_id: r.get(8)?,
        message: r.get(9)?,
    })
}

/// A wrong password, as counted for a seat or an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureRow {
    pub sender: String,
    pub at: DateTime<Utc>,
}

impl Tx<'_> {
    /// Whether `email` has proven it wants the judge's letters (an account's further address
    /// has: it was added by its token).
    pub fn is_confirmed(&self, email: &str) -> rusqlite::Result<bool> {
        let at: Option<Option<String>> = self
            .query_row_cached(
                "SELECT confirmed_at FROM players WHERE email = ?1
                 UNION ALL SELECT added_at FROM addresses WHERE address = ?1
                 LIMIT 1",
                [email.to_lowercase()],
                |r| r.get(0),
            )
            .optional()?;
        Ok(at.flatten().is_some())
    }

    /// Records that `email` proved it wants the judge's letters (a player row is made if
    /// no account has the address).
    pub fn confirm_address(&self, email: &str, now: DateTime<Utc>) -> rusqlite::Result<()> {
        self.register_player(email, None, None, now)?;
        self.execute_cached(
            "UPDATE players SET confirmed_at = COALESCE(confirmed_at, ?2) WHERE email = ?1",
            params![email.to_lowercase(), time_text(now)],
        )?;
        Ok(())
    }

    /// Sets an account's password hash (and name, when given).
    pub fn set_account(
        &self,
        player_id: i64,
        name: Option<&str>,
        password_hash: Option<&str>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE players SET name = COALESCE(?2, name), password_hash = COALESCE(?3, password_hash) WHERE id = ?1",
            params![player_id, name, password_hash],
        )?;
        Ok(())
    }

    /// Stores a new request; its token is made from its id by `token_of`, so the row is
    /// written first and the token filled in.
    #[allow(clippy::too_many_arguments)]
    pub fn add_request(
        &self,
        address: &str,
        kind: &str,
        payload: &str,
        game_id: Option<i64>,
        message: Option<i64>,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
        token_of: impl FnOnce(i64) -> String,
    ) -> rusqlite::Result<RequestRow> {
        self.execute_cached(
            "INSERT INTO requests (token, address, kind, payload, created_at, expires_at, game_id, message)
             VALUES ('', ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                address.to_lowercase(),
                kind,
                payload,
                time_text(now),
                time_text(expires_at),
                game_id,
                message
            ],
        )?;
        let id = self.tx.last_insert_rowid();
        let token = token_of(id);
        self.execute_cached(
            "UPDATE requests SET token = ?2 WHERE id = ?1",
            params![id, token],
        )?;
        self.request(id)
    }

    /// Marks request `id` as a move of `account` (`moves_asked`).
    pub fn set_request_account(&self, id: i64, account: i64) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE requests SET account = ?2 WHERE id = ?1",
            params![id, account],
        )?;
        Ok(())
    }

    /// How many moves of `account` to another address were asked since `since`.
    pub fn moves_asked(&self, account: i64, since: DateTime<Utc>) -> rusqlite::Result<usize> {
        self.query_row_cached(
            "SELECT COUNT(*) FROM requests WHERE account = ?1 AND kind = 'address' AND created_at >= ?2",
            params![account, time_text(since)],
            |r| r.get::<_, i64>(0).map(|n| n as usize),
        )
    }

    /// How many requests of `kind` were mailed to `address` since `since`.
    pub fn requests_mailed(
        &self,
        address: &str,
        kind: &str,
        since: DateTime<Utc>,
    ) -> rusqlite::Result<usize> {
        self.query_row_cached(
            "SELECT COUNT(*) FROM requests WHERE address = ?1 AND kind = ?2 AND created_at >= ?3",
            params![address.to_lowercase(), kind, time_text(since)],
            |r| r.get::<_, i64>(0).map(|n| n as usize),
        )
    }

    pub fn request(&self, id: i64) -> rusqlite::Result<RequestRow> {
        self.query_row_cached(
            &format!("SELECT {REQUEST_COLUMNS} FROM requests WHERE id = ?1"),
            [id],
            request_row,
        )
    }

    /// The request with this token, whatever its state.
    pub fn request_by_token(&self, token: &str) -> rusqlite::Result<Option<RequestRow>> {
        self.query_row_cached(
            &format!("SELECT {REQUEST_COLUMNS} FROM requests WHERE token = ?1"),
            [token.to_lowercase()],
            request_row,
        )
        .optional()
    }

    /// Forgets what a settled request held (a held letter's body holds passwords).
    pub fn clear_request_payload(&self, id: i64) -> rusqlite::Result<()> {
        self.execute_cached("UPDATE requests SET payload = '[]' WHERE id = ?1", [id])?;
        Ok(())
    }

    /// How many requests of `kind` wait for a token from `address` at `now`.
    pub fn pending_requests(
        &self,
        address: &str,
        kind: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<usize> {
        self.query_row_cached(
            "SELECT COUNT(*) FROM requests WHERE address = ?1 AND kind = ?2 AND state = 'pending' AND expires_at > ?3",
            params![address.to_lowercase(), kind, time_text(now)],
            |r| r.get::<_, i64>(0).map(|n| n as usize),
        )
    }

    /// Requests past their time are expired and forget what they held (a held letter's body).
    pub fn expire_requests(&self, now: DateTime<Utc>) -> rusqlite::Result<usize> {
        self.execute_cached(
            "UPDATE requests SET state = 'expired', payload = '[]' WHERE state = 'pending' AND expires_at <= ?1",
            [time_text(now)],
        )
    }

    pub fn settle_request(&self, id: i64, state: &str) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE requests SET state = ?2 WHERE id = ?1",
            params![id, state],
        )?;
        Ok(())
    }

    /// Letters held for a locked seat of `game` still waiting for their token at `now`,
    /// made no earlier than `since`.
    pub fn held_for_game(
        &self,
        game_id: i64,
        since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<RequestRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {REQUEST_COLUMNS} FROM requests WHERE game_id = ?1 AND kind = 'held'
             AND state = 'pending' AND created_at >= ?2 AND expires_at > ?3 ORDER BY id"
        ))?;
        let rows = stmt.query_map(
            params![game_id, time_text(since), time_text(now)],
            request_row,
        )?;
        rows.collect()
    }

    /// Counts a wrong password for `seat` (owned by `account`, if anyone owns it).
    pub fn add_password_failure(
        &self,
        seat: &str,
        account: Option<i64>,
        sender: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO password_failures (seat, account, sender, at) VALUES (?1, ?2, ?3, ?4)",
            params![seat, account, sender.to_lowercase(), time_text(now)],
        )?;
        Ok(())
    }

    /// The wrong passwords for `seat` since `since`, oldest first.
    pub fn seat_failures(
        &self,
        seat: &str,
        since: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<FailureRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT sender, at FROM password_failures WHERE seat = ?1 AND at >= ?2 ORDER BY rowid",
        )?;
        let rows = stmt.query_map(params![seat, time_text(since)], failure_row)?;
        rows.collect()
    }

    /// The wrong passwords for any seat of `account` since `since`, oldest first.
    pub fn account_failures(
        &self,
        account: i64,
        since: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<FailureRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT sender, at FROM password_failures WHERE account = ?1 AND at >= ?2 ORDER BY rowid",
        )?;
        let rows = stmt.query_map(params![account, time_text(since)], failure_row)?;
        rows.collect()
    }

    /// Forgets wrong passwords older than `before`.
    pub fn forget_failures(&self, before: DateTime<Utc>) -> rusqlite::Result<()> {
        self.execute_cached(
            "DELETE FROM password_failures WHERE at < ?1",
            [time_text(before)],
        )?;
        Ok(())
    }

    /// Until when `seat` is locked, if it is locked at `now`.
    pub fn locked_until(
        &self,
        seat: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Option<DateTime<Utc>>> {
        let until: Option<String> = self
            .query_row_cached(
                "SELECT until FROM locks WHERE seat = ?1 AND until > ?2",
                params![seat, time_text(now)],
                |r| r.get(0),
            )
            .optional()?;
        Ok(until.as_deref().and_then(parse_time))
    }

    pub fn lock(&self, seat: &str, until: DateTime<Utc>, failures: usize) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO locks (seat, until, failures) VALUES (?1, ?2, ?3)
             ON CONFLICT (seat) DO UPDATE SET until = ?2, failures = ?3",
            params![seat, time_text(until), failures as i64],
        )?;
        Ok(())
    }

    /// A secret of the judge's by name, drawn by `draw` and kept the first time it is asked.
    pub fn secret(&self, name: &str, draw: impl FnOnce() -> Vec<u8>) -> rusqlite::Result<Vec<u8>> {
        if let Some(value) = self
            .query_row_cached("SELECT value FROM secrets WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()?
        {
            return Ok(value);
        }
        let value = draw();
        self.execute_cached(
            "INSERT INTO secrets (name, value) VALUES (?1, ?2)",
            params![name, value],
        )?;
        Ok(value)
    }
}

fn failure_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<FailureRow> {
    let at: String = r.get(1)?;
    Ok(FailureRow {
        sender: r.get(0)?,
        at: parse_time(&at).unwrap_or_default(),
    })
}
