//! What every letter about a game is called and begins with: its subject prefix
//! (`STRA:game - S1901M`), the answer's subject (`Re: [Error Flag] STRA:game - S1901M ...`),
//! the game's thread (`thread_root`) and the name read back out of a subject, and the `::`
//! header lines of njudge's letters.

use chrono::{DateTime, Utc};

use crate::diplomacy::turn::Turn;
use crate::report::Words;
use crate::report::classic;
use crate::store::GameRow;
use crate::variant::Variant;

/// `Spring`, `1901` (`240 BC`): a turn's season and year in `words`' language (English as
/// the variant names them).
pub(crate) fn season_and_year(words: Words, variant: &Variant, turn: Turn) -> (String, String) {
    let (season, era) = crate::game::phases::calendar_messages(variant, turn);
    (
        words.message(&season),
        format!("{}{}", turn.year, words.message(&era)),
    )
}

/// The `::` header lines of a letter about `game` in its current phase.
pub(crate) fn header_lines(
    code: &str,
    game: &GameRow,
    variant: &Variant,
    turn: Turn,
    deadline: Option<DateTime<Utc>>,
) -> [String; 2] {
    let deadline =
        deadline.map_or_else(|| "none".to_string(), |d| classic::date(d, &game.time_zone));
    classic::header(
        code,
        &game.name,
        &variant.name,
        &classic::phase_token(turn),
        &deadline,
    )
}

/// The `::` lines of any letter about `game`: with its current phase and deadline when it is
/// a Diplomacy game, with its deadline alone otherwise (Here I Stand).
pub(crate) fn game_header(
    code: &str,
    game: &GameRow,
    variant: Option<&str>,
    turn: Option<Turn>,
) -> [String; 2] {
    let deadline = game
        .deadline_at
        .map_or_else(|| "none".to_string(), |d| classic::date(d, &game.time_zone));
    let variant = variant.unwrap_or(&game.variant);
    match turn {
        Some(turn) => classic::header(
            code,
            &game.name,
            variant,
            &classic::phase_token(turn),
            &deadline,
        ),
        None => {
            let [judge, _] = classic::header(code, &game.name, variant, "", &deadline);
            [judge, format!(":: Deadline: {deadline}  ")]
        }
    }
}

/// The subject of a letter about `game`: `STRA:game - S1901M what` (without the phase when
/// the game has none).
pub(crate) fn game_subject(code: &str, game: &GameRow, turn: Option<Turn>, what: &str) -> String {
    match turn {
        Some(turn) => classic::subject(code, &game.name, &classic::phase_token(turn), what),
        None => format!("{code}:{} - {what}", game.name),
    }
}

/// What every letter about `game` begins its subject with, so that one mail filter catches
/// the game: `STRA:game - S1901M` (the game's current phase), or `STRA:game -` before it has
/// one. The rest of the subject follows after a space.
pub(crate) fn prefix(code: &str, game: &GameRow) -> String {
    match current_turn(game) {
        Some(turn) => format!("{code}:{} - {}", game.name, classic::phase_token(turn)),
        None => format!("{code}:{} -", game.name),
    }
}

/// The game's current phase, read from its stored position (none before it starts, nor for
/// a game whose position is no Diplomacy position).
pub(crate) fn current_turn(game: &GameRow) -> Option<Turn> {
    let position: serde_json::Value = serde_json::from_str(game.position.as_deref()?).ok()?;
    let season = match position["season"].as_str()? {
        "spring" => crate::diplomacy::turn::Season::Spring,
        "fall" => crate::diplomacy::turn::Season::Fall,
        "winter" => crate::diplomacy::turn::Season::Winter,
        _ => return None,
    };
    let kind = match position["kind"].as_str()? {
        "movement" => crate::diplomacy::turn::PhaseKind::Movement,
        "retreat" => crate::diplomacy::turn::PhaseKind::Retreat,
        "adjustment" => crate::diplomacy::turn::PhaseKind::Adjustment,
        _ => return None,
    };
    let year = i32::try_from(position["year"].as_i64()?).ok()?;
    Some(Turn { year, season, kind })
}

