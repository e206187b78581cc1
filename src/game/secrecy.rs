//! Who may see what of a game, as pure rules over its rows (docs/security.md, "Secrecy"):
//! how a member is named to each reader (`name_for`: the registered name; the address beside
//! it only if the player shows it or the reader is a master of the game; nobody at all while
//! a game that hides identities runs, `identities_hidden`), messages with a version for the
//! masters and one for everyone else (`named`, `by_reader`, `as_read_by`), hidden addresses
//! taken out of archived text (`scrub`), and an anonymous game's press (`anonymity`,
//! `press_refusal`). Who may see a game at all is asked of a letter: `judge/access/secrecy.rs`.

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
pub fn make_anonymous(settings: &mut GameSettings, anonymous: bool) -> Message {
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
        Messages::built_in()
            .words(crate::lang::Lang::En)
            .message(message)
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
