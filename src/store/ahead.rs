//! Results pictures painted ahead of their deadline (migration 11): the games whose orders
//! changed since their pictures were painted, and the pictures kept, one a game and language,
//! with the digest of all they show.

use rusqlite::{OptionalExtension, params};

use super::Tx;
use crate::lang::Lang;

impl Tx<'_> {
    /// Up to `most` games whose orders changed since their pictures were painted ahead, the
    /// soonest deadline first (games without one last).
    pub fn pictures_wanted(&self, most: usize) -> rusqlite::Result<Vec<i64>> {
        let mut statement = self.tx.prepare_cached(
            "SELECT w.game_id FROM pictures_wanted w JOIN games g ON g.id = w.game_id
             ORDER BY g.deadline_at IS NULL, g.deadline_at, w.game_id LIMIT ?1",
        )?;
        let ids = statement.query_map([most as i64], |r| r.get(0))?;
        ids.collect()
    }

    /// The game's pictures are painted (or need none) as its orders stand.
    pub fn picture_painted(&self, game_id: i64) -> rusqlite::Result<()> {
        self.execute_cached("DELETE FROM pictures_wanted WHERE game_id = ?1", [game_id])?;
        Ok(())
    }

    /// The digest of the picture kept for a game in `language`, if any.
    pub fn picture_ahead_key(
        &self,
        game_id: i64,
        language: Lang,
    ) -> rusqlite::Result<Option<Vec<u8>>> {
        self.query_row_cached(
            "SELECT key FROM pictures_ahead WHERE game_id = ?1 AND language = ?2",
            params![game_id, language.code()],
            |r| r.get(0),
        )
        .optional()
    }

    /// The picture kept for a game in `language`, if it shows what `key` digests.
    pub fn picture_ahead(
        &self,
        game_id: i64,
        language: Lang,
        key: &[u8],
    ) -> rusqlite::Result<Option<Vec<u8>>> {
        self.query_row_cached(
            "SELECT png FROM pictures_ahead WHERE game_id = ?1 AND language = ?2 AND key = ?3",
            params![game_id, language.code(), key],
            |r| r.get(0),
        )
        .optional()
    }

    /// Keeps a picture painted ahead, in place of the game's earlier one in that language.
    pub fn keep_picture_ahead(
        &self,
        game_id: i64,
        language: Lang,
        key: &[u8],
        png: &[u8],
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO pictures_ahead (game_id, language, key, png) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (game_id, language) DO UPDATE SET key = ?3, png = ?4",
            params![game_id, language.code(), key, png],
        )?;
        Ok(())
    }

    /// Forgets the pictures painted ahead for games no longer running (ended between
    /// deadlines, by a vote or a master), and their wants.
    pub fn forget_pictures_of_stopped_games(&self) -> rusqlite::Result<()> {
        self.execute_cached(
            "DELETE FROM pictures_ahead WHERE game_id IN
             (SELECT p.game_id FROM pictures_ahead p JOIN games g ON g.id = p.game_id
              WHERE g.state != 'active')",
            [],
        )?;
        self.execute_cached(
            "DELETE FROM pictures_wanted WHERE game_id IN
             (SELECT w.game_id FROM pictures_wanted w JOIN games g ON g.id = w.game_id
              WHERE g.state != 'active')",
            [],
        )?;
        Ok(())
    }

    /// Forgets a game's pictures painted ahead (its phase is played: they showed it or were
    /// wrong).
    pub fn forget_pictures_ahead(&self, game_id: i64) -> rusqlite::Result<()> {
        self.execute_cached("DELETE FROM pictures_ahead WHERE game_id = ?1", [game_id])?;
        Ok(())
    }
}
