//! Letters held for a locked seat: how many may wait at once, which of them make a deadline
//! wait and for how long, and orders that outlived the phase they were written for.
//!
//! A letter with a seat's right password that comes while the seat is locked is held and its
//! token mailed to the seat's registered address (`lockout.rs`). Each of those is a thing a
//! stranger might turn against players, so each is bounded: at most `MOST_HELD` letters wait
//! for one seat, for one address's token, and from one sender in a game; only a letter held
//! for a power's seat, made in the phase being played, makes that phase wait past its
//! deadline, once a phase and for `limits.held_wait_hours` at most, while late notices go on
//! as for any late power; and orders in a held letter carried out after their phase are not
//! used (the answer says so).

use chrono::{DateTime, Duration, Utc};

use crate::game::settings::GameSettings;
use crate::judge::Judge;
use crate::judge::access::confirm::Waiting;
use crate::judge::access::seat::Seat;
use crate::judge::session::Session;
use crate::msg;
use crate::store::{GameRow, RequestRow, Tx};

/// Letters held at once for one seat, for one address's token, and from one sender in one
/// game; past them a letter is answered as any letter for a locked seat, and not kept.
pub(crate) const MOST_HELD: usize = 3;

/// The sender and the seats of a held request's letter.
fn held_letter(request: &RequestRow) -> Option<(String, Vec<String>)> {
    match serde_json::from_str::<Waiting>(&request.payload).ok()? {
        Waiting::Letter { sender, seats, .. } => Some((sender, seats)),
        Waiting::Move { .. } => None,
    }
}

impl Session<'_> {
    /// Whether another letter from this sender may be held for `seat`, whose token goes to
    /// `owner_address`.
    pub(crate) fn may_hold(
        &self,
        tx: &Tx,
        seat: &Seat,
        owner_address: &str,
    ) -> rusqlite::Result<bool> {
        if tx.pending_requests(owner_address, "held", self.now)? >= MOST_HELD {
            return Ok(false);
        }
        let Some(game) = seat.game else {
            return Ok(true);
        };
        let held: Vec<(String, Vec<String>)> = tx
            .held_for_game(game, DateTime::<Utc>::MIN_UTC, self.now)?
            .iter()
            .filter_map(held_letter)
            .collect();
        let for_seat = held.iter().filter(|(_, seats)| seats.contains(&seat.key));
        let from_sender = held.iter().filter(|(sender, _)| *sender == self.sender);
        Ok(for_seat.count() < MOST_HELD && from_sender.count() < MOST_HELD)
    }

    /// Whether orders for `game` in this letter come too late: it was held until its token
    /// came back, and the phase it was written in is over. Says so in the answer.
    pub(crate) fn outlived_phase(
        &mut self,
        tx: &Tx,
        game: &GameRow,
        phase: &str,
        line: usize,
    ) -> rusqlite::Result<bool> {
        let Some(written) = self.written_at else {
            return Ok(false);
        };
        let began = tx.phase_began(game.id, game.phase_serial)?;
        if began.is_none_or(|began| began <= written) {
            return Ok(false);
        }
        self.fail(
            line,
            msg!(
                "held.phase_over",
                when = self.when(written),
                game = game.name,
                phase = phase
            ),
        );
        Ok(true)
    }
}

impl Judge {
    /// Whether a letter held for a power's seat of `game` since its phase began waits for its
    /// token: the phase is then not processed early.
    pub(crate) fn held_for_a_power(
        &self,
        tx: &Tx,
        game: &GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<bool> {
        let began = tx
            .phase_began(game.id, game.phase_serial)?
            .unwrap_or(DateTime::<Utc>::MIN_UTC);
        let power_seat = format!("game:{}:power:", game.id);
        Ok(tx
            .held_for_game(game.id, began, now)?
            .iter()
            .filter_map(held_letter)
            .any(|(_, seats)| seats.iter().any(|s| s.starts_with(&power_seat))))
    }

    /// Whether `game`'s phase, past its deadline, still waits for a letter held for a locked
    /// seat: one held for a power's seat of the game since the phase began. It waits once a
    /// phase, for `limits.held_wait_hours` from when the waiting began (kept in `settings`);
    /// an observer's or a master's held letter never makes it wait.
    pub(crate) fn waits_for_held(
        &self,
        tx: &Tx,
        game: &GameRow,
        settings: &mut GameSettings,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<bool> {
        if !self.held_for_a_power(tx, game, now)? {
            return Ok(false);
        }
        let until = match settings.held_wait {
            Some((serial, until)) if serial == game.phase_serial => until,
            _ => {
                let hours = i64::from(self.config.limits.held_wait_hours);
                let until = now + Duration::hours(hours);
                settings.held_wait = Some((game.phase_serial, until));
                until
            }
        };
        Ok(now < until)
    }
}
