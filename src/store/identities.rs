//! What the judge may say about who a player is: the registered name, the address, and
//! whether the player lets other players see the address (`SET SHOW ADDRESS`); and since
//! when a member holds a seat, which tells a seat held before a letter from one it gave.

use rusqlite::{OptionalExtension, params};

use super::{Tx, time_text};

/// A player as others may be told of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityRow {
    pub player_id: i64,
    pub email: String,
    pub name: Option<String>,
    /// The player lets other players see the address (masters always can).
    pub show_address: bool,
}

fn identity_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<IdentityRow> {
    Ok(IdentityRow {
        player_id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        show_address: r.get(3)?,
    })
}

impl Tx<'_> {
    /// The identity of the player with this id, if there is one.
    pub fn identity(&self, player_id: i64) -> rusqlite::Result<Option<IdentityRow>> {
        self.tx
            .query_row(
                "SELECT id, email, name, show_address FROM players WHERE id = ?1",
                [player_id],
                identity_row,
            )
            .optional()
    }

    /// The identity of the player registered at this address, if there is one.
    pub fn identity_by_email(&self, email: &str) -> rusqlite::Result<Option<IdentityRow>> {
        self.tx
            .query_row(
                "SELECT id, email, name, show_address FROM players WHERE email = ?1",
                [email.to_lowercase()],
                identity_row,
            )
            .optional()
    }

    /// Records whether a player shows their address to other players.
    pub fn set_show_address(&self, player_id: i64, show: bool) -> rusqlite::Result<()> {
        self.tx.execute(
            "UPDATE players SET show_address = ?2 WHERE id = ?1",
            params![player_id, show],
        )?;
        Ok(())
    }

    /// Whether the player has been a member of the game since before `now` (a seat taken at
    /// `now`, by the letter being read, is not).
    pub fn member_before(
        &self,
        game_id: i64,
        player_id: i64,
        now: chrono::DateTime<chrono::Utc>,
    ) -> rusqlite::Result<bool> {
        let joined: Option<String> = self
            .tx
            .query_row(
                "SELECT joined_at FROM members WHERE game_id = ?1 AND player_id = ?2",
                params![game_id, player_id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(joined.is_some_and(|at| at < time_text(now)))
    }
}
