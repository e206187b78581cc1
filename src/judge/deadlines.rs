//! What time does to a game: a reminder before the deadline; at the deadline the phase is
//! processed, or, when orders are missing and the game gives grace, late notices go out and
//! the phase waits; past the grace a silent power falls into civil disorder or, by the
//! game's policy, is offered for takeover while the game waits.

use chrono::{DateTime, Duration, Utc};

use super::Judge;
use super::orders::{is_complete, powers_owing, stored_orders};
use super::phase::phase_name;
use super::settings::GameSettings;
use crate::diplomacy::power::PowerId;
use crate::letter::{Address, OutgoingLetter};
use crate::store::{GameRow, Tx};

impl Judge {
    /// The powers of `game` whose orders are missing, incomplete or in error.
    pub(super) fn missing_powers(&self, tx: &Tx, game: &GameRow) -> rusqlite::Result<Vec<PowerId>> {
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        let map = &variant.map;
        let mut missing = Vec::new();
        for power in powers_owing(map, &position) {
            let done = match tx.orders(game.id, game.phase_serial, &map.power(power).id)? {
                Some((lines, false)) => is_complete(
                    map,
                    &position,
                    power,
                    &stored_orders(map, position.turn.kind, &lines),
                ),
                _ => false,
            };
            if !done {
                missing.push(power);
            }
        }
        Ok(missing)
    }

    /// One game's turn with the clock.
    pub(super) fn at_deadline(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let mut settings = GameSettings::from_json(&game.settings);
        let Some(deadline) = game.deadline_at else {
            return Ok(Vec::new());
        };
        if settings.paused {
            return Ok(Vec::new());
        }
        if deadline > now {
            return if game.reminded {
                Ok(Vec::new())
            } else {
                self.remind(tx, game)
            };
        }
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        let missing = self.missing_powers(tx, game)?;
        let grace = settings.timing(position.turn.kind).grace_hours;
        let grace_over = now >= deadline + Duration::hours(i64::from(grace));
        if missing.is_empty() || (grace_over && settings.civil_disorder) {
            return self.process_phase(tx, game, now);
        }
        let map = &variant.map;
        let members = tx.members(game.id)?;
        let names: Vec<String> = missing.iter().map(|p| map.power(*p).name.clone()).collect();
        let mut letters = Vec::new();
        if !grace_over {
            if settings.late_noticed == Some(game.phase_serial) {
                return Ok(Vec::new());
            }
            settings.late_noticed = Some(game.phase_serial);
            for power in &missing {
                for m in members
                    .iter()
                    .filter(|m| m.power.as_deref() == Some(map.power(*power).id.as_str()))
                {
                    letters.push(OutgoingLetter {
                        to: vec![Address::new(&m.email)],
                        subject: format!("Game '{}': your orders are late", game.name),
                        body: format!(
                            "The deadline of game '{}' for {} has passed and your orders are missing or incomplete.\n\
                             Send them before the grace ends, {} hours after the deadline.\n",
                            game.name,
                            phase_name(variant, &position),
                            grace
                        ),
                        in_reply_to: None,
                        references: Vec::new(),
                    });
                }
            }
        } else {
            // Past the grace in a game that waits: silent powers are offered for takeover once.
            if settings.offered == Some(game.phase_serial) {
                return Ok(Vec::new());
            }
            settings.offered = Some(game.phase_serial);
            for power in &missing {
                if let Some(m) = members
                    .iter()
                    .find(|m| m.power.as_deref() == Some(map.power(*power).id.as_str()))
                {
                    tx.remove_member(game.id, m.player_id)?;
                    letters.push(OutgoingLetter {
                        to: vec![Address::new(&m.email)],
                        subject: format!("Game '{}': you have lost {}", game.name, map.power(*power).name),
                        body: format!(
                            "You sent no orders for {} in game '{}' before the grace ended, so {} is offered to a new player.\n",
                            phase_name(variant, &position),
                            game.name,
                            map.power(*power).name
                        ),
                        in_reply_to: None,
                        references: Vec::new(),
                    });
                }
            }
            let offers: Vec<String> = missing
                .iter()
                .map(|p| {
                    format!(
                        "  {}: SIGNON {}{} <password>",
                        map.power(*p).name,
                        map.power(*p).letter,
                        game.name
                    )
                })
                .collect();
            let text = format!(
                "Game '{}' waits: {} sent no orders for {}. These powers are open for takeover:\n{}\n",
                game.name,
                names.join(", "),
                phase_name(variant, &position),
                offers.join("\n")
            );
            tx.archive(
                game.id,
                game.phase_serial,
                &format!("Game '{}': powers open for takeover", game.name),
                &text,
                now,
            )?;
            for m in tx.members(game.id)? {
                letters.push(OutgoingLetter {
                    to: vec![Address::new(&m.email)],
                    subject: format!("Game '{}': powers open for takeover", game.name),
                    body: text.clone(),
                    in_reply_to: None,
                    references: Vec::new(),
                });
            }
        }
        game.settings = settings.to_json();
        tx.save_game(game)?;
        Ok(letters)
    }
}
