//! Secrets kept by a letter's session (docs/security.md, "Secrecy"): who may see a game and
//! join it, and the address a player shows.
//!
//! - A private game (`SET PRIVATE`, `CREATE ... PRIVATE`) is seen (LIST, LIST game, HISTORY,
//!   SUMMARY, OBSERVE, WHOIS's games, the web archive) only by its members and the addresses
//!   it allows; anyone else gets the very answer a game that does not exist gets. Whoever
//!   knows its name may still join it while it forms, or take over a power without a
//!   player, unless it has an allow list (njudge's NOLIST); a power's player signs on with
//!   its password from any address: `may_see`, `find_game_to_join`.
//! - How members are named to each reader, and the rules of anonymous games, are the game's
//!   own (`game/secrecy.rs`); `SET SHOW ADDRESS` is confirmed by a code mailed to the address.

use crate::game::secrecy::{Identity, Reader, by_reader, identities_hidden, make_anonymous, named};
use crate::game::{GameKind, GameState};
use crate::judge::access::seat::Checked;
use crate::judge::access::seat::Seat;
use crate::judge::session::Session;

use crate::judge::access::lockout;
use crate::msg;
use crate::report::messages::Message;
use crate::store::{GameRow, Tx};

/// The code that shows `address` (`SET SHOW ADDRESS code`): the first five bytes, in hex,
/// of HMAC-SHA256 over the address under the judge's key (drawn on first use); `None` when
/// no key could be drawn.
fn address_code(tx: &Tx, address: &str) -> rusqlite::Result<Option<String>> {
    use hmac::{Hmac, KeyInit, Mac};
    let key = match tx.address_key()? {
        Some(key) => key,
        None => {
            let mut key = [0u8; 32];
            if getrandom::fill(&mut key).is_err() {
                return Ok(None);
            }
            tx.set_address_key(&key)?;
            key.to_vec()
        }
    };
    let Ok(mut mac) = <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(&key) else {
        return Ok(None);
    };
    mac.update(b"show-address\0");
    mac.update(address.to_lowercase().as_bytes());
    let digest = mac.finalize().into_bytes();
    Ok(Some(
        digest[..5].iter().map(|b| format!("{b:02x}")).collect(),
    ))
}

/// Whether the letter may see `game`: a public game, or a private one it is a member
/// of (signed on in it, or writing from a member's address) or allowed into.
pub(crate) fn may_see(cx: &Session<'_>, tx: &Tx, game: &GameRow) -> rusqlite::Result<bool> {
    let settings = game.settings.clone();
    if settings.public || cx.addresses.iter().any(|a| settings.allow.contains(a)) {
        return Ok(true);
    }
    let signed_on = [
        cx.signed_on.as_ref().map(|(g, _)| g),
        cx.master_of.as_ref(),
        cx.watching.as_ref(),
        cx.joined.as_ref(),
    ];
    if signed_on.iter().flatten().any(|g| g.id == game.id) {
        return Ok(true);
    }
    let Some(player) = tx.player_by_email(&cx.sender)? else {
        return Ok(false);
    };
    Ok(tx
        .members(game.id)?
        .iter()
        .any(|m| m.player_id == player.id))
}

/// Whether the game's allow and deny lists let the sender in: a list names an account by
/// any of its addresses.
pub(crate) fn may_enter(cx: &Session<'_>, game: &GameRow) -> bool {
    let settings = game.settings.clone();
    let listed = |list: &[String]| cx.addresses.iter().any(|a| list.contains(a));
    !listed(&settings.deny) && (settings.allow.is_empty() || listed(&settings.allow))
}

