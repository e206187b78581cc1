//! What the judge may say about who a player is: the registered name, the address, and
//! whether the player lets other players see the address (`SET SHOW ADDRESS`), with the
//! key its confirmation codes are made with.

use rusqlite::{OptionalExtension, params};

use super::Tx;

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
        self.query_row_cached(
            "SELECT id, email, name, show_address FROM players WHERE id = ?1",
            [player_id],
            identity_row,
        )
        .optional()
    }

    /// The identity of the player whose chosen address this is, if there is one (a further
    /// address is the account's own business: `Tx::account_of` finds it).
    pub fn identity_by_email(&self, email: &str) -> rusqlite::Result<Option<IdentityRow>> {
        self.query_row_cached(
            "SELECT id, email, name, show_address FROM players WHERE email = ?1",
            [email.to_lowercase()],
            identity_row,
        )
        .optional()
    }

    /// Players whose address starts with `prefix` and who show it (or are `viewer`
    /// themselves), or whose registered name is `prefix` (any case) and who are in a game
    /// (the judge then tells only what the reader may see), at most `most` of them: those who
    /// share a game with `viewer` first, then by address (WHOIS by prefix, as njudge's WHO
    /// IS). Accounts registered under a player's name, however many, cannot crowd that
    /// player out of a fellow player's answer.
    pub fn identities_matching(
        &self,
        prefix: &str,
        viewer: &str,
        most: usize,
    ) -> rusqlite::Result<Vec<IdentityRow>> {
        let prefix = prefix.to_lowercase();
        // Addresses are kept in lower case: those starting with `prefix` are the range from
        // it to it followed by the last character there is.
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, email, name, show_address FROM (
                 SELECT id, email, name, show_address FROM players
                 WHERE email >= ?1 AND email < ?1 || char(1114111)
                   AND (show_address = 1 OR id = (
                       SELECT id FROM players WHERE email = ?4
                       UNION ALL SELECT player_id FROM addresses WHERE address = ?4
                       LIMIT 1))
                 UNION
                 SELECT id, email, name, show_address FROM players
                 WHERE lower(name) = ?2
                   AND EXISTS (SELECT 1 FROM members m WHERE m.player_id = players.id)
             ) AS found
             ORDER BY EXISTS (
                 SELECT 1 FROM members mine
                 JOIN members theirs ON theirs.game_id = mine.game_id
                 WHERE mine.player_id = (
                       SELECT id FROM players WHERE email = ?4
                       UNION ALL SELECT player_id FROM addresses WHERE address = ?4
                       LIMIT 1)
                   AND theirs.player_id = found.id
             ) DESC, email
             LIMIT ?3",
        )?;
        let rows = stmt.query_map(
            params![prefix, prefix, most as i64, viewer.to_lowercase()],
            identity_row,
        )?;
        rows.collect()
    }

    /// Records whether a player shows their address to other players.
    pub fn set_show_address(&self, player_id: i64, show: bool) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE players SET show_address = ?2 WHERE id = ?1",
            params![player_id, show],
        )?;
        Ok(())
    }

    /// The key the codes of `SET SHOW ADDRESS` are made with, once drawn.
    pub fn address_key(&self) -> rusqlite::Result<Option<Vec<u8>>> {
        self.query_row_cached(
            "SELECT value FROM secrets WHERE name = 'show-address'",
            [],
            |r| r.get(0),
        )
        .optional()
    }

    /// Keeps the key of `SET SHOW ADDRESS` codes (drawn on first use).
    pub fn set_address_key(&self, key: &[u8]) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO secrets (name, value) VALUES ('show-address', ?1)",
            [key],
        )?;
        Ok(())
    }
}