/// The error flags an answer's subject may carry, in lower case: njudge's, and the Russian
/// readers' (`letter.error_flag` in the catalogs); an answer to an answer drops the old one.
const ERROR_FLAGS: [&str; 2] = ["[error flag]", "[ошибки]"];

/// The subject of the judge's answer to a letter, as njudge writes it: `Re: ` and the error
/// flag (`[Error Flag] `, in the reader's words) when some line was refused, the game's prefix (`STRA:game - S1901M`) when
/// the letter signed on to a game, else the judge's code, then the sender's subject without
/// what earlier answers put before it (so answers to answers do not pile up prefixes).
pub(crate) fn reply_subject(
    code: &str,
    prefix: Option<&str>,
    errors: Option<&str>,
    incoming: &str,
) -> String {
    let mut rest = crate::mail::compose::one_line(incoming);
    loop {
        let trimmed = rest.trim_start();
        let lower = trimmed.to_ascii_lowercase();
        let cut = if lower.starts_with("re:") {
            3
        } else if let Some(flag) = ERROR_FLAGS.iter().find(|f| {
            trimmed
                .get(..f.len())
                .is_some_and(|head| head.to_lowercase() == **f)
        }) {
            flag.len()
        } else if let Some(after) = trimmed.strip_prefix(code).filter(|a| a.starts_with(':')) {
            // `STRA:game - S1901M`: up to the token after the dash (or the dash alone).
            let start = trimmed.len() - after.len();
            match after.find(" - ") {
                Some(dash) => {
                    let after_dash = &after[dash + 3..];
                    let token = after_dash.split_whitespace().next().unwrap_or("");
                    let is_token = token.len() == 6
                        && token.starts_with(['S', 'F', 'U', 'W'])
                        && token[1..5].bytes().all(|b| b.is_ascii_digit());
                    start + dash + 3 + if is_token { token.len() } else { 0 }
                }
                None => break,
            }
        } else if trimmed.len() >= code.len()
            && trimmed.starts_with(code)
            && trimmed
                .as_bytes()
                .get(code.len())
                .is_none_or(|b| *b == b' ')
        {
            code.len()
        } else {
            break;
        };
        rest = trimmed[cut..].to_string();
    }
    let flag = errors.map(|f| format!("{f} ")).unwrap_or_default();
    let head = prefix.unwrap_or(code);
    match rest.trim() {
        "" => format!("Re: {flag}{head}"),
        rest => format!("Re: {flag}{head} {rest}"),
    }
}

/// The Message-ID every letter about `game` refers to (`References:`), so that mail readers
/// thread a game's letters together: made from the game's number and name, never sent itself.
pub(crate) fn thread_root(judge_address: &str, game: &GameRow) -> String {
    let domain = judge_address.rsplit('@').next().unwrap_or("localhost");
    format!("game.{}.{}.strategos@{domain}", game.id, game.name)
}

#[cfg(test)]
mod tests {
    use super::reply_subject;

    #[test]
    fn a_reply_never_repeats_the_judge_code() {
        let reply = |incoming: &str| reply_subject("STRA", None, None, incoming);
        assert_eq!(reply("Re: STRA"), "Re: STRA");
        assert_eq!(reply("STRA"), "Re: STRA");
        assert_eq!(reply("Re: Re: STRA STRA orders"), "Re: STRA orders");
        assert_eq!(reply("orders"), "Re: STRA orders");
        assert_eq!(reply(""), "Re: STRA");
        assert_eq!(reply("STRAWBERRY"), "Re: STRA STRAWBERRY");
        assert_eq!(
            reply_subject(
                "STRA",
                Some("STRA:duel - S1901M"),
                Some("[Error Flag]"),
                "Re: STRA:duel - S1901M x"
            ),
            "Re: [Error Flag] STRA:duel - S1901M x"
        );
        // A Russian reader's flag, the old flag of either language dropped.
        assert_eq!(
            reply_subject(
                "STRA",
                Some("STRA:duel - S1901M"),
                Some("[Ошибки]"),
                "Re: [Error Flag] STRA:duel - S1901M x"
            ),
            "Re: [Ошибки] STRA:duel - S1901M x"
        );
        assert_eq!(reply("Re: [Ошибки] STRA:duel - S1901M x"), "Re: STRA x");
    }
}
