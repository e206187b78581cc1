//! An account's several addresses (a player who writes from home and from work): `I AM ALSO`
//! adds one once a token mailed to it comes back from it, `I AM NOT` removes one, `SET
//! ADDRESS` to one of them makes it the one game letters go to (`choose`), and WHOIS of one's
//! own address lists them (`list`). Each change needs proof that the letter is the account's
//! owner (its password, or a SIGNON to one of its seats earlier in the letter), and the
//! account's chosen address is told of it.
//!
//! An address another account has is refused only when its own reader confirms the request:
//! the asker's answer is the same whoever has the address, so it tells no stranger whose it is.

use chrono::Duration;

use crate::judge::access::confirm;
use crate::judge::access::confirm::Waiting;
use crate::judge::access::lockout;
use crate::judge::access::seat::{Checked, Seat};
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::{Message, Words};
use crate::store::{Added, PlayerRow, Tx};
use crate::{msg, tr};

/// The account this letter may change: the one a SIGNON (or REGISTER) earlier in the letter
/// proved, else the sender's own with its password given on the line. None, and said why
/// (`unregistered` when the sender has no account, `needs_password` when the line has no
/// password or the account none), otherwise.
pub(crate) fn proven_account(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    password: Option<&str>,
    unregistered: Message,
    needs_password: Message,
) -> rusqlite::Result<Option<PlayerRow>> {
    let account = match cx.account_proven {
        Some(id) => Some(tx.player(id)?),
        None => tx.player_by_email(&cx.sender)?,
    };
    let Some(account) = account else {
        cx.fail(line, unregistered);
        return Ok(None);
    };
    if cx.account_proven == Some(account.id) {
        return Ok(Some(account));
    }
    let (Some(password), Some(hash)) = (password, account.password_hash.clone()) else {
        cx.fail(line, needs_password);
        return Ok(None);
    };
    let seat = Seat::account(account.id, &account.email);
    let checked = lockout::check_password(cx, tx, &seat, password, &hash)?;
    if checked != Checked::Right {
        let text = msg!("seats.account_wrong_password", address = account.email);
        lockout::refused(cx, line, checked, text);
        return Ok(None);
    }
    cx.account_proven = Some(account.id);
    Ok(Some(account))
}

/// The words of the language the account at `address` reads its letters in.
/// What bounds a letter's requests to confirm an address (`within_bounds`).
pub(crate) enum Bound {
    /// One request a letter.
    ALetter,
    /// One a day for an account (additions and moves counted together).
    ADay,
    /// One a day to an address, however many accounts name it.
    AskedToday,
}

/// Whether this letter may have the judge mail `new` a request for `account` (an address to
/// add or to move to): one a letter and a day for an account, one a day to an address, a
/// day's bound on what a letter may have the judge mail to other people's addresses. If so,
/// the request is counted; if not, the letter is told which bound it met (`refusal`).
pub(crate) fn within_bounds(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    account: &PlayerRow,
    new: &str,
    refusal: impl Fn(Bound) -> Message,
) -> rusqlite::Result<bool> {
    let day_ago = cx.now - Duration::days(1);
    let met = if cx.moves_asked > 0 {
        Some(Bound::ALetter)
    } else if tx.moves_asked(account.id, day_ago)? > 0 {
        Some(Bound::ADay)
    } else if tx.requests_mailed(new, "address", day_ago)? > 0 {
        Some(Bound::AskedToday)
    } else {
        None
    };
    if let Some(bound) = met {
        cx.fail(line, refusal(bound));
        return Ok(false);
    }
    cx.moves_asked += 1;
    Ok(true)
}

/// Tells `to` of a change to its account (`addresses.subject`), in the language of the
/// account read by `language_of`, unless the answer goes there anyway.
fn tell(
    cx: &mut Session<'_>,
    tx: &Tx,
    to: &str,
    language_of: &str,
    notice: Message,
) -> rusqlite::Result<()> {
    if to == cx.answer_to {
        return Ok(());
    }
    let words = words_of(cx, tx, language_of)?;
    cx.caused.push(OutgoingLetter::fresh(
        to,
        tr!(words, "addresses.subject"),
        words.message(&notice) + "\n",
    ));
    Ok(())
}

