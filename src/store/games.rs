//! Players, games, their members, the orders in force and the archive of reports.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Row, params};

use super::{Tx, parse_time, time_text};
use crate::game::settings::{GameSettings, Wishes};
use crate::game::{GameKind, GameState};
use crate::lang::Lang;

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: i64,
    pub email: String,
    pub name: Option<String>,
    pub password_hash: Option<String>,
}

/// A game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub state: GameState,
    pub created_by: i64,
    pub time_zone: String,
    pub movement_hours: u32,
    pub retreat_hours: u32,
    pub adjustment_hours: u32,
    pub reminder_hours: u32,
    /// The position as JSON, once the game has started.
    pub position: Option<String>,
    pub deadline_at: Option<DateTime<Utc>>,
    pub reminded: bool,
    pub phase_serial: i64,
    /// The game's settings, read once with the row.
    pub settings: GameSettings,
    /// Every order is in: the phase is processed then, after its short delay.
    pub process_at: Option<DateTime<Utc>>,
}

/// A player's place in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    pub player_id: i64,
    pub email: String,
    pub power: Option<String>,
    /// player, observer
    pub role: String,
    pub password_hash: String,
}

impl GameRow {
    /// The kind of game its variant plays.
    pub fn kind(&self) -> GameKind {
        GameKind::of_variant(&self.variant)
    }
}

const GAME_COLUMNS: &str = "id, name, variant, state, created_by, time_zone, movement_hours, \
     retreat_hours, adjustment_hours, reminder_hours, position, deadline_at, reminded, phase_serial, settings, \
     process_at";

fn game_row(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    let deadline: Option<String> = r.get(11)?;
    Ok(GameRow {
        id: r.get(0)?,
        name: r.get(1)?,
        variant: r.get(2)?,
        state: GameState::from_stored(&r.get::<_, String>(3)?),
        created_by: r.get(4)?,
        time_zone: r.get(5)?,
        movement_hours: r.get(6)?,
        retreat_hours: r.get(7)?,
        adjustment_hours: r.get(8)?,
        reminder_hours: r.get(9)?,
        position: r.get(10)?,
        deadline_at: deadline.as_deref().and_then(parse_time),
        reminded: r.get(12)?,
        phase_serial: r.get(13)?,
        settings: GameSettings::from_json(&r.get::<_, String>(14)?),
        process_at: r
            .get::<_, Option<String>>(15)?
            .as_deref()
            .and_then(parse_time),
    })
}

