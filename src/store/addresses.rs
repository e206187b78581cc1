//! An account's addresses: the one it chose (`players.email`, where game letters go) and the
//! further ones added with `I AM ALSO` (table `addresses`, migration 10). A letter from any of
//! them finds the same account; one address is one account's.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{Tx, time_text};

/// What adding an address to an account came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    Added,
    /// The address was the account's already.
    Already,
    /// Another account has it (with a password, a name, a seat or a game of its own).
    Taken,
}

impl Tx<'_> {
    /// The account `address` belongs to, chosen or further, if any.
    pub fn account_of(&self, address: &str) -> rusqlite::Result<Option<i64>> {
        self.query_row_cached(
            "SELECT id FROM players WHERE email = ?1
             UNION ALL SELECT player_id FROM addresses WHERE address = ?1
             LIMIT 1",
            [address.to_lowercase()],
            |r| r.get(0),
        )
        .optional()
    }

    /// The further addresses of account `player_id` (not its chosen one), in the order they
    /// were added.
    pub fn further_addresses(&self, player_id: i64) -> rusqlite::Result<Vec<String>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT address FROM addresses WHERE player_id = ?1 ORDER BY added_at, address",
        )?;
        let rows = stmt.query_map([player_id], |r| r.get(0))?;
        rows.collect()
    }

    /// Every address of account `player_id`: the chosen one first.
    pub fn addresses_of(&self, player_id: i64) -> rusqlite::Result<Vec<String>> {
        let mut all = vec![self.player(player_id)?.email];
        all.extend(self.further_addresses(player_id)?);
        Ok(all)
    }

    /// Whether `address` is one of account `player_id`'s, chosen or further.
    pub fn is_address_of(&self, player_id: i64, address: &str) -> rusqlite::Result<bool> {
        Ok(self.account_of(address)? == Some(player_id))
    }

    /// Adds `address` to account `player_id`. An account made only by the address having
    /// confirmed once (no password, no name, no seat, no game, no diary) is no one's: it
    /// gives way, and the address joins the account.
    pub fn add_address(
        &self,
        player_id: i64,
        address: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Added> {
        let address = address.to_lowercase();
        match self.account_of(&address)? {
            Some(id) if id == player_id => return Ok(Added::Already),
            Some(id) if !self.bare_account(id)? => return Ok(Added::Taken),
            Some(id) => {
                self.execute_cached("DELETE FROM players WHERE id = ?1", [id])?;
            }
            None => {}
        }
        self.execute_cached(
            "INSERT INTO addresses (address, player_id, added_at) VALUES (?1, ?2, ?3)",
            params![address, player_id, time_text(now)],
        )?;
        Ok(Added::Added)
    }

    /// Whether account `id` is bare: made for an address that confirmed once, and nothing
    /// more (no password, no name, no seat, no game created, no diary, no further address).
    pub(super) fn bare_account(&self, id: i64) -> rusqlite::Result<bool> {
        self.query_row_cached(
            "SELECT password_hash IS NULL AND name IS NULL
                 AND NOT EXISTS (SELECT 1 FROM members WHERE player_id = ?1)
                 AND NOT EXISTS (SELECT 1 FROM games WHERE created_by = ?1)
                 AND NOT EXISTS (SELECT 1 FROM diary WHERE player_id = ?1)
                 AND NOT EXISTS (SELECT 1 FROM addresses WHERE player_id = ?1)
             FROM players WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
    }

    /// Removes the further address `address` from account `player_id`; false when it is no
    /// further address of that account.
    pub fn remove_address(&self, player_id: i64, address: &str) -> rusqlite::Result<bool> {
        let removed = self.execute_cached(
            "DELETE FROM addresses WHERE address = ?1 AND player_id = ?2",
            params![address.to_lowercase(), player_id],
        )?;
        Ok(removed > 0)
    }

    /// Makes the further address `address` the account's chosen one (where game letters go);
    /// the chosen one so far becomes a further one. False when it is no further address of
    /// that account.
    pub fn choose_address(
        &self,
        player_id: i64,
        address: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<bool> {
        let old = self.player(player_id)?.email;
        if !self.remove_address(player_id, address)? {
            return Ok(false);
        }
        self.execute_cached(
            "UPDATE players SET email = ?2 WHERE id = ?1",
            params![player_id, address.to_lowercase()],
        )?;
        self.execute_cached(
            "INSERT INTO addresses (address, player_id, added_at) VALUES (?1, ?2, ?3)",
            params![old, player_id, time_text(now)],
        )?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{Added, Store};

    #[test]
    fn one_address_is_one_accounts_and_finds_it() {
        let mut store = Store::in_memory().unwrap();
        let tx = store.begin().unwrap();
        let now = "2027-01-05T12:00:00Z".parse().unwrap();
        let ann = tx
            .register_player("ann@x.test", Some("Ann"), None, now)
            .unwrap();
        let bob = tx
            .register_player("bob@x.test", Some("Bob"), None, now)
            .unwrap();
        let added = |player, address| tx.add_address(player, address, now).unwrap();
        assert_eq!(added(ann.id, "Ann@Home.test"), Added::Added);
        assert_eq!(tx.account_of("ann@home.test").unwrap(), Some(ann.id));
        assert_eq!(
            tx.player_by_email("ANN@home.test").unwrap().unwrap().id,
            ann.id
        );
        assert!(tx.is_confirmed("ann@home.test").unwrap());
        assert_eq!(added(ann.id, "ann@home.test"), Added::Already);
        assert_eq!(added(bob.id, "ann@home.test"), Added::Taken);
        assert_eq!(added(bob.id, "ann@x.test"), Added::Taken);
        // Registering from a further address is the account's own.
        let again = tx
            .register_player("ann@home.test", None, None, now)
            .unwrap();
        assert_eq!(again.id, ann.id);
        // The schema refuses what the code never does: an address in two places.
        let refused = |sql: &str, id: i64| tx.tx.execute(sql, [id]).is_err();
        assert!(refused(
            "INSERT INTO players (email, registered_at) VALUES ('ann@home.test', ?1)",
            0
        ));
        assert!(refused(
            "UPDATE players SET email = 'ann@home.test' WHERE id = ?1",
            bob.id
        ));
        assert!(refused(
            "INSERT INTO addresses (address, player_id, added_at) VALUES ('bob@x.test', ?1, '')",
            ann.id
        ));
        // Choosing swaps the chosen address with a further one; removing spares the chosen.
        assert!(tx.choose_address(ann.id, "ann@home.test", now).unwrap());
        assert_eq!(
            tx.addresses_of(ann.id).unwrap(),
            ["ann@home.test", "ann@x.test"]
        );
        assert!(!tx.remove_address(ann.id, "ann@home.test").unwrap());
        assert!(!tx.remove_address(bob.id, "ann@x.test").unwrap());
        // An account that is only an address that once confirmed gives way.
        let bare = tx.register_player("carol@x.test", None, None, now).unwrap();
        assert_eq!(added(bob.id, "carol@x.test"), Added::Added);
        assert!(tx.identity(bare.id).unwrap().is_none());
        assert_eq!(tx.account_of("carol@x.test").unwrap(), Some(bob.id));
    }
}
