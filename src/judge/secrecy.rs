//! Secrets kept: who may see a game, and how a member is named to each reader
//! (docs/security.md, "Secrecy").
//!
//! - A private game (`SET PRIVATE`, `CREATE ... PRIVATE`) is seen (LIST, LIST game, HISTORY,
//!   SUMMARY, OBSERVE, WHOIS's games, the web archive) only by its members and the addresses
//!   it allows; anyone else gets the very answer a game that does not exist gets. Whoever
//!   knows its name may still join it while it forms, or take over a power without a
//!   player, unless it has an allow list (njudge's NOLIST); a power's player signs on with
//!   its password from any address: `Session::may_see`, `Session::find_game_to_join`.
//! - A member is named by one function, `name_for`: the registered name; the address beside
//!   it only if the player shows it (`SET SHOW ADDRESS`, confirmed by a code mailed to the
//!   address) or the reader is a master of the game; nobody at all while a game that hides
//!   identities (anonymous, or without white press) runs (`identities_hidden`). A message
//!   for many readers carries a version for the masters and one for everyone else (`named`,
//!   `by_reader`), and `as_read_by` picks the reader's; rendered without it, a message is
//!   the version for everyone else. `scrub` takes hidden addresses out of archived text.
//! - An anonymous game (`CREATE ... ANONYMOUS`, `SET [NOT] ANONYMOUS` while it forms) has
//!   grey press or none: `anonymity`, `press_refusal`.

use super::letter::Session;
use super::lockout::{Checked, Seat};
use crate::game::GameState;
use crate::game::settings::{GameSettings, PressKind};
use crate::msg;
use crate::report::Words;
use crate::report::messages::{Arg, Message};
use crate::store::{GameRow, IdentityRow, MemberRow, Tx};

/// Who reads a member's name: a master of the game, or anyone else (players, observers,
/// the archive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    Master,
    Other,
}

/// What the judge knows of a player that it may say: the registered name, the address, and
/// whether the player shows the address to other players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub name: Option<String>,
    pub address: String,
    pub shows_address: bool,
}

impl Identity {
    fn from_row(row: IdentityRow) -> Identity {
        Identity {
            // Names are refused with invisible characters; one kept from before that rule
            // is shown without them.
            name: row
                .name
                .map(|n| {
                    crate::text::invisible::without_invisible(n.trim())
                        .trim()
                        .to_string()
                })
                .filter(|n| !n.is_empty()),
            address: row.email,
            shows_address: row.show_address,
        }
    }

    /// The player with this id (one that is gone: no name, no address shown).
    pub fn of_player(tx: &Tx, player_id: i64) -> rusqlite::Result<Identity> {
        Ok(tx.identity(player_id)?.map_or_else(
            || Identity {
                name: None,
                address: String::new(),
                shows_address: false,
            },
            Identity::from_row,
        ))
    }

    /// The player registered at `address`; an address no one has now (a player who moved
    /// away from it) gives no name and its address not shown.
    pub fn of_address(tx: &Tx, address: &str) -> rusqlite::Result<Identity> {
        Ok(tx.identity_by_email(address)?.map_or_else(
            || Identity {
                name: None,
                address: address.to_lowercase(),
                shows_address: false,
            },
            Identity::from_row,
        ))
    }
}

/// Whether `game` hides who plays it now: an anonymous game, or one without white press,
/// until it is over (a win, a draw, a concession, TERMINATE); then it is shown as in any
/// game.
pub fn identities_hidden(game: &GameRow) -> bool {
    game.state != GameState::Finished && game.settings.clone().hides_identities()
}

/// How a member is named to one reader, in every letter and page: the registered name, and
/// the address beside it if the player shows it or the reader is a master; with neither, a
/// neutral phrase; while the game hides identities, only its masters learn who it is.
pub fn name_for(identity: &Identity, hidden: bool, reader: Reader) -> Message {
    if hidden && reader != Reader::Master {
        return msg!("secrecy.anonymous");
    }
    let address =
        (reader == Reader::Master || identity.shows_address) && !identity.address.is_empty();
    match (&identity.name, address) {
        (Some(name), true) => msg!(
            "secrecy.name_and_address",
            name = name,
            address = identity.address
        ),
        (Some(name), false) => msg!("letter.text", text = name),
        (None, true) => msg!("letter.text", text = identity.address),
        (None, false) => msg!("secrecy.no_name"),
    }
}