impl Tx<'_> {
    /// The account `email` is an address of: its chosen address or a further one.
    pub fn player_by_email(&self, email: &str) -> rusqlite::Result<Option<PlayerRow>> {
        self.query_row_cached(
            "SELECT id, email, name, password_hash FROM players WHERE email = ?1
             UNION ALL
             SELECT p.id, p.email, p.name, p.password_hash FROM addresses a
             JOIN players p ON p.id = a.player_id WHERE a.address = ?1
             LIMIT 1",
            [email.to_lowercase()],
            player_row,
        )
        .optional()
    }

    /// Registers a player (or updates the name and password of the account the address is
    /// already one of).
    pub fn register_player(
        &self,
        email: &str,
        name: Option<&str>,
        password_hash: Option<&str>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<PlayerRow> {
        if let Some(player) = self.player_by_email(email)? {
            if name.is_some() || password_hash.is_some() {
                self.execute_cached(
                    "UPDATE players SET name = COALESCE(?2, name), password_hash = COALESCE(?3, password_hash) WHERE id = ?1",
                    params![player.id, name, password_hash],
                )?;
                return self.player(player.id);
            }
            return Ok(player);
        }
        self.execute_cached(
            "INSERT INTO players (email, name, password_hash, registered_at) VALUES (?1, ?2, ?3, ?4)",
            params![email.to_lowercase(), name, password_hash, time_text(now)],
        )?;
        Ok(self.player_by_email(email)?.expect("just stored"))
    }

    pub fn player(&self, id: i64) -> rusqlite::Result<PlayerRow> {
        self.query_row_cached(
            "SELECT id, email, name, password_hash FROM players WHERE id = ?1",
            [id],
            player_row,
        )
    }

    pub fn game_by_name(&self, name: &str) -> rusqlite::Result<Option<GameRow>> {
        self.query_row_cached(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE name = ?1"),
            [name.to_lowercase()],
            game_row,
        )
        .optional()
    }

    pub fn game(&self, id: i64) -> rusqlite::Result<GameRow> {
        self.query_row_cached(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id],
            game_row,
        )
    }

    /// Every game, forming and running first.
    pub fn games(&self) -> rusqlite::Result<Vec<GameRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games ORDER BY state = 'finished', name"
        ))?;
        let rows = stmt.query_map([], game_row)?;
        rows.collect()
    }

    /// Running games whose deadline (or reminder time, or early processing) has come.
    pub fn games_due(&self, now: DateTime<Utc>) -> rusqlite::Result<Vec<GameRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE state = 'active' AND deadline_at IS NOT NULL
             AND (deadline_at <= ?1 OR (reminded = 0 AND datetime(deadline_at, '-' || reminder_hours || ' hours') <= datetime(?1))
                  OR process_at <= ?1)
             ORDER BY deadline_at"
        ))?;
        let rows = stmt.query_map([time_text(now)], game_row)?;
        rows.collect()
    }

    /// The earliest deadline of a running game, to know how long the daemon may sleep.
    pub fn next_deadline(&self) -> rusqlite::Result<Option<DateTime<Utc>>> {
        let text: Option<String> = self.query_row_cached(
            "SELECT MIN(deadline_at) FROM games WHERE state = 'active'",
            [],
            |r| r.get(0),
        )?;
        Ok(text.as_deref().and_then(parse_time))
    }

    /// How many games `player` created since `since`.
    pub fn games_created_by(&self, player: i64, since: DateTime<Utc>) -> rusqlite::Result<usize> {
        self.query_row_cached(
            "SELECT COUNT(*) FROM games WHERE created_by = ?1 AND created_at >= ?2",
            params![player, time_text(since)],
            |r| r.get::<_, i64>(0).map(|n| n as usize),
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub fn create_game(
        &self,
        name: &str,
        variant: &str,
        created_by: i64,
        time_zone: &str,
        hours: [u32; 4],
        now: DateTime<Utc>,
    ) -> rusqlite::Result<GameRow> {
        self.execute_cached(
            "INSERT INTO games (name, variant, state, created_by, created_at, time_zone,
                movement_hours, retreat_hours, adjustment_hours, reminder_hours)
             VALUES (?1, ?2, 'forming', ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                name.to_lowercase(),
                variant,
                created_by,
                time_text(now),
                time_zone,
                hours[0],
                hours[1],
                hours[2],
                hours[3]
            ],
        )?;
        self.game(self.tx.last_insert_rowid())
    }

    /// Saves a game's state, position and deadline.
    pub fn save_game(&self, game: &GameRow) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE games SET state = ?2, position = ?3, deadline_at = ?4, reminded = ?5, phase_serial = ?6,
                settings = ?7, time_zone = ?8, process_at = ?9, variant = ?10 WHERE id = ?1",
            params![
                game.id,
                game.state.as_str(),
                game.position,
                game.deadline_at.map(time_text),
                game.reminded,
                game.phase_serial,
                game.settings.to_json(),
                game.time_zone,
                game.process_at.map(time_text),
                game.variant
            ],
        )?;
        Ok(())
    }

    pub fn members(&self, game_id: i64) -> rusqlite::Result<Vec<MemberRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT m.player_id, p.email, m.power, m.role, m.password_hash FROM members m
             JOIN players p ON p.id = m.player_id WHERE m.game_id = ?1 ORDER BY m.joined_at, m.player_id",
        )?;
        let rows = stmt.query_map([game_id], |r| {
            Ok(MemberRow {
                player_id: r.get(0)?,
                email: r.get(1)?,
                power: r.get(2)?,
                role: r.get(3)?,
                password_hash: r.get(4)?,
            })
        })?;
        rows.collect()
    }

    /// Adds a member to a game, or updates the power, role and password of one.
    pub fn set_member(
        &self,
        game_id: i64,
        player_id: i64,
        power: Option<&str>,
        role: &str,
        password_hash: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO members (game_id, player_id, power, role, password_hash, joined_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (game_id, player_id) DO UPDATE SET power = ?3, role = ?4, password_hash = ?5",
            params![game_id, player_id, power, role, password_hash, time_text(now)],
        )?;
        Ok(())
    }

    pub fn remove_member(&self, game_id: i64, player_id: i64) -> rusqlite::Result<()> {
        self.execute_cached(
            "DELETE FROM members WHERE game_id = ?1 AND player_id = ?2",
            params![game_id, player_id],
        )?;
        Ok(())
    }

    /// Games a player belongs to, with the power held (if any).
    pub fn memberships(&self, player_id: i64) -> rusqlite::Result<Vec<(GameRow, MemberRow)>> {
        let ids: Vec<i64> = {
            let mut stmt = self.tx.prepare_cached(
                "SELECT game_id FROM members WHERE player_id = ?1 ORDER BY joined_at",
            )?;
            let rows = stmt.query_map([player_id], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let mut out = Vec::new();
        for id in ids {
            let game = self.game(id)?;
            if let Some(member) = self
                .members(id)?
                .into_iter()
                .find(|m| m.player_id == player_id)
            {
                out.push((game, member));
            }
        }
        Ok(out)
    }

    /// The order lines in force for a power in a phase, and whether its latest letter of
    /// orders had errors.
    pub fn orders(
        &self,
        game_id: i64,
        phase_serial: i64,
        power: &str,
    ) -> rusqlite::Result<Option<(String, bool)>> {
        self.query_row_cached(
                "SELECT lines, error_flag FROM orders WHERE game_id = ?1 AND phase_serial = ?2 AND power = ?3",
                params![game_id, phase_serial, power],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
    }

    pub fn set_orders(
        &self,
        game_id: i64,
        phase_serial: i64,
        power: &str,
        lines: &str,
        error_flag: bool,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO orders (game_id, phase_serial, power, lines, error_flag, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (game_id, phase_serial, power) DO UPDATE SET lines = ?4, error_flag = ?5, updated_at = ?6",
            params![game_id, phase_serial, power, lines, error_flag, time_text(now)],
        )?;
        Ok(())
    }

    /// Orders kept for a later phase of `power` (PHASE), as written: `(phase, rank, lines)`,
    /// by the phase's calendar order, in the order written.
    pub fn future_orders(
        &self,
        game_id: i64,
        power: &str,
    ) -> rusqlite::Result<Vec<(String, i64, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT phase, rank, lines FROM future_orders WHERE game_id = ?1 AND power = ?2
             ORDER BY rank, id",
        )?;
        let rows = stmt.query_map(params![game_id, power], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
        rows.collect()
    }

    /// Keeps `lines` for `power` until phase `phase` (of calendar rank `rank`) begins.
    pub fn add_future_orders(
        &self,
        game_id: i64,
        power: &str,
        phase: &str,
        rank: i64,
        lines: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO future_orders (game_id, power, phase, rank, lines, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![game_id, power, phase, rank, lines, time_text(now)],
        )?;
        Ok(())
    }

    /// Forgets the orders kept for `power` (for one phase, or all); returns how many blocks.
    pub fn clear_future_orders(
        &self,
        game_id: i64,
        power: &str,
        phase: Option<&str>,
    ) -> rusqlite::Result<usize> {
        match phase {
            Some(phase) => self.execute_cached(
                "DELETE FROM future_orders WHERE game_id = ?1 AND power = ?2 AND phase = ?3",
                params![game_id, power, phase],
            ),
            None => self.execute_cached(
                "DELETE FROM future_orders WHERE game_id = ?1 AND power = ?2",
                params![game_id, power],
            ),
        }
    }

    /// Forgets the orders kept for phases of rank `rank` and before, of every power.
    pub fn drop_future_orders_until(&self, game_id: i64, rank: i64) -> rusqlite::Result<()> {
        self.execute_cached(
            "DELETE FROM future_orders WHERE game_id = ?1 AND rank <= ?2",
            params![game_id, rank],
        )?;
        Ok(())
    }

    /// Withdraws a power's orders for a phase (CLEAR).
    pub fn clear_orders(
        &self,
        game_id: i64,
        phase_serial: i64,
        power: &str,
    ) -> rusqlite::Result<bool> {
        let n = self.execute_cached(
            "DELETE FROM orders WHERE game_id = ?1 AND phase_serial = ?2 AND power = ?3",
            params![game_id, phase_serial, power],
        )?;
        Ok(n > 0)
    }

    /// Keeps a report in the game's archive.
    pub fn archive(
        &self,
        game_id: i64,
        phase_serial: i64,
        title: &str,
        body: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO reports (game_id, phase_serial, created_at, title, body) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, phase_serial, time_text(now), title, body],
        )?;
        Ok(())
    }

    /// Keeps a letter of POSTAL PRESS until the game's next results (`recipient` empty: the
    /// copy for the archive).
    pub fn hold_press(
        &self,
        game_id: i64,
        recipient: &str,
        subject: &str,
        body: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO held_press (game_id, recipient, subject, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, recipient, subject, body, time_text(now)],
        )?;
        Ok(())
    }

    /// The postal press held for a game, in the order written, and no longer held:
    /// `(recipient, subject, body)`.
    pub fn take_held_press(&self, game_id: i64) -> rusqlite::Result<Vec<(String, String, String)>> {
        let held = {
            let mut stmt = self.tx.prepare_cached(
                "SELECT recipient, subject, body FROM held_press WHERE game_id = ?1 ORDER BY id",
            )?;
            stmt.query_map([game_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?
        };
        self.execute_cached("DELETE FROM held_press WHERE game_id = ?1", [game_id])?;
        Ok(held)
    }

    /// The archive of a game, oldest first, each report with the phase it was kept under.
    pub fn archived_reports(&self, game_id: i64) -> rusqlite::Result<Vec<ArchivedReport>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT phase_serial, created_at, title, body FROM reports WHERE game_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([game_id], |r| {
            Ok(ArchivedReport {
                phase_serial: r.get(0)?,
                when: r.get(1)?,
                title: r.get(2)?,
                body: r.get(3)?,
            })
        })?;
        rows.collect()
    }

    /// The archive of a game, oldest first: `(when, title, body)`.
    pub fn reports(&self, game_id: i64) -> rusqlite::Result<Vec<(String, String, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT created_at, title, body FROM reports WHERE game_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([game_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    }
}

/// A report kept in a game's archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedReport {
    /// The game's phase when it was kept: a phase's results are kept under the phase they
    /// lead to, in the moment that phase is recorded (`Tx::record_phase`).
    pub phase_serial: i64,
    /// When it was kept (`time_text`).
    pub when: String,
    pub title: String,
    pub body: String,
}

/// One phase of a game's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseRow {
    pub phase_serial: i64,
    pub title: String,
    /// The position as JSON (`store::position_to_json`).
    pub position: String,
    /// `{power: email}` of the players then, as JSON.
    pub players: String,
    pub created_at: String,
}

