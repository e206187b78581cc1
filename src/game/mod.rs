//! The game as the judge keeps it, typed: what kind of game it is, where it stands (forming,
//! running, over), its settings and each member's wishes (`settings`). Read once from the
//! store's rows; pure of mail, SQL and the clock. The judge and the archive both stand on it.

pub mod his;
pub mod orders;
pub mod phases;
pub mod secrecy;
pub mod settings;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// Players are joining; it starts when its powers are filled (or a master forces it).
    Forming,
    /// Running: phases are played.
    Active,
    /// Over: won, drawn, conceded or terminated.
    Finished,
}

impl GameState {
    /// The word the store keeps: `forming`, `active`, `finished`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameState::Forming => "forming",
            GameState::Active => "active",
            GameState::Finished => "finished",
        }
    }

    /// The state a stored word names; a word the judge never writes (a database edited by
    /// hand) is read as over, so nothing is done to such a game.
    pub fn from_stored(word: &str) -> GameState {
        match word {
            "forming" => GameState::Forming,
            "active" => GameState::Active,
            _ => GameState::Finished,
        }
    }
}

/// What kind of game a variant plays: Diplomacy (any of its variants), or the land movement
/// of Here I Stand, which the judge referees in a way of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Diplomacy,
    HereIStand,
}

/// The variant id of Here I Stand's games.
pub const HERE_I_STAND: &str = "here-i-stand";

/// Whether a variant name written by a player (CREATE, GET MAP) means Here I Stand: its id
/// or its short names, in any case.
pub fn is_here_i_stand(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        HERE_I_STAND | "his" | "hereistand"
    )
}

impl GameKind {
    /// The kind of game variant `id` plays.
    pub fn of_variant(id: &str) -> GameKind {
        if id == HERE_I_STAND {
            GameKind::HereIStand
        } else {
            GameKind::Diplomacy
        }
    }
}

/// How a finished game ended, and when: `Game 'pact' is over: drawn between North, South,
/// Wed 06 Jan 2027 12:00 UTC.`
pub fn ended(
    game: &str,
    settings: &settings::GameSettings,
    zone: &str,
    map: Option<&crate::diplomacy::map::Map>,
) -> crate::message::Message {
    use crate::message::Arg;
    use crate::msg;
    use settings::{EndedBy, Ending};
    let Some(Ending { how, at }) = &settings.ending else {
        return msg!("info.ended_unknown", game = game);
    };
    // A power kept by its English name, in each language the variant names it.
    let named = |names: &[String]| -> Arg {
        let in_lang = |lang: crate::lang::Lang| {
            let each: Vec<&str> = names
                .iter()
                .map(|name| {
                    map.and_then(|m| m.power_by_id(name).map(|p| m.power(p).name_in(lang)))
                        .unwrap_or(name)
                })
                .collect();
            (lang, each.join(", "))
        };
        Arg::Each(crate::lang::Lang::ALL.map(in_lang).to_vec())
    };
    let how = match how {
        EndedBy::Victory { winner } => {
            msg!(
                "info.ended_victory",
                winner = named(std::slice::from_ref(winner))
            )
        }
        EndedBy::Draw { powers } => msg!("info.ended_draw", powers = named(powers)),
        EndedBy::Concession { to } => {
            msg!(
                "info.ended_concession",
                to = named(std::slice::from_ref(to))
            )
        }
        EndedBy::Terminated => msg!("info.ended_terminated"),
    };
    let when = crate::message::When {
        at: Some(*at),
        zone: zone.to_string(),
    };
    msg!("info.ended", game = game, how = how, when = when)
}