/// The key of a text with a version for the masters of a game and one for everyone else.
const BY_READER: &str = "secrecy.by_reader";

/// A text with a version for the masters of game `game` and one for everyone else (which is
/// what it says when rendered as it is).
pub fn by_reader(game: i64, public: Message, masters: Message) -> Message {
    msg!(
        "secrecy.by_reader",
        public = public,
        masters = masters,
        game = game
    )
}

/// A member of game `game` named for whoever reads it.
pub fn named(identity: &Identity, hidden: bool, game: i64) -> Message {
    by_reader(
        game,
        name_for(identity, hidden, Reader::Other),
        name_for(identity, hidden, Reader::Master),
    )
}

/// `message` as read by a master of the game `master_of` (none: by anyone else): each text
/// with versions by reader becomes the reader's.
pub fn as_read_by(message: &Message, master_of: Option<i64>) -> Message {
    let arg = |name: &str| {
        message
            .args
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a)
    };
    if message.key == BY_READER {
        let for_masters = matches!(
            (arg("game"), master_of),
            (Some(Arg::Text(game)), Some(id)) if *game == id.to_string()
        );
        let version = if for_masters { "masters" } else { "public" };
        return match arg(version) {
            Some(Arg::Message(inner)) => as_read_by(inner, master_of),
            _ => msg!("secrecy.no_name"),
        };
    }
    Message {
        key: message.key,
        args: message
            .args
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    Arg::Message(inner) => Arg::Message(as_read_by(inner, master_of)),
                    other => other.clone(),
                };
                (*name, value)
            })
            .collect(),
    }
}

/// The game whose masters' version a member reads: theirs, if they are one of its masters.
pub fn master_view(game: &GameRow, member: &MemberRow) -> Option<i64> {
    let master =
        member.role == "master" || game.settings.clone().masters.contains(&member.player_id);
    master.then_some(game.id)
}

/// Everyone who plays or played `game`: its members now and the players of its recorded
/// phases.
fn people_of(tx: &Tx, game: &GameRow) -> rusqlite::Result<Vec<Identity>> {
    let mut people: Vec<Identity> = Vec::new();
    for member in tx.members(game.id)? {
        people.push(Identity::of_player(tx, member.player_id)?);
    }
    for phase in tx.phases(game.id)? {
        let Ok(serde_json::Value::Object(players)) = serde_json::from_str(&phase.players) else {
            continue;
        };
        for address in players.values().filter_map(serde_json::Value::as_str) {
            if !people
                .iter()
                .any(|p| p.address.eq_ignore_ascii_case(address))
            {
                people.push(Identity::of_address(tx, address)?);
            }
        }
    }
    people.retain(|p| !p.address.is_empty());
    // Longer addresses first, so that none is replaced inside another.
    people.sort_by_key(|p| std::cmp::Reverse(p.address.len()));
    Ok(people)
}

/// `text` (an archived report, a broadcast) with the address of every player of `game`,
/// present or former, that `reader` may not see written as that player is named for them:
/// what reaches HISTORY and the web archive, whatever was written before these rules.
pub fn scrub(
    tx: &Tx,
    words: Words,
    game: &GameRow,
    text: &str,
    reader: Reader,
) -> rusqlite::Result<String> {
    if reader == Reader::Master {
        return Ok(text.to_string());
    }
    let hidden = identities_hidden(game);
    let mut out = text.to_string();
    for person in people_of(tx, game)? {
        let shown = words.message(&name_for(&person, hidden, Reader::Other));
        if shown.contains(&person.address) {
            continue;
        }
        if let Some(name) = &person.name {
            out = replace_ignoring_case(&out, &format!("{name} <{}>", person.address), &shown);
        }
        out = replace_ignoring_case(&out, &person.address, &shown);
    }
    Ok(out)
}