impl Tx<'_> {
    /// Keeps the position a game is in at the start of phase `phase_serial`.
    pub fn record_phase(
        &self,
        game_id: i64,
        phase_serial: i64,
        title: &str,
        position: &str,
        players: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT OR REPLACE INTO positions (game_id, phase_serial, title, position, players, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![game_id, phase_serial, title, position, players, time_text(now)],
        )?;
        Ok(())
    }

    /// When phase `phase_serial` of a game began (its position was kept), if it did.
    pub fn phase_began(
        &self,
        game_id: i64,
        phase_serial: i64,
    ) -> rusqlite::Result<Option<DateTime<Utc>>> {
        let text: Option<String> = self
            .query_row_cached(
                "SELECT created_at FROM positions WHERE game_id = ?1 AND phase_serial = ?2",
                params![game_id, phase_serial],
                |r| r.get(0),
            )
            .optional()?;
        Ok(text.and_then(|t| parse_time(&t)))
    }

    /// The positions a game has been in, oldest first.
    pub fn phases(&self, game_id: i64) -> rusqlite::Result<Vec<PhaseRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT phase_serial, title, position, players, created_at FROM positions WHERE game_id = ?1 ORDER BY phase_serial",
        )?;
        let rows = stmt.query_map([game_id], |r| {
            Ok(PhaseRow {
                phase_serial: r.get(0)?,
                title: r.get(1)?,
                position: r.get(2)?,
                players: r.get(3)?,
                created_at: r.get(4)?,
            })
        })?;
        rows.collect()
    }
}