/// Mails `new` the token of a request about `account`'s addresses that waits for it
/// (`waiting`: an address to add or to move to), in this letter's words; `letter` says what
/// it is for, given the token and when it expires.
pub(crate) fn mail_request(
    cx: &mut Session<'_>,
    tx: &Tx,
    account: &PlayerRow,
    new: &str,
    waiting: &Waiting,
    letter: impl Fn(&str, crate::report::When) -> Message,
) -> rusqlite::Result<()> {
    let hours = cx.judge.config.limits.confirm_hours;
    let request = confirm::request(cx, tx, new, "address", waiting, None, hours)?;
    tx.set_request_account(request.id, account.id)?;
    let words = cx.words();
    let body = letter(&request.token, cx.when(request.expires_at));
    cx.caused.push(OutgoingLetter::fresh(
        new,
        tr!(words, "confirm.subject"),
        words.message(&body) + "\n",
    ));
    Ok(())
}

fn words_of<'j>(cx: &Session<'j>, tx: &Tx, address: &str) -> rusqlite::Result<Words<'j>> {
    let language = tx.player_language(address)?.unwrap_or(cx.language);
    Ok(cx.judge.templates.words(language))
}

/// The account's addresses as its owner reads them: `a, b`, and which one game letters go to.
fn list(tx: &Tx, account: i64) -> rusqlite::Result<Message> {
    let all = tx.addresses_of(account)?;
    Ok(msg!(
        "addresses.list",
        addresses = all.join(", "),
        chosen = all[0]
    ))
}

/// The line WHOIS adds for an owner asking about their own account: its addresses.
pub(crate) fn whois_line(cx: &Session<'_>, tx: &Tx, account: i64) -> rusqlite::Result<String> {
    Ok(cx.words().message(&list(tx, account)?))
}

/// `I AM ALSO address [password]`: a token goes to the new address; once it comes back from
/// there, letters from it act for the account (`added`). The new address is the one named,
/// or, when the named one is the account's already (njudge's way round: written from the new
/// address, naming the registered one), the sender's.
pub(crate) fn i_am_also(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    address: &str,
    password: Option<&str>,
) -> rusqlite::Result<()> {
    let unregistered = msg!("addresses.not_registered", address = cx.sender);
    let needs = msg!("addresses.needs_password", command = "I AM ALSO");
    let Some(account) = proven_account(cx, tx, line, password, unregistered, needs)? else {
        return Ok(());
    };
    let own = tx.addresses_of(account.id)?;
    let address = address.to_lowercase();
    let new = if own.contains(&address) {
        cx.sender.clone()
    } else {
        address
    };
    if own.contains(&new) {
        cx.fail(line, msg!("addresses.already", address = new));
        return Ok(());
    }
    let most = cx.judge.config.limits.addresses_per_account;
    if own.len() >= most as usize {
        cx.fail(line, msg!("addresses.most", most = most));
        return Ok(());
    }
    // Counted with SET ADDRESS's moves.
    let refusal = |bound| match bound {
        Bound::ALetter => msg!("addresses.one_a_letter"),
        Bound::ADay => msg!("addresses.one_a_day", address = account.email),
        Bound::AskedToday => msg!("addresses.asked_today", address = new),
    };
    if !within_bounds(cx, tx, line, &account, &new, refusal)? {
        return Ok(());
    }
    let waiting = Waiting::Add {
        player: account.id,
        account: account.email.clone(),
    };
    mail_request(cx, tx, &account, &new, &waiting, |token, expires| {
        msg!(
            "addresses.confirm",
            account = account.email,
            new = new,
            token = token,
            expires = expires
        )
    })?;
    let asked = msg!(
        "addresses.asked",
        account = account.email,
        new = new,
        sender = cx.sender,
        keeper = cx.judge.config.judge.keeper
    );
    tell(cx, tx, &account.email, &account.email, asked)?;
    cx.say(msg!("addresses.waits", account = account.email, new = new));
    Ok(())
}