/// `text` with every `needle`, in any ASCII letter case, replaced by `with`.
fn replace_ignoring_case(text: &str, needle: &str, with: &str) -> String {
    if needle.is_empty() {
        return text.to_string();
    }
    // ASCII lower-casing keeps every byte where it was, so positions carry over.
    let lower = text.to_ascii_lowercase();
    let needle = needle.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(at) = lower[from..].find(&needle) {
        out.push_str(&text[from..from + at]);
        out.push_str(with);
        from += at + needle.len();
    }
    out.push_str(&text[from..]);
    out
}

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

/// Why the master may not set this press in this game, if they may not: an anonymous game
/// has grey press or none.
pub fn press_refusal(game: &GameRow, settings: &GameSettings, press: PressKind) -> Option<Message> {
    (settings.anonymous && press == PressKind::White)
        .then(|| msg!("secrecy.no_white_press", game = game.name))
}

/// `SET ANONYMOUS` / `SET NOT ANONYMOUS`: the change made (an anonymous game's white press
/// turns grey), or why it is refused (the game has started).
pub fn anonymity(
    game: &GameRow,
    settings: &mut GameSettings,
    anonymous: bool,
) -> Result<Message, Message> {
    if game.state != GameState::Forming {
        return Err(msg!("secrecy.anonymous_too_late", game = game.name));
    }
    Ok(make_anonymous(settings, anonymous))
}

/// The settings of an anonymous game (white press turns grey), or of one that is not; the
/// change, said.
fn make_anonymous(settings: &mut GameSettings, anonymous: bool) -> Message {
    settings.anonymous = anonymous;
    if anonymous && settings.press == PressKind::White {
        settings.press = PressKind::Grey;
    }
    let press = match settings.press {
        PressKind::White => msg!("master.press_white"),
        PressKind::Grey => msg!("master.press_grey"),
        PressKind::None => msg!("master.press_none"),
    };
    if anonymous {
        msg!("secrecy.anonymous_on", press = press)
    } else {
        msg!("secrecy.anonymous_off", press = press)
    }
}