impl Tx<'_> {
    /// Moves the orders of phase `from` and later aside (ROLLBACK), keeping them for inspection.
    pub fn undo_orders_from(
        &self,
        game_id: i64,
        from: i64,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO undone_orders (game_id, phase_serial, power, lines, undone_at)
             SELECT game_id, phase_serial, power, lines, ?3 FROM orders WHERE game_id = ?1 AND phase_serial >= ?2",
            params![game_id, from, time_text(now)],
        )?;
        self.execute_cached(
            "DELETE FROM orders WHERE game_id = ?1 AND phase_serial >= ?2",
            params![game_id, from],
        )?;
        self.execute_cached(
            "DELETE FROM positions WHERE game_id = ?1 AND phase_serial > ?2",
            params![game_id, from],
        )?;
        Ok(())
    }

    /// Orders undone by rollbacks: `(phase, power, lines)`.
    pub fn undone_orders(&self, game_id: i64) -> rusqlite::Result<Vec<(i64, String, String)>> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT phase_serial, power, lines FROM undone_orders WHERE game_id = ?1 ORDER BY rowid")?;
        let rows = stmt.query_map([game_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    }
}

impl Tx<'_> {
    /// A member's wishes (none when no such member).
    pub fn member_wishes(&self, game_id: i64, player_id: i64) -> rusqlite::Result<Wishes> {
        let text: Option<String> = self
            .query_row_cached(
                "SELECT wishes FROM members WHERE game_id = ?1 AND player_id = ?2",
                params![game_id, player_id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(text.map(|t| Wishes::from_json(&t)).unwrap_or_default())
    }

    /// A member's new password hash (SET PASSWORD after a SIGNON).
    pub fn set_member_password(
        &self,
        game_id: i64,
        player_id: i64,
        password_hash: &str,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE members SET password_hash = ?3 WHERE game_id = ?1 AND player_id = ?2",
            params![game_id, player_id, password_hash],
        )?;
        Ok(())
    }

    pub fn set_member_wishes(
        &self,
        game_id: i64,
        player_id: i64,
        wishes: &Wishes,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE members SET wishes = ?3 WHERE game_id = ?1 AND player_id = ?2",
            params![game_id, player_id, wishes.to_json()],
        )?;
        Ok(())
    }

    /// Moves a player's chosen address to a new one (SET ADDRESS), which the old one leaves
    /// (its further addresses stay; the new one, if it was one of them, is chosen); false when
    /// another account has it. An account that is only the address having confirmed once
    /// gives way, as for `add_address`.
    pub fn change_email(&self, player_id: i64, email: &str) -> rusqlite::Result<bool> {
        match self.account_of(email)? {
            Some(id) if id == player_id => {
                self.remove_address(player_id, email)?;
            }
            Some(id) if self.bare_account(id)? => {
                self.execute_cached("DELETE FROM players WHERE id = ?1", [id])?;
            }
            Some(_) => return Ok(false),
            None => {}
        }
        self.execute_cached(
            "UPDATE players SET email = ?2 WHERE id = ?1",
            params![player_id, email.to_lowercase()],
        )?;
        Ok(true)
    }

    /// The language the account of address `email` chose for letters outside games, if any.
    pub fn player_language(&self, email: &str) -> rusqlite::Result<Option<Lang>> {
        self.query_row_cached(
            "SELECT language FROM players WHERE email = ?1
             UNION ALL
             SELECT p.language FROM addresses a JOIN players p ON p.id = a.player_id
             WHERE a.address = ?1
             LIMIT 1",
            [email.to_lowercase()],
            |r| r.get::<_, Option<String>>(0),
        )
        .optional()
        .map(|code| code.flatten().map(|c| Lang::from_code(&c)))
    }

    pub fn set_player_language(&self, player_id: i64, language: Lang) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE players SET language = ?2 WHERE id = ?1",
            params![player_id, language.code()],
        )?;
        Ok(())
    }
}

/// A player row from `SELECT id, email, name, password_hash`.
fn player_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerRow> {
    Ok(PlayerRow {
        id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        password_hash: r.get(3)?,
    })
}
