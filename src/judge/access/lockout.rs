//! Passwords that cannot be guessed: every wrong password is counted for its seat and for
//! the account that owns the seat; after a few within an hour the seat (or the whole
//! account) is locked for a while, and no password is checked for it, so guessing stops;
//! its owner gets one letter summing up the failures. One letter stops checking passwords
//! after a few wrong ones. A lock never keeps a player from playing: a letter that signs on
//! to a locked seat with the right password is held (`held.rs`), and a token goes to the
//! seat's registered address; when it comes back from there, the letter is carried out (a
//! deadline waits for it, within reason). Whether the password was right, the sender is
//! told the same.

use crate::game::GameKind;
use chrono::{DateTime, Duration, Utc};

use super::seat::{Checked, Seat};
use crate::judge::access::password::password_matches;
use crate::judge::session::Confirmed;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::Message;
use crate::store::Tx;
use crate::{msg, tr};

/// Until when `seat` is locked (the seat itself, or its owner's account), unless this
/// letter was confirmed for it.
pub(crate) fn lock_of(
    cx: &Session<'_>,
    tx: &Tx,
    seat: &Seat,
) -> rusqlite::Result<Option<DateTime<Utc>>> {
    if let Confirmed::ForSeats(seats) = &cx.confirmed
        && seats.contains(&seat.key)
    {
        return Ok(None);
    }
    let mut until = tx.locked_until(&seat.key, cx.now)?;
    if let Some((account, _)) = seat.owner.as_ref().filter(|_| !seat.anonymous) {
        let whole = tx.locked_until(&format!("account:{account}"), cx.now)?;
        until = until.max(whole);
    }
    Ok(until)
}

/// Checks `password` against `hash` for `seat`, counting a wrong one and locking the seat
/// when there have been too many.
pub(crate) fn check_password(
    cx: &mut Session<'_>,
    tx: &Tx,
    seat: &Seat,
    password: &str,
    hash: &str,
) -> rusqlite::Result<Checked> {
    let limits = &cx.judge.config.limits;
    if cx.failures >= limits.password_failures_per_letter {
        return Ok(Checked::Exhausted);
    }
    if let Some(until) = lock_of(cx, tx, seat)? {
        return Ok(Checked::Locked(until));
    }
    if password_matches(password, hash) {
        return Ok(Checked::Right);
    }
    cx.failures += 1;
    cx.failed_seats.push(seat.clone());
    wrong_password(cx, tx, seat)?;
    Ok(Checked::Wrong)
}

/// Counts a wrong password for `seat`; locks the seat, or its owner's whole account, when
/// the hour holds too many, and tells the owner once.
pub(crate) fn wrong_password(cx: &mut Session<'_>, tx: &Tx, seat: &Seat) -> rusqlite::Result<()> {
    let limits = &cx.judge.config.limits;
    let most = limits.password_failures_per_hour as usize;
    let lock_for = Duration::minutes(i64::from(limits.lock_minutes.max(1)));
    let hour_ago = cx.now - Duration::hours(1);
    let account = seat
        .owner
        .as_ref()
        .filter(|_| !seat.anonymous)
        .map(|(id, _)| *id);
    tx.add_password_failure(&seat.key, account, &cx.sender, cx.now)?;
    tx.forget_failures(cx.now - Duration::days(1))?;
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
    if tx.locked_until(&locked, cx.now)?.is_some() {
        return Ok(());
    }
    let until = cx.now + lock_for;
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
    let words = cx.judge.templates.words(language);
    let what = if locked.starts_with("account:") {
        tr!(words, "lockout.whole_account", address = email)
    } else {
        seat.name.clone()
    };
    cx.caused.push(OutgoingLetter::fresh(
        email,
        tr!(words, "lockout.locked_subject", seat = what),
        tr!(
            words,
            "lockout.locked",
            seat = what,
            count = failures.len(),
            from = from,
            until = cx.when(until)
        ) + "\n",
    ));
    Ok(())
}

/// The seat a SIGNON names, with its password hash, if it has one.
pub(crate) fn seat_signed_on(
    cx: &Session<'_>,
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
                cx.judge.variant(&row.variant).and_then(|v| {
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
            let Some(player) = tx.player_by_email(&cx.sender)? else {
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

/// Says why a password opened nothing: wrong, the seat locked, or no more checks.
pub(crate) fn refused(cx: &mut Session<'_>, line: usize, checked: Checked, wrong: Message) {
    match checked {
        Checked::Right => {}
        Checked::Wrong => cx.fail(line, wrong),
        Checked::Locked(until) => {
            let until = cx.when(until);
            cx.fail(line, msg!("lockout.locked_now", until = until));
        }
        // Said once; the others are counted and summed up at the end of the answer.
        Checked::Exhausted if cx.unchecked == 0 => {
            cx.unchecked += 1;
            cx.fail(line, msg!("lockout.no_more_checks"));
        }
        Checked::Exhausted => cx.unchecked += 1,
    }
}