impl Session<'_> {
    /// Whether the letter may see `game`: a public game, or a private one it is a member
    /// of (signed on in it, or writing from a member's address) or allowed into.
    pub(super) fn may_see(&self, tx: &Tx, game: &GameRow) -> rusqlite::Result<bool> {
        let settings = game.settings.clone();
        if settings.public || settings.allow.contains(&self.sender) {
            return Ok(true);
        }
        let signed_on = [
            self.signed_on.as_ref().map(|(g, _)| g),
            self.master_of.as_ref(),
            self.watching.as_ref(),
            self.joined.as_ref(),
        ];
        if signed_on.iter().flatten().any(|g| g.id == game.id) {
            return Ok(true);
        }
        let Some(player) = tx.player_by_email(&self.sender)? else {
            return Ok(false);
        };
        Ok(tx
            .members(game.id)?
            .iter()
            .any(|m| m.player_id == player.id))
    }

    /// Whether the game's allow and deny lists let the sender in.
    pub(super) fn may_enter(&self, game: &GameRow) -> bool {
        let settings = game.settings.clone();
        !settings.deny.contains(&self.sender)
            && (settings.allow.is_empty() || settings.allow.contains(&self.sender))
    }

    /// The game named `name` for SIGNON: one the letter may see; or a private one it may
    /// join (forming, `power` none) or sign on to as a power (`power`: its letter and the
    /// password given): the power's player with the power's password (writing from
    /// another address), or anyone the game's lists let in taking over a power without a
    /// player. Anything else is answered as a game that does not exist.
    pub(super) fn find_game_to_join(
        &mut self,
        tx: &Tx,
        line: usize,
        name: &str,
        power: Option<(char, &str)>,
    ) -> rusqlite::Result<Option<GameRow>> {
        if let Some(game) = tx.game_by_name(name)? {
            // Seen already: the command checks the password itself (once).
            if self.may_see(tx, &game)? {
                return Ok(Some(game));
            }
            let joinable = match power {
                None => self.may_enter(&game) && game.state == GameState::Forming,
                // Here I Stand games are signed on to through `his_game`.
                Some(_) if game.variant == super::his::VARIANT => false,
                Some((letter, password)) => self.may_sign_on(tx, &game, letter, password)?,
            };
            if joinable {
                return Ok(Some(game));
            }
        }
        self.fail(line, msg!("letter.no_such_game", game = name));
        Ok(None)
    }

    /// Whether the letter may see `game`, or (signing on with a power's `letter` and a
    /// `password`) sign on to that power: see `find_game_to_join`.
    pub(super) fn may_see_or_sign_on(
        &mut self,
        tx: &Tx,
        game: &GameRow,
        power: Option<(char, &str)>,
    ) -> rusqlite::Result<bool> {
        if self.may_see(tx, game)? {
            return Ok(true);
        }
        match power {
            Some((letter, password)) => self.may_sign_on(tx, game, letter, password),
            None => Ok(false),
        }
    }

    /// Whether a letter that may not see running `game` may still sign on as its power
    /// `letter` with `password`: the power's player, with its password (checked as every
    /// password is, counted and locked: `lockout`); or, the power without a player, anyone
    /// the game's lists let in.
    fn may_sign_on(
        &mut self,
        tx: &Tx,
        game: &GameRow,
        letter: char,
        password: &str,
    ) -> rusqlite::Result<bool> {
        if game.state != GameState::Active {
            return Ok(false);
        }
        let power = if game.variant == super::his::VARIANT {
            super::his::power_by_letter(letter).map(|p| {
                let name = p.name_in(crate::his::Lang::En).to_string();
                (p.id().to_string(), name)
            })
        } else {
            self.judge.variant(&game.variant).and_then(|v| {
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
                self.check_password(tx, &seat, password, &holder.password_hash)? == Checked::Right
            }
            None => self.may_enter(game),
        })
    }

    /// The games the letter may see, in LIST's order.
    pub(super) fn visible_games(&self, tx: &Tx) -> rusqlite::Result<Vec<GameRow>> {
        let mut games = Vec::new();
        for game in tx.games()? {
            if self.may_see(tx, &game)? {
                games.push(game);
            }
        }
        Ok(games)
    }

    /// Who reads this letter's answer about `game`: a master of it if signed on as one.
    pub(super) fn reader_for(&self, game: &GameRow) -> Reader {
        if self.is_master_of(game) {
            Reader::Master
        } else {
            Reader::Other
        }
    }

    /// Says `masters` in the answer of a master of `game` signed on as such, and `public`
    /// in any copy of it for others (BECOME); to anyone else, `public`.
    pub(super) fn say_by_reader(&mut self, game: &GameRow, public: Message, masters: Message) {
        if self.is_master_of(game) {
            self.say(by_reader(game.id, public, masters));
        } else {
            self.say(public);
        }
    }

    /// The player `player_id` of `game`, named for whoever reads it.
    pub(super) fn member_named(
        &self,
        tx: &Tx,
        game: &GameRow,
        player_id: i64,
    ) -> rusqlite::Result<Message> {
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
    pub(super) fn show_address(
        &mut self,
        tx: &Tx,
        line: usize,
        code: Option<&str>,
    ) -> rusqlite::Result<()> {
        let address = self.answer_to.clone();
        let Some(expected) = address_code(tx, &address)? else {
            self.fail(line, msg!("secrecy.no_key"));
            return Ok(());
        };
        match (code, tx.player_by_email(&address)?) {
            (Some(code), Some(player)) if code == expected => {
                tx.set_show_address(player.id, true)?;
                self.say(msg!("secrecy.address_shown", address = address));
            }
            (Some(_), _) => self.fail(line, msg!("secrecy.wrong_code", address = address)),
            (None, _) => self.say(msg!(
                "secrecy.show_code",
                address = address,
                code = expected
            )),
        }
        Ok(())
    }

    /// `SET HIDE ADDRESS`: only the masters of its player's games see the address the answer
    /// goes to. Hiding needs no proof: it gives nothing away.
    pub(super) fn hide_address(&mut self, tx: &Tx) -> rusqlite::Result<()> {
        if let Some(player) = tx.player_by_email(&self.answer_to)? {
            tx.set_show_address(player.id, false)?;
        }
        self.say(msg!("secrecy.address_hidden"));
        Ok(())
    }

    /// CREATE with its options: `create` makes the game (nothing else may, so an option is
    /// never laid on a game that was there before), then PRIVATE and ANONYMOUS are set on
    /// it and said.
    pub(super) fn creating(
        &mut self,
        tx: &Tx,
        name: &str,
        private: bool,
        anonymous: bool,
        create: impl FnOnce(&mut Self) -> rusqlite::Result<()>,
    ) -> rusqlite::Result<()> {
        let existed = tx.game_by_name(name)?.is_some();
        create(self)?;
        if existed || !(private || anonymous) {
            return Ok(());
        }
        let Some(mut game) = tx.game_by_name(name)? else {
            return Ok(());
        };
        let mut settings = game.settings.clone();
        if private {
            settings.public = false;
            self.say(msg!("secrecy.created_private", game = game.name));
        }
        // (A Here I Stand game runs from its creation: it is anonymous from the start too.)
        if anonymous {
            make_anonymous(&mut settings, true);
            self.say(msg!("secrecy.created_anonymous", game = game.name));
        }
        game.settings = settings;
        tx.save_game(&game)?;
        for seat in [&mut self.joined, &mut self.master_of]
            .into_iter()
            .flatten()
        {
            if seat.id == game.id {
                seat.settings = game.settings.clone();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::messages::Messages;

    fn alice(name: Option<&str>, shows: bool) -> Identity {
        Identity {
            name: name.map(str::to_string),
            address: "alice@example.test".into(),
            shows_address: shows,
        }
    }

    fn english(message: &Message) -> String {
        Messages::built_in().words("en").message(message)
    }

    #[test]
    fn a_member_is_named_by_name_and_shown_address_or_neutrally() {
        let cases = [
            (alice(Some("Alice"), false), Reader::Other, "Alice"),
            (
                alice(Some("Alice"), false),
                Reader::Master,
                "Alice <alice@example.test>",
            ),
            (
                alice(Some("Alice"), true),
                Reader::Other,
                "Alice <alice@example.test>",
            ),
            (alice(None, true), Reader::Other, "alice@example.test"),
            (
                alice(None, false),
                Reader::Other,
                "a player who gave no name",
            ),
            (alice(None, false), Reader::Master, "alice@example.test"),
        ];
        for (identity, reader, shown) in cases {
            assert_eq!(english(&name_for(&identity, false, reader)), shown);
        }
        // While the game hides who plays it, only its masters learn it.
        assert_eq!(
            english(&name_for(&alice(Some("Alice"), true), true, Reader::Other)),
            "an anonymous player"
        );
        assert_eq!(
            english(&name_for(
                &alice(Some("Alice"), false),
                true,
                Reader::Master
            )),
            "Alice <alice@example.test>"
        );
    }

    #[test]
    fn a_message_names_a_member_for_the_masters_of_its_game_only() {
        let text = msg!(
            "letter.line",
            line = 3,
            message = named(&alice(Some("Alice"), false), false, 7)
        );
        assert_eq!(english(&text), "line 3: Alice");
        assert_eq!(english(&as_read_by(&text, None)), "line 3: Alice");
        assert_eq!(english(&as_read_by(&text, Some(8))), "line 3: Alice");
        assert_eq!(
            english(&as_read_by(&text, Some(7))),
            "line 3: Alice <alice@example.test>"
        );
    }

    #[test]
    fn addresses_are_replaced_in_any_case_longest_first() {
        assert_eq!(
            replace_ignoring_case(
                "To Bob@Example.test and bob@example.test.",
                "bob@example.test",
                "Bob"
            ),
            "To Bob and Bob."
        );
        assert_eq!(replace_ignoring_case("Вена a@b", "a@b", "x"), "Вена x");
        assert_eq!(replace_ignoring_case("abc", "", "x"), "abc");
    }
}
