//! Whether a letter proves who sent it: a SIGNON in it carries the right password for a seat,
//! or a CONFIRM in it carries a token waiting for the sender's address. The daemon asks this
//! of letters past a sender's hourly limit, so that a forger who floods the judge in a
//! player's name cannot silence the player, whose letters sign on or confirm.

use super::Judge;
use super::password::password_matches;
use crate::letter::IncomingLetter;
use crate::store::{GameRow, MemberRow, Tx};
use crate::text::command::{CommandKind, parse_commands};

/// At most this many SIGNON commands of a letter are checked: each check may cost an argon2
/// verification, and a letter needs one.
const MOST_CHECKED: usize = 3;

impl Judge {
    /// Whether one of the first three SIGNON commands of the letter carries the password of
    /// a seat: `SIGNON Xgame pw` the password of the player holding power X in the game,
    /// `SIGNON ?game pw` that of the sender's own seat as the game's master or observer.
    /// Nothing is changed and nothing is answered.
    pub fn carries_seat_password(
        &self,
        tx: &Tx,
        letter: &IncomingLetter,
    ) -> rusqlite::Result<bool> {
        let Some(from) = &letter.from else {
            return Ok(false);
        };
        let sender = from.email.to_lowercase();
        let (commands, _) = parse_commands(&letter.body);
        // A token mailed to this address and not yet used is proof of the address.
        for token in commands
            .iter()
            .filter_map(|c| match &c.kind {
                CommandKind::Confirm { token } => Some(token),
                _ => None,
            })
            .take(MOST_CHECKED)
        {
            if tx
                .request_by_token(token)?
                .is_some_and(|r| r.address == sender && r.state == "pending")
            {
                return Ok(true);
            }
        }
        let signons = commands.iter().filter_map(|c| match &c.kind {
            CommandKind::Signon {
                power,
                game,
                password,
            } => Some((*power, game, password)),
            _ => None,
        });
        for (power, game, password) in signons.take(MOST_CHECKED) {
            let Some(row) = tx.game_by_name(game)? else {
                continue;
            };
            let members = tx.members(row.id)?;
            let seat = match power {
                Some(letter) => self.power_seat(&row, &members, letter),
                None => match tx.player_by_email(&sender)? {
                    Some(account) => members.into_iter().find(|m| {
                        m.player_id == account.id && (m.role == "master" || m.role == "observer")
                    }),
                    None => None,
                },
            };
            if seat.is_some_and(|m| password_matches(password, &m.password_hash)) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The player holding the power with this letter in the game, if any.
    fn power_seat(&self, game: &GameRow, members: &[MemberRow], letter: char) -> Option<MemberRow> {
        let power = if game.variant == super::his::VARIANT {
            super::his::power_by_letter(letter).map(|p| p.id().to_string())
        } else {
            self.variant(&game.variant).and_then(|v| {
                v.map
                    .powers
                    .iter()
                    .find(|p| p.letter.eq_ignore_ascii_case(&letter))
                    .map(|p| p.id.clone())
            })
        }?;
        members
            .iter()
            .find(|m| m.role == "player" && m.power.as_deref() == Some(power.as_str()))
            .cloned()
    }
}
