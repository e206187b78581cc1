//! Players' diaries (DIARY): numbered entries per player and game, published when it ends.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::{Tx, time_text};

/// One diary entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiaryEntry {
    pub player_id: i64,
    /// The power the entry was written for, if any.
    pub power: Option<String>,
    pub number: u32,
    pub body: String,
    pub created_at: String,
}

impl Tx<'_> {
    /// Keeps an entry; its number is one past the player's highest in the game.
    pub fn add_diary_entry(
        &self,
        game_id: i64,
        player_id: i64,
        power: Option<&str>,
        body: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<u32> {
        let number: u32 = self.query_row_cached(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM diary WHERE game_id = ?1 AND player_id = ?2",
            params![game_id, player_id],
            |r| r.get(0),
        )?;
        self.execute_cached(
            "INSERT INTO diary (game_id, player_id, power, number, body, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![game_id, player_id, power, number, body, time_text(now)],
        )?;
        Ok(number)
    }

    /// A player's entries in a game (every player's when `player_id` is `None`), in order.
    pub fn diary(&self, game_id: i64, player_id: Option<i64>) -> rusqlite::Result<Vec<DiaryEntry>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT player_id, power, number, body, created_at FROM diary
             WHERE game_id = ?1 AND (?2 IS NULL OR player_id = ?2) ORDER BY created_at, player_id, number",
        )?;
        let rows = stmt.query_map(params![game_id, player_id], |r| {
            Ok(DiaryEntry {
                player_id: r.get(0)?,
                power: r.get(1)?,
                number: r.get(2)?,
                body: r.get(3)?,
                created_at: r.get(4)?,
            })
        })?;
        rows.collect()
    }

    /// Deletes a player's entry; whether there was one.
    pub fn delete_diary_entry(
        &self,
        game_id: i64,
        player_id: i64,
        number: u32,
    ) -> rusqlite::Result<bool> {
        let n = self.execute_cached(
            "DELETE FROM diary WHERE game_id = ?1 AND player_id = ?2 AND number = ?3",
            params![game_id, player_id, number],
        )?;
        Ok(n > 0)
    }
}
