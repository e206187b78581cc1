//! What a password opens (`Seat`: a power of a game, a master's or observer's place in one,
//! an account) and what checking one came to (`Checked`).

use chrono::{DateTime, Utc};

use crate::store::GameRow;

/// Something a password opens: a power of a game, a master's or observer's place in one, or
/// an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seat {
    /// `game:<id>:power:<power>`, `game:<id>:member:<player id>` or `account:<player id>`.
    pub key: String,
    /// The account that owns it and its registered address, when someone does.
    pub owner: Option<(i64, String)>,
    /// How its owner reads it: `France in game 'alps'`.
    pub name: String,
    /// The game it belongs to, if any.
    pub game: Option<i64>,
    /// A power's seat in a game that hides who plays it: nothing about the seat may depend
    /// on its player, so the owner's account is neither locked by the seat's failures nor
    /// locks it (`lock_of`, `wrong_password`).
    pub anonymous: bool,
}

impl Seat {
    pub(crate) fn power(
        game: &GameRow,
        power_id: &str,
        power_name: &str,
        owner: Option<(i64, String)>,
    ) -> Seat {
        Seat {
            key: format!("game:{}:power:{power_id}", game.id),
            owner,
            name: format!("{power_name} in game '{}'", game.name),
            game: Some(game.id),
            anonymous: crate::game::secrecy::identities_hidden(game),
        }
    }

    pub(crate) fn member(game: &GameRow, player: i64, email: &str, role: &str) -> Seat {
        Seat {
            key: format!("game:{}:member:{player}", game.id),
            owner: Some((player, email.to_string())),
            name: format!("the {role} of game '{}'", game.name),
            game: Some(game.id),
            anonymous: false,
        }
    }

    pub(crate) fn account(player: i64, email: &str) -> Seat {
        Seat {
            key: format!("account:{player}"),
            owner: Some((player, email.to_string())),
            name: format!("the account {email}"),
            game: None,
            anonymous: false,
        }
    }
}

/// What checking a password came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Checked {
    Right,
    Wrong,
    /// The seat (or its account) is locked until then: the password was not checked.
    Locked(DateTime<Utc>),
    /// This letter already had its share of wrong passwords: not checked.
    Exhausted,
}
