//! Passwords that cannot be guessed: every wrong password is counted for its seat and for the
//! account that owns the seat; after a few within an hour the seat (or the whole account) is
//! locked for a while, and no password is checked for it, so guessing stops; its owner gets
//! one letter summing up the failures. One letter stops checking passwords after a few wrong
//! ones. A lock never keeps a player from playing: a letter that signs on to a locked seat with
//! the right password is held, and a token goes to the seat's registered address; when it
//! comes back from there, the letter is carried out (a deadline waits for it, within reason).
//! Whether the password was right, the sender is told the same.

use crate::game::GameKind;
use chrono::{DateTime, Duration, Utc};

use super::seat::{Checked, Seat};
use crate::judge::access::confirm::Waiting;
use crate::judge::access::password::password_matches;
use crate::judge::session::Confirmed;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::store::Tx;
use crate::text::command::{Command, CommandKind};
use crate::{msg, tr};

impl Session<'_> {
    /// Until when `seat` is locked (the seat itself, or its owner's account), unless this
    /// letter was confirmed for it.
    pub(crate) fn lock_of(&self, tx: &Tx, seat: &Seat) -> rusqlite::Result<Option<DateTime<Utc>>> {
        if let Confirmed::ForSeats(seats) = &self.confirmed
            && seats.contains(&seat.key)
        {
            return Ok(None);
        }
        let mut until = tx.locked_until(&seat.key, self.now)?;
        if let Some((account, _)) = seat.owner.as_ref().filter(|_| !seat.anonymous) {
            let whole = tx.locked_until(&format!("account:{account}"), self.now)?;
            until = until.max(whole);
        }
        Ok(until)
    }

    /// Checks `password` against `hash` for `seat`, counting a wrong one and locking the seat
    /// when there have been too many.
    pub(crate) fn check_password(
        &mut self,
        tx: &Tx,
        seat: &Seat,
        password: &str,
        hash: &str,
    ) -> rusqlite::Result<Checked> {
        let limits = &self.judge.config.limits;
        if self.failures >= limits.password_failures_per_letter {
            return Ok(Checked::Exhausted);
        }
        if let Some(until) = self.lock_of(tx, seat)? {
            return Ok(Checked::Locked(until));
        }
        if password_matches(password, hash) {
            return Ok(Checked::Right);
        }
        self.failures += 1;
        self.failed_seats.push(seat.clone());
        self.wrong_password(tx, seat)?;
        Ok(Checked::Wrong)
    }

    /// Counts a wrong password for `seat`; locks the seat, or its owner's whole account, when
    /// the hour holds too many, and tells the owner once.
    pub(crate) fn wrong_password(&mut self, tx: &Tx, seat: &Seat) -> rusqlite::Result<()> {
        let limits = &self.judge.config.limits;
        let most = limits.password_failures_per_hour as usize;
        let lock_for = Duration::minutes(i64::from(limits.lock_minutes.max(1)));
        let hour_ago = self.now - Duration::hours(1);
        let account = seat
            .owner
            .as_ref()
            .filter(|_| !seat.anonymous)
            .map(|(id, _)| *id);
        tx.add_password_failure(&seat.key, account, &self.sender, self.now)?;
        tx.forget_failures(self.now - Duration::days(1))?;
        let on_seat = tx.seat_failures(&seat.key, hour_ago)?;
        let on_account = match account {
            Some(id) => tx.account_failures(id, hour_ago)?,
            None => Vec::new(),
        };
        let (locked, failures) = if on_seat.len() >= most {
            (seat.key.clone(), on_seat)
        } else if let Some(id) = account.filter(|_| on_account.len() >= most) {
            (format!("account:{id}"), on_account)
        } else {
            return Ok(());
        };
        if tx.locked_until(&locked, self.now)?.is_some() {
            return Ok(());
        }
        let until = self.now + lock_for;
        tx.lock(&locked, until, failures.len())?;
        tracing::info!(seat = %locked, failures = failures.len(), "seat locked after wrong passwords");
        let Some((_, email)) = &seat.owner else {
            return Ok(());
        };
        // One letter to the owner: how many, from where, until when.
        let mut senders: Vec<(String, usize)> = Vec::new();
        for f in &failures {
            match senders.iter_mut().find(|(s, _)| *s == f.sender) {
                Some(entry) => entry.1 += 1,
                None => senders.push((f.sender.clone(), 1)),
            }
        }
        let from = senders
            .iter()
            .map(|(s, n)| format!("  {s}: {n}"))
            .collect::<Vec<_>>()
            .join("\n");
        let language = tx.player_language(email)?.unwrap_or_default();
        let words = self.judge.templates.words(language);
        let what = if locked.starts_with("account:") {
            tr!(words, "lockout.whole_account", address = email)
        } else {
            seat.name.clone()
        };
        self.caused.push(OutgoingLetter::fresh(
            email,
            tr!(words, "lockout.locked_subject", seat = what),
            tr!(
                words,
                "lockout.locked",
                seat = what,
                count = failures.len(),
                from = from,
                until = self.when(until)
            ) + "\n",
        ));
        Ok(())
    }

    /// Before a letter does anything: if it signs on to a seat that is locked, it is not read
    /// further. With the right password it is held for the seat's player to confirm from the
    /// seat's registered address; the sender is told the same either way. Returns whether the
    /// letter stopped here.
    pub(crate) fn stopped_by_lock(
        &mut self,
        tx: &Tx,
        commands: &[Command],
        letter: &crate::letter::IncomingLetter,
    ) -> rusqlite::Result<bool> {
        let most = self.judge.config.limits.password_failures_per_letter as usize;
        let signons = commands.iter().filter_map(|c| match &c.kind {
            CommandKind::Signon {
                power,
                game,
                password,
            } => Some((c.line, *power, game.as_str(), password.as_str())),
            _ => None,
        });
        for (line, power, game, password) in signons.take(most) {
            let Some((seat, hash)) = self.seat_signed_on(tx, power, game)? else {
                continue;
            };
            let Some(until) = self.lock_of(tx, &seat)? else {
                continue;
            };
            // The same answer whether the password is right, and whether the letter could be
            // kept (at most `held::MOST_HELD` wait): a locked seat tells nothing.
            if password_matches(password, &hash)
                && let Some((_, email)) = &seat.owner
                && self.may_hold(tx, &seat, email)?
            {
                self.hold_letter(tx, &seat, email, letter)?;
            }
            // A private game the letter may not see stays a game that does not exist.
            let visible = match tx.game_by_name(game)? {
                Some(row) => self.may_see(tx, &row)?,
                None => false,
            };
            if visible {
                self.say(msg!(
                    "lockout.seat_locked",
                    until = self.when(until),
                    game = game
                ));
            } else {
                self.fail(line, msg!("letter.no_such_game", game = game));
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The seat a SIGNON names, with its password hash, if it has one.
    pub(crate) fn seat_signed_on(
        &self,
        tx: &Tx,
        power: Option<char>,
        game: &str,
    ) -> rusqlite::Result<Option<(Seat, String)>> {
        let Some(row) = tx.game_by_name(game)? else {
            return Ok(None);
        };
        let members = tx.members(row.id)?;
        match power {
            Some(letter) => {
                let power = if row.kind() == GameKind::HereIStand {
                    crate::judge::his::power_by_letter(letter)
                        .map(|p| (p.id().to_string(), p.id().to_string()))
                } else {
                    self.judge.variant(&row.variant).and_then(|v| {
                        v.map
                            .powers
                            .iter()
                            .find(|p| p.letter.eq_ignore_ascii_case(&letter))
                            .map(|p| (p.id.clone(), p.name.clone()))
                    })
                };
                let Some((id, name)) = power else {
                    return Ok(None);
                };
                Ok(members
                    .iter()
                    .find(|m| m.power.as_deref() == Some(id.as_str()))
                    .map(|m| {
                        let owner = Some((m.player_id, m.email.clone()));
                        (
                            Seat::power(&row, &id, &name, owner),
                            m.password_hash.clone(),
                        )
                    }))
            }
            None => {
                let Some(player) = tx.player_by_email(&self.sender)? else {
                    return Ok(None);
                };
                Ok(members.iter().find(|m| m.player_id == player.id).map(|m| {
                    (
                        Seat::member(&row, m.player_id, &m.email, &m.role),
                        m.password_hash.clone(),
                    )
                }))
            }
        }
    }

    /// Holds the whole letter for `seat`, and mails its player the token that carries it out.
    fn hold_letter(
        &mut self,
        tx: &Tx,
        seat: &Seat,
        owner_address: &str,
        letter: &crate::letter::IncomingLetter,
    ) -> rusqlite::Result<()> {
        let held = Waiting::Letter {
            sender: self.sender.clone(),
            subject: letter.subject.clone(),
            message_id: letter.message_id.clone(),
            body: letter.body.clone(),
            seats: vec![seat.key.clone()],
        };
        let hours = self.judge.config.limits.held_wait_hours;
        let request = self.request(tx, owner_address, "held", &held, seat.game, hours)?;
        let language = tx.player_language(owner_address)?.unwrap_or_default();
        let words = self.judge.templates.words(language);
        self.caused.push(OutgoingLetter::fresh(
            owner_address,
            tr!(words, "lockout.held_subject", seat = seat.name),
            tr!(
                words,
                "lockout.held",
                seat = seat.name,
                sender = self.sender,
                token = request.token,
                expires = self.when(request.expires_at)
            ) + "\n",
        ));
        Ok(())
    }
}
