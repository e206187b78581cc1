//! Letters held for a locked seat: which letters stop there and are held, how many may wait
//! at once, which of them make a deadline wait and for how long, and orders that outlived the
//! phase they were written for.
//!
//! A letter with a seat's right password that comes while the seat is locked is held and its
//! token mailed to the seat's registered address (`stopped_by_lock`). Each of those is a thing a
//! stranger might turn against players, so each is bounded: at most `MOST_HELD` letters wait
//! for one seat, for one address's token, and from one sender in a game; only a letter held
//! for a power's seat, made in the phase being played, makes that phase wait past its
//! deadline, once a phase and for `limits.held_wait_hours` at most, while late notices go on
//! as for any late power; and orders in a held letter carried out after their phase are not
//! used (the answer says so).

use chrono::{DateTime, Duration, Utc};

use crate::game::settings::GameSettings;
use crate::judge::Judge;
use crate::judge::access::confirm;
use crate::judge::access::confirm::Waiting;
use crate::judge::access::lockout;
use crate::judge::access::password::password_matches;
use crate::judge::access::seat::Seat;
use crate::judge::access::secrecy;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::msg;
use crate::store::{GameRow, RequestRow, Tx};
use crate::text::command::{Command, CommandKind};
use crate::tr;

/// Letters held at once for one seat, for one address's token, and from one sender in one
/// game; past them a letter is answered as any letter for a locked seat, and not kept.
pub(crate) const MOST_HELD: usize = 3;

/// The sender and the seats of a held request's letter.
fn held_letter(request: &RequestRow) -> Option<(String, Vec<String>)> {
    match serde_json::from_str::<Waiting>(&request.payload).ok()? {
        Waiting::Letter { sender, seats, .. } => Some((sender, seats)),
        Waiting::Move { .. } | Waiting::Add { .. } => None,
    }
}

/// Whether another letter from this sender may be held for `seat`, whose token goes to
/// `owner_address`.
pub(crate) fn may_hold(
    cx: &Session<'_>,
    tx: &Tx,
    seat: &Seat,
    owner_address: &str,
) -> rusqlite::Result<bool> {
    if tx.pending_requests(owner_address, "held", cx.now)? >= MOST_HELD {
        return Ok(false);
    }
    let Some(game) = seat.game else {
        return Ok(true);
    };
    let held: Vec<(String, Vec<String>)> = tx
        .held_for_game(game, DateTime::<Utc>::MIN_UTC, cx.now)?
        .iter()
        .filter_map(held_letter)
        .collect();
    let for_seat = held.iter().filter(|(_, seats)| seats.contains(&seat.key));
    let from_sender = held.iter().filter(|(sender, _)| *sender == cx.sender);
    Ok(for_seat.count() < MOST_HELD && from_sender.count() < MOST_HELD)
}

/// Whether orders for `game` in this letter come too late: it was held until its token
/// came back, and the phase it was written in is over. Says so in the answer.
pub(crate) fn outlived_phase(
    cx: &mut Session<'_>,
    tx: &Tx,
    game: &GameRow,
    phase: &str,
    line: usize,
) -> rusqlite::Result<bool> {
    let Some(written) = cx.written_at else {
        return Ok(false);
    };
    let began = tx.phase_began(game.id, game.phase_serial)?;
    if began.is_none_or(|began| began <= written) {
        return Ok(false);
    }
    cx.fail(
        line,
        msg!(
            "held.phase_over",
            when = cx.when(written),
            game = game.name,
            phase = phase
        ),
    );
    Ok(true)
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

/// Before a letter does anything: if it signs on to a seat that is locked, it is not read
/// further. With the right password it is held for the seat's player to confirm from the
/// seat's registered address; the sender is told the same either way. Returns whether the
/// letter stopped here.
pub(crate) fn stopped_by_lock(
    cx: &mut Session<'_>,
    tx: &Tx,
    commands: &[Command],
    letter: &crate::letter::IncomingLetter,
) -> rusqlite::Result<bool> {
    let most = cx.judge.config.limits.password_failures_per_letter as usize;
    let signons = commands.iter().filter_map(|c| match &c.kind {
        CommandKind::Signon {
            power,
            game,
            password,
        } => Some((c.line, *power, game.as_str(), password.as_str())),
        _ => None,
    });
    for (line, power, game, password) in signons.take(most) {
        let Some((seat, hash)) = lockout::seat_signed_on(cx, tx, power, game)? else {
            continue;
        };
        let Some(until) = lockout::lock_of(cx, tx, &seat)? else {
            continue;
        };
        // The same answer whether the password is right, and whether the letter could be
        // kept (at most `held::MOST_HELD` wait): a locked seat tells nothing.
        if password_matches(password, &hash)
            && let Some((_, email)) = &seat.owner
            && may_hold(cx, tx, &seat, email)?
        {
            hold_letter(cx, tx, &seat, email, letter)?;
        }
        // A private game the letter may not see stays a game that does not exist.
        let visible = match tx.game_by_name(game)? {
            Some(row) => secrecy::may_see(cx, tx, &row)?,
            None => false,
        };
        if visible {
            cx.say(msg!(
                "lockout.seat_locked",
                until = cx.when(until),
                game = game
            ));
        } else {
            cx.fail(line, msg!("letter.no_such_game", game = game));
        }
        return Ok(true);
    }
    Ok(false)
}

/// Holds the whole letter for `seat`, and mails its player the token that carries it out.
fn hold_letter(
    cx: &mut Session<'_>,
    tx: &Tx,
    seat: &Seat,
    owner_address: &str,
    letter: &crate::letter::IncomingLetter,
) -> rusqlite::Result<()> {
    let held = Waiting::Letter {
        sender: cx.sender.clone(),
        subject: letter.subject.clone(),
        message_id: letter.message_id.clone(),
        body: letter.body.clone(),
        seats: vec![seat.key.clone()],
    };
    let hours = cx.judge.config.limits.held_wait_hours;
    let request = confirm::request(cx, tx, owner_address, "held", &held, seat.game, hours)?;
    let language = tx.player_language(owner_address)?.unwrap_or_default();
    let words = cx.judge.templates.words(language);
    cx.caused.push(OutgoingLetter::fresh(
        owner_address,
        tr!(words, "lockout.held_subject", seat = seat.name),
        tr!(
            words,
            "lockout.held",
            seat = seat.name,
            sender = cx.sender,
            token = request.token,
            expires = cx.when(request.expires_at)
        ) + "\n",
    ));
    Ok(())
}
