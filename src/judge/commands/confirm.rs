//! CONFIRM token: what waited for an address's proof is carried out, if the token comes back
//! from the address it was mailed to, in the sender's own words (`access/confirm.rs` makes
//! the tokens and holds what waits).

use crate::judge::access::confirm::Waiting;
use crate::judge::access::lockout;
use crate::judge::commands::addresses;
use crate::judge::session::{Confirmed, Session};
use crate::letter::{Address, IncomingLetter, OutgoingLetter};
use crate::store::Tx;
use crate::{msg, tr};

/// CONFIRM token: carries out what waited for it, if it comes back from the address it
/// was mailed to, in the sender's own words (not in a copy of the judge's letter).
pub(crate) fn confirm(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    token: &str,
) -> rusqlite::Result<()> {
    // The letter's reader has already left out what a reply reproduces in the forms the
    // mail clients write; a copy it could not tell (indented, say) still shows the
    // judge's own words around the token, and then confirms nothing.
    if copies_a_request(cx.judge.templates.messages(), &cx.own_words) {
        cx.fail(line, msg!("confirm.in_a_copy"));
        return Ok(());
    }
    if cx.failures >= cx.judge.config.limits.password_failures_per_letter {
        lockout::refused(
            cx,
            line,
            crate::judge::access::seat::Checked::Exhausted,
            msg!("confirm.used"),
        );
        return Ok(());
    }
    let request = tx
        .request_by_token(token)?
        .filter(|r| r.address == cx.sender);
    let Some(request) = request else {
        // A token that is not this address's counts as a wrong password does.
        cx.failures += 1;
        cx.fail(line, msg!("confirm.unknown", address = cx.sender));
        return Ok(());
    };
    if request.state == "done" {
        cx.fail(line, msg!("confirm.used"));
        return Ok(());
    }
    if request.state != "pending" || request.expires_at <= cx.now {
        tx.settle_request(request.id, "expired")?;
        cx.fail(line, msg!("confirm.expired"));
        return Ok(());
    }
    tx.settle_request(request.id, "done")?;
    // What the request held is no longer needed (a held letter's body holds passwords).
    tx.clear_request_payload(request.id)?;
    let waiting: Option<Waiting> = serde_json::from_str(&request.payload).ok();
    cx.say(msg!("confirm.confirmed", address = cx.sender));
    match waiting {
        Some(Waiting::Letter {
            sender,
            subject,
            message_id,
            body,
            seats,
        }) => {
            cx.say(msg!(
                "confirm.letter_carried_out",
                when = cx.when(request.created_at)
            ));
            let letter = IncomingLetter {
                message_id: format!("{message_id}#confirmed"),
                from: Some(Address::new(&sender)),
                reply_to: None,
                to: Vec::new(),
                subject,
                size: body.len(),
                body,
                automatic: None,
                references: Vec::new(),
                warnings: Vec::new(),
                refused_from: None,
            };
            let confirmed = if request.kind == "held" {
                Confirmed::ForSeats(seats)
            } else {
                Confirmed::BySender
            };
            let handled = crate::judge::session::handle::handle_confirmed(
                cx.judge,
                tx,
                &letter,
                cx.now,
                confirmed,
                request.created_at,
            )?;
            cx.caused.extend(handled.letters);
            // This answer speaks as the held letter's does: in the language the account
            // has now (the held letter may have chosen it), else the one it was written in.
            match tx.player_language(&cx.sender)? {
                Some(language) => cx.language = language,
                None => cx.answer_in_letter_language(tx, &letter)?,
            }
        }
        Some(Waiting::Move { player, from }) => move_account(cx, tx, line, player, &from)?,
        Some(Waiting::Add { player, .. }) => addresses::added(cx, tx, line, player)?,
        None => {}
    }
    // Proven from now on (after a move, the account now at this address).
    tx.confirm_address(&cx.sender, cx.now)?;
    cx.proven = true;
    Ok(())
}

/// The account moves to the confirming address; the old address is told.
fn move_account(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    player: i64,
    from: &str,
) -> rusqlite::Result<()> {
    let to = cx.sender.clone();
    if !tx.change_email(player, &to)? {
        cx.fail(line, msg!("wishes.address_taken", address = to));
        return Ok(());
    }
    let words = cx.words();
    cx.caused.push(OutgoingLetter::fresh(
        from,
        tr!(words, "wishes.address_subject"),
        tr!(
            words,
            "wishes.address_moved",
            old = from,
            new = to,
            keeper = cx.judge.config.judge.keeper
        ) + "\n",
    ));
    cx.say(msg!("wishes.address_changed", address = to));
    cx.answer_to = to;
    Ok(())
}

/// The catalog messages that show a token to send back (in every language).
const REQUESTS: [&str; 4] = [
    "confirm.send_back",
    "wishes.address_confirm",
    "addresses.confirm",
    "lockout.held",
];

/// Words at least this long of a request's fixed text show that it was copied.
const FRAGMENT_CHARS: usize = 24;

/// Whether the sender's own words `own` hold a copy of the judge's own words in one of the
/// letters that show a token (a fixed run of at least `FRAGMENT_CHARS` of them, compared
/// without case, punctuation or line breaks, so a rewrapped or indented copy is found too).
fn copies_a_request(messages: &crate::report::Messages, own: &str) -> bool {
    if own.trim().is_empty() {
        return false;
    }
    let own = comparable(own);
    messages.languages().any(|language| {
        REQUESTS
            .iter()
            .filter_map(|key| messages.get(language, key))
            .any(|text| {
                fixed_runs(text)
                    .map(|run| comparable(&run))
                    .filter(|run| run.chars().count() >= FRAGMENT_CHARS)
                    .any(|run| own.contains(&run))
            })
    })
}

/// The runs of a catalog text between its placeholders (`{address}`, `{token}`...).
fn fixed_runs(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split('{').enumerate().map(|(i, piece)| {
        if i == 0 {
            piece.to_string()
        } else {
            piece
                .split_once('}')
                .map_or(String::new(), |(_, rest)| rest.to_string())
        }
    })
}

/// Text as compared for copies: lower-case letters and digits, every other run one space.
fn comparable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_of_a_request_is_found_however_it_is_wrapped_or_indented() {
        let messages = crate::report::Messages::built_in();
        let copy = "No!\n\n    Anyone can put another's address on a letter, so before the judge\n    writes regularly to bob@x.test, or changes its account, it asks the\n    address itself.\n\n    CONFIRM abc";
        assert!(copies_a_request(messages, copy));
        let russian = "Чужой адрес может поставить на письмо кто угодно, поэтому, прежде чем\nрегулярно писать на bob@x.test или менять его учётную запись, судья\nспрашивает";
        assert!(copies_a_request(messages, russian));
        assert!(!copies_a_request(
            messages,
            "CONFIRM abc\nYes, that was me."
        ));
        assert!(!copies_a_request(messages, ""));
    }
}
