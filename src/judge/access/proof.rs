//! Whether a letter past its sender's hourly limit is read: a CONFIRM in it carries a token
//! waiting for the sender's address, or its first SIGNON carries the right password of a seat,
//! so that a forger who floods the judge in a player's name cannot silence the player, whose
//! letters sign on or confirm.
//!
//! The check is a password check like any other (`lockout.rs`): one a letter, a wrong
//! password counted toward the seat's lock (and its owner told when it locks), and a locked
//! seat not checked at all; the letter is then read as any letter for a locked seat is (held
//! if its password is right, answered the same either way), so past the limit as under it a
//! password is never guessed for free.

use chrono::{DateTime, Utc};

use crate::judge::Judge;
use crate::judge::access::lockout;
use crate::judge::access::seat::Checked;
use crate::judge::session::Confirmed;
use crate::judge::session::Session;
use crate::letter::{IncomingLetter, OutgoingLetter};
use crate::store::Tx;
use crate::text::command::{CommandKind, parse_commands};

/// What the check of a letter past the limit came to.
#[derive(Debug, Default)]
pub struct Proof {
    /// The letter is read: it proved its sender, or it signs on to a locked seat.
    pub read: bool,
    /// Letters the check caused: the owner's notice when a wrong password locked a seat.
    pub letters: Vec<OutgoingLetter>,
}

impl Judge {
    /// Whether a letter past its sender's hourly limit is read (see the module): its first
    /// CONFIRM carries a token waiting for the sender's address, or its first SIGNON that
    /// names a seat carries the seat's right password (`SIGNON Xgame pw` the password of the
    /// player holding power X, `SIGNON ?game pw` the sender's own seat in the game), or names
    /// a locked seat. Only the failure it may count is written.
    pub fn proof_past_limit(
        &self,
        tx: &Tx,
        letter: &IncomingLetter,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Proof> {
        let Some(from) = &letter.from else {
            return Ok(Proof::default());
        };
        let sender = from.email.to_lowercase();
        let (commands, _) = parse_commands(&letter.body);
        let token = commands.iter().find_map(|c| match &c.kind {
            CommandKind::Confirm { token } => Some(token),
            _ => None,
        });
        if let Some(token) = token
            && tx
                .request_by_token(token)?
                .is_some_and(|r| r.address == sender && r.state == "pending")
        {
            return Ok(Proof {
                read: true,
                letters: Vec::new(),
            });
        }
        let mut session = Session::new(self, tx, now, sender, None, Confirmed::No)?;
        let signons = commands.iter().filter_map(|c| match &c.kind {
            CommandKind::Signon {
                power,
                game,
                password,
            } => Some((*power, game.as_str(), password.as_str())),
            _ => None,
        });
        for (power, game, password) in signons {
            // `SIGNON ?game` proves only a master's or an observer's own seat (a player's
            // joining line is no seat of its own).
            if power.is_none() && !self.watches_or_masters(tx, &session.sender, game)? {
                continue;
            }
            let Some((seat, hash)) = lockout::seat_signed_on(&session, tx, power, game)? else {
                continue;
            };
            // One check a letter, counted as any other.
            let read = match lockout::check_password(&mut session, tx, &seat, password, &hash)? {
                Checked::Right | Checked::Locked(_) => true,
                Checked::Wrong | Checked::Exhausted => false,
            };
            return Ok(Proof {
                read,
                letters: std::mem::take(&mut session.caused),
            });
        }
        Ok(Proof::default())
    }

    /// Whether `sender` is a master or an observer of `game`.
    fn watches_or_masters(&self, tx: &Tx, sender: &str, game: &str) -> rusqlite::Result<bool> {
        let (Some(row), Some(account)) = (tx.game_by_name(game)?, tx.player_by_email(sender)?)
        else {
            return Ok(false);
        };
        Ok(tx
            .members(row.id)?
            .iter()
            .any(|m| m.player_id == account.id && (m.role == "master" || m.role == "observer")))
    }
}