/// The game named `name` for SIGNON: one the letter may see; or a private one it may
/// join (forming, `power` none) or sign on to as a power (`power`: its letter and the
/// password given): the power's player with the power's password (writing from
/// another address), or anyone the game's lists let in taking over a power without a
/// player. Anything else is answered as a game that does not exist.
pub(crate) fn find_game_to_join(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    name: &str,
    power: Option<(char, &str)>,
) -> rusqlite::Result<Option<GameRow>> {
    if let Some(game) = tx.game_by_name(name)? {
        // Seen already: the command checks the password itself (once).
        if may_see(cx, tx, &game)? {
            return Ok(Some(game));
        }
        let joinable = match power {
            None => may_enter(cx, &game) && game.state == GameState::Forming,
            // Here I Stand games are signed on to through `his_game`.
            Some(_) if game.kind() == GameKind::HereIStand => false,
            Some((letter, password)) => may_sign_on(cx, tx, &game, letter, password)?,
        };
        if joinable {
            return Ok(Some(game));
        }
    }
    cx.fail(line, msg!("letter.no_such_game", game = name));
    Ok(None)
}

/// Whether the letter may see `game`, or (signing on with a power's `letter` and a
/// `password`) sign on to that power: see `find_game_to_join`.
pub(crate) fn may_see_or_sign_on(
    cx: &mut Session<'_>,
    tx: &Tx,
    game: &GameRow,
    power: Option<(char, &str)>,
) -> rusqlite::Result<bool> {
    if may_see(cx, tx, game)? {
        return Ok(true);
    }
    match power {
        Some((letter, password)) => may_sign_on(cx, tx, game, letter, password),
        None => Ok(false),
    }
}

/// Whether a letter that may not see running `game` may still sign on as its power
/// `letter` with `password`: the power's player, with its password (checked as every
/// password is, counted and locked: `lockout`); or, the power without a player, anyone
/// the game's lists let in.
fn may_sign_on(
    cx: &mut Session<'_>,
    tx: &Tx,
    game: &GameRow,
    letter: char,
    password: &str,
) -> rusqlite::Result<bool> {
    if game.state != GameState::Active {
        return Ok(false);
    }
    let power = if game.kind() == GameKind::HereIStand {
        crate::judge::his::power_by_letter(letter).map(|p| {
            let name = p.name().to_string();
            (p.id().to_string(), name)
        })
    } else {
        cx.judge.variant(&game.variant).and_then(|v| {
            v.map
                .powers
                .iter()
                .find(|p| p.letter.eq_ignore_ascii_case(&letter))
                .map(|p| (p.id.clone(), p.name.clone()))
        })
    };
    let Some((power, name)) = power else {
        return Ok(false);
    };
    let holder = tx
        .members(game.id)?
        .into_iter()
        .find(|m| m.power.as_deref() == Some(power.as_str()));
    Ok(match holder {
        Some(holder) => {
            let owner = Some((holder.player_id, holder.email.clone()));
            let seat = Seat::power(game, &power, &name, owner);
            lockout::check_password(cx, tx, &seat, password, &holder.password_hash)?
                == Checked::Right
        }
        None => may_enter(cx, game),
    })
}

/// The games the letter may see, in LIST's order.
pub(crate) fn visible_games(cx: &Session<'_>, tx: &Tx) -> rusqlite::Result<Vec<GameRow>> {
    let mut games = Vec::new();
    for game in tx.games()? {
        if may_see(cx, tx, &game)? {
            games.push(game);
        }
    }
    Ok(games)
}

/// Who reads this letter's answer about `game`: a master of it if signed on as one.
pub(crate) fn reader_for(cx: &Session<'_>, game: &GameRow) -> Reader {
    if cx.is_master_of(game) {
        Reader::Master
    } else {
        Reader::Other
    }
}

/// Says `masters` in the answer of a master of `game` signed on as such, and `public`
/// in any copy of it for others (BECOME); to anyone else, `public`.
pub(crate) fn say_by_reader(
    cx: &mut Session<'_>,
    game: &GameRow,
    public: Message,
    masters: Message,
) {
    if cx.is_master_of(game) {
        cx.say(by_reader(game.id, public, masters));
    } else {
        cx.say(public);
    }
}

/// The player `player_id` of `game`, named for whoever reads it.
pub(crate) fn member_named(tx: &Tx, game: &GameRow, player_id: i64) -> rusqlite::Result<Message> {
    Ok(named(
        &Identity::of_player(tx, player_id)?,
        identities_hidden(game),
        game.id,
    ))
}

