//! One incoming letter, command by command, and the answer it gets: what was understood,
//! each error with its line, the power's orders in force, the deadline and who still owes.

use chrono::{DateTime, Utc};

use crate::judge::Handled;

use crate::judge::Judge;
use crate::letter::IncomingLetter;
use crate::msg;
use crate::store::{GameRow, Tx};
use crate::text::Severity;
use crate::text::command::{Command, CommandKind, parse_commands};

use super::{Confirmed, Session};
use crate::judge::access::confirm;
use crate::judge::access::held;
use crate::judge::access::lockout;
use crate::judge::commands::play;
use crate::judge::commands::seats;

/// Handles `letter`; returns the letters to send and whether anything was done.
pub(crate) fn handle(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
) -> rusqlite::Result<Handled> {
    handle_as(judge, tx, letter, now, None)
}

/// Handles `letter`, as the master of `master_of` when given (the operator's own commands,
/// which need no password).
pub(crate) fn handle_as(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
    master_of: Option<GameRow>,
) -> rusqlite::Result<Handled> {
    handle_inner(judge, tx, letter, now, master_of, Confirmed::No, None)
}

/// Handles a held letter, written at `written_at`, whose token came back.
pub(crate) fn handle_confirmed(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
    confirmed: Confirmed,
    written_at: DateTime<Utc>,
) -> rusqlite::Result<Handled> {
    handle_inner(judge, tx, letter, now, None, confirmed, Some(written_at))
}

fn handle_inner(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
    master_of: Option<GameRow>,
    confirmed: Confirmed,
    written_at: Option<DateTime<Utc>>,
) -> rusqlite::Result<Handled> {
    let Some(from) = &letter.from else {
        return Ok(Handled::default());
    };
    if letter.automatic.is_some() {
        return Ok(Handled::default());
    }
    let sender = from.email.to_lowercase();
    let (mut commands, diagnostics) = parse_commands(&letter.body);
    // At most so many commands a letter: the rest are not read (and said so).
    let most = judge.config.limits.commands_per_letter as usize;
    let unread = commands.len().saturating_sub(most);
    commands.truncate(most);
    let unread_orders = keep_order_lines(
        &mut commands,
        judge.config.limits.order_lines_per_letter as usize,
    );
    let mut session = Session::new(judge, tx, now, sender, master_of, confirmed)?;
    session.answer_in_letter_language(tx, letter)?;
    session.unread = unread;
    session.unread_orders = unread_orders;
    session.written_at = written_at;
    if commands
        .iter()
        .any(|c| matches!(c.kind, CommandKind::Confirm { .. }))
    {
        session.own_words = crate::text::command::own_text(&letter.body);
    }
    if held::stopped_by_lock(&mut session, tx, &commands, letter)? {
        // Nothing of the letter was done (whether it was held is not told).
        let mut handled = session.answer(tx, letter, &commands)?;
        handled.effective = false;
        return Ok(handled);
    }
    // The letter is tried; if it asks for anything that needs its address's confirmation
    // (from an address not yet proven, anything that would make the judge write to it
    // regularly; from any address, a change to an account without its password), nothing of it
    // is kept: the whole letter waits for the address to send its token back, and is then
    // carried out as sent.
    tx.savepoint("letter")?;
    session.read(tx, letter, &commands, &diagnostics)?;
    if session.pending.is_empty() {
        tx.release("letter")?;
        return session.answer(tx, letter, &commands);
    }
    tx.rollback_to("letter")?;
    tx.release("letter")?;
    let waiting = std::mem::take(&mut session.pending);
    let failed = std::mem::take(&mut session.failed_seats);
    let mut held = Session::new(judge, tx, now, session.sender.clone(), None, Confirmed::No)?;
    held.answer_in_letter_language(tx, letter)?;
    // Wrong passwords count whatever becomes of the letter.
    for seat in &failed {
        lockout::wrong_password(&mut held, tx, seat)?;
    }
    let requested = confirm::hold_for_sender(&mut held, tx, letter, waiting)?;
    let mut handled = held.answer(tx, letter, &[])?;
    handled.summary = crate::judge::LetterSummary {
        held: true,
        ..session.logged(&commands)
    };
    // A request was made: not an answer to a letter that did nothing (with too many waiting
    // already, nothing was done, and identical answers back off).
    handled.effective = requested;
    Ok(handled)
}

impl Session<'_> {
    /// Runs the letter's commands, then what waits for the whole letter: games it filled
    /// start, games whose orders are all in are processed.
    pub(crate) fn read(
        &mut self,
        tx: &Tx,
        letter: &IncomingLetter,
        commands: &[Command],
        diagnostics: &[crate::text::Diagnostic],
    ) -> rusqlite::Result<()> {
        for warning in &letter.warnings {
            self.say(msg!("letter.note", warning = warning));
        }
        for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
            self.fail(d.line, d.said.clone());
        }
        if commands.is_empty() && diagnostics.is_empty() {
            self.say(msg!("letter.no_commands"));
        }
        for command in commands {
            self.run(tx, command)?;
        }
        if self.unread > 0 {
            self.say(msg!(
                "limits.commands",
                most = self.judge.config.limits.commands_per_letter,
                count = self.unread
            ));
        }
        if self.unread_orders > 0 {
            self.say(msg!(
                "limits.order_lines",
                most = self.judge.config.limits.order_lines_per_letter,
                count = self.unread_orders
            ));
        }
        seats::start_filled(self, tx)?;
        if self.unchecked > 1 {
            self.say(msg!("lockout.unchecked", count = self.unchecked));
        }
        play::process_touched(self, tx)
    }
}

/// Keeps the first `most` non-blank order lines of the letter's order blocks (in order) and
/// drops the rest, blocks left empty included; returns how many lines were dropped.
fn keep_order_lines(commands: &mut Vec<Command>, most: usize) -> usize {
    let mut left = most;
    let mut dropped = 0;
    commands.retain_mut(|command| {
        let CommandKind::Orders { text } = &mut command.kind else {
            return true;
        };
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        if lines <= left {
            left -= lines;
            return true;
        }
        dropped += lines - left;
        if left == 0 {
            return false;
        }
        let mut kept = 0;
        let cut = text
            .lines()
            .take_while(|l| {
                if kept == left {
                    return false;
                }
                kept += usize::from(!l.trim().is_empty());
                true
            })
            .collect::<Vec<_>>()
            .join("\n");
        *text = cut;
        left = 0;
        true
    });
    dropped
}