/// CONFIRM of an `I AM ALSO` request, from the new address: it joins account `player`,
/// unless another account has it or the account has all the addresses it may.
pub(crate) fn added(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    player: i64,
) -> rusqlite::Result<()> {
    let new = cx.sender.clone();
    if tx.identity(player)?.is_none() {
        cx.fail(line, msg!("addresses.taken", address = new));
        return Ok(());
    }
    let most = cx.judge.config.limits.addresses_per_account;
    if tx.account_of(&new)? != Some(player) && tx.addresses_of(player)?.len() >= most as usize {
        cx.fail(line, msg!("addresses.full", address = new, most = most));
        return Ok(());
    }
    match tx.add_address(player, &new, cx.now)? {
        Added::Taken => {
            cx.fail(line, msg!("addresses.taken", address = new));
            return Ok(());
        }
        Added::Already => {
            cx.say(msg!("addresses.already", address = new));
            return Ok(());
        }
        Added::Added => {}
    }
    let account = tx.player(player)?;
    if let Some(language) = tx.player_language(&account.email)? {
        cx.language = language;
    }
    cx.account = Some(player);
    cx.addresses = tx.addresses_of(player)?;
    cx.say(msg!("addresses.added", new = new, account = account.email));
    cx.say(list(tx, player)?);
    let notice = msg!(
        "addresses.added_notice",
        new = new,
        keeper = cx.judge.config.judge.keeper
    );
    tell(cx, tx, &account.email, &account.email, notice)
}

/// `I AM NOT address [password]`: the address no longer acts for the account. The chosen
/// address is not removed while it is the chosen one. The removed address and the chosen
/// one are told (whichever the answer does not go to).
pub(crate) fn i_am_not(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    address: &str,
    password: Option<&str>,
) -> rusqlite::Result<()> {
    let unregistered = msg!("wishes.not_registered", address = cx.sender);
    let needs = msg!("addresses.needs_password", command = "I AM NOT");
    let Some(account) = proven_account(cx, tx, line, password, unregistered, needs)? else {
        return Ok(());
    };
    let address = address.to_lowercase();
    if address == account.email {
        cx.fail(line, msg!("addresses.chosen_stays", address = address));
        return Ok(());
    }
    if !tx.remove_address(account.id, &address)? {
        cx.fail(line, msg!("addresses.not_yours", address = address));
        return Ok(());
    }
    cx.say(msg!("addresses.removed", address = address));
    cx.say(list(tx, account.id)?);
    let notice = msg!(
        "addresses.removed_notice",
        address = address,
        account = account.email,
        sender = cx.sender,
        keeper = cx.judge.config.judge.keeper
    );
    for to in [&address, &account.email] {
        tell(cx, tx, to, &account.email, notice.clone())?;
    }
    Ok(())
}

/// `SET ADDRESS address` to a further address of the account (proven already): game letters
/// go there from now on, no token needed; the address they went to stays the account's and
/// is told (unless the answer goes there).
pub(crate) fn choose(
    cx: &mut Session<'_>,
    tx: &Tx,
    account: &PlayerRow,
    address: &str,
) -> rusqlite::Result<()> {
    let old = account.email.clone();
    if !tx.choose_address(account.id, address, cx.now)? {
        return Ok(());
    }
    cx.say(msg!("addresses.chosen", address = address, old = old));
    cx.say(list(tx, account.id)?);
    let notice = msg!(
        "addresses.chosen_notice",
        address = address,
        old = old,
        sender = cx.sender,
        keeper = cx.judge.config.judge.keeper
    );
    tell(cx, tx, &old, address, notice)
}