/// `SET SHOW ADDRESS [code]`: the address the answer goes to is shown to the other
/// members of its player's games. Without the code, the code is mailed there (in the
/// answer); with the right one, it is done. A forged letter never reads the answer, so it
/// can never show anyone's address.
pub(crate) fn show_address(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    code: Option<&str>,
) -> rusqlite::Result<()> {
    let address = cx.answer_to.clone();
    let Some(expected) = address_code(tx, &address)? else {
        cx.fail(line, msg!("secrecy.no_key"));
        return Ok(());
    };
    match (code, tx.player_by_email(&address)?) {
        (Some(code), Some(player)) if code == expected => {
            tx.set_show_address(player.id, true)?;
            // The address shown is the one game letters go to, whichever of the account's
            // addresses the code came back from.
            cx.say(msg!("secrecy.address_shown", address = player.email));
        }
        (Some(_), _) => cx.fail(line, msg!("secrecy.wrong_code", address = address)),
        (None, _) => cx.say(msg!(
            "secrecy.show_code",
            address = address,
            code = expected
        )),
    }
    Ok(())
}

/// `SET HIDE ADDRESS`: only the masters of its player's games see the address the answer
/// goes to. Hiding needs no proof: it gives nothing away.
pub(crate) fn hide_address(cx: &mut Session<'_>, tx: &Tx) -> rusqlite::Result<()> {
    if let Some(player) = tx.player_by_email(&cx.answer_to)? {
        tx.set_show_address(player.id, false)?;
    }
    cx.say(msg!("secrecy.address_hidden"));
    Ok(())
}

/// CREATE with its options: `create` makes the game (nothing else may, so an option is
/// never laid on a game that was there before), then PRIVATE and ANONYMOUS are set on
/// it and said.
pub(crate) fn creating(
    cx: &mut Session<'_>,
    tx: &Tx,
    name: &str,
    private: bool,
    anonymous: bool,
    create: impl FnOnce(&mut Session<'_>) -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    let existed = tx.game_by_name(name)?.is_some();
    create(cx)?;
    if existed || !(private || anonymous) {
        return Ok(());
    }
    let Some(mut game) = tx.game_by_name(name)? else {
        return Ok(());
    };
    let mut settings = game.settings.clone();
    if private {
        settings.public = false;
        cx.say(msg!("secrecy.created_private", game = game.name));
    }
    // (A Here I Stand game runs from its creation: it is anonymous from the start too.)
    if anonymous {
        make_anonymous(&mut settings, true);
        cx.say(msg!("secrecy.created_anonymous", game = game.name));
    }
    game.settings = settings;
    tx.save_game(&game)?;
    for seat in [&mut cx.joined, &mut cx.master_of].into_iter().flatten() {
        if seat.id == game.id {
            seat.settings = game.settings.clone();
        }
    }
    Ok(())
}

/// The game a command names, or else the one the letter is signed on to (as a player,
/// master or observer); `needs` is said when there is neither. `None` when there is none
/// the letter may see (said too).
pub(crate) fn game_asked(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: Option<&str>,
    needs: Message,
) -> rusqlite::Result<Option<GameRow>> {
    let signed = cx
        .signed_on
        .as_ref()
        .map(|(g, _)| g)
        .or(cx.master_of.as_ref())
        .or(cx.watching.as_ref());
    let name = match (game, signed) {
        (Some(name), _) => name.to_string(),
        (None, Some(row)) => row.name.clone(),
        (None, None) => {
            cx.fail(line, needs);
            return Ok(None);
        }
    };
    find_game(cx, tx, line, &name)
}

/// The game named `name`, or an error for the player when there is none.
pub(crate) fn find_game(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    name: &str,
) -> rusqlite::Result<Option<GameRow>> {
    let mut found = tx.game_by_name(name)?;
    if !cx.named_games.iter().any(|n| n == name) {
        cx.named_games.push(name.to_string());
    }
    // A private game the letter may not see is answered as one that does not exist.
    if let Some(game) = &found
        && !may_see(cx, tx, game)?
    {
        found = None;
    }
    if found.is_none() {
        cx.fail(line, msg!("letter.no_such_game", game = name));
    }
    Ok(found)
}
