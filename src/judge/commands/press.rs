//! Press: PRESS TO <powers> ... ENDPRESS and BROADCAST ... ENDBROADCAST, by the game's
//! press settings (white, grey or none; partial press; observers). Partial press goes to its
//! recipients only (and the masters, when they watch all press); broadcasts are archived.

use crate::diplomacy::power::PowerId;
use crate::game::GameState;
use crate::game::settings::{GameSettings, PressKind};
use crate::judge::commands::credit::power_named;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::Words;
use crate::store::{MemberRow, Tx};
use crate::text::command::PressKind as Written;
use crate::{msg, tr};

/// Sends a press message from the power (or observer, or master) signed on.
pub(crate) fn press(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    written: Written,
    options: &str,
    text: &str,
) -> rusqlite::Result<()> {
    let (game, from, role) = match (&cx.signed_on, &cx.master_of, &cx.watching) {
        (Some((game, power)), _, _) => (game.clone(), Some(power.clone()), "player"),
        (None, Some(game), _) => (game.clone(), None, "master"),
        (None, None, Some(game)) => (game.clone(), None, "observer"),
        _ => {
            cx.fail(line, msg!("press.needs_signon"));
            return Ok(());
        }
    };
    let game = tx.game(game.id)?;
    let Some(variant) = cx.judge.variant(&game.variant) else {
        return Ok(());
    };
    let map = &variant.map;
    let settings = game.settings.clone();
    let allowed = match role {
        "master" => PressKind::White,
        "observer" => settings.observer_press,
        _ => settings.press,
    };
    if allowed == PressKind::None {
        cx.fail(line, msg!("press.not_allowed", game = game.name));
        return Ok(());
    }
    if let Some(why) = press_held_back(cx, tx, &game, &settings, from.as_deref(), written)? {
        cx.fail(line, why);
        return Ok(());
    }
    let words = options.trim();
    let asks_grey = words
        .to_lowercase()
        .split_whitespace()
        .any(|w| w == "grey" || w == "gray");
    // White press is signed: a player may not hide behind GREY (observers allowed ANY may).
    if asks_grey && role == "player" && allowed == PressKind::White {
        cx.fail(line, msg!("press.no_grey", game = game.name));
        return Ok(());
    }
    let anonymous = allowed == PressKind::Grey || asks_grey;
    let broadcast = written != Written::Press || !words.to_lowercase().starts_with("to");
    let members = tx.members(game.id)?;
    let recipients: Vec<MemberRow> = if broadcast {
        let mut to = Vec::new();
        for m in members.iter().filter(|m| !cx.is_own(&m.email)) {
            // An observer or master who asked for no broadcasts (SET NO BROADCAST).
            if m.role != "player" && tx.member_wishes(game.id, m.player_id)?.no_broadcast {
                continue;
            }
            to.push(m.clone());
        }
        to
    } else {
        let Some(powers) = press_powers(cx, line, map, &words[2..]) else {
            return Ok(());
        };
        let all = map.powers.len() - usize::from(from.is_some());
        if !settings.partial_press && powers.len() < all {
            cx.fail(line, msg!("press.no_partial", game = game.name));
            return Ok(());
        }
        let ids: Vec<&str> = powers.iter().map(|p| map.power(*p).id.as_str()).collect();
        let mut to: Vec<MemberRow> = members
            .iter()
            .filter(|m| m.role == "player" && m.power.as_deref().is_some_and(|p| ids.contains(&p)))
            .cloned()
            .collect();
        if settings.master_sees_press {
            to.extend(members.iter().filter(|m| m.role == "master").cloned());
        }
        to
    };
    // Copies go out in an order that tells nothing of who joined when, nor where the
    // sender stands among the others (with Message-IDs drawn at random).
    let mut recipients = recipients;
    recipients.sort_by(|a, b| a.email.cmp(&b.email));
    // The letter in one language: subject and body.
    let letter = |words: Words| -> (String, String) {
        let signature = match (&from, anonymous) {
            (_, true) => tr!(words, "press.someone"),
            (Some(power), false) => map.power_by_id(power).map_or(power.clone(), |p| {
                map.power(p).name_in(words.language()).to_string()
            }),
            (None, false) if role == "master" => tr!(words, "press.the_master"),
            (None, false) => tr!(words, "press.the_observer"),
        };
        let (subject, header) = if broadcast {
            (
                tr!(
                    words,
                    "press.broadcast_subject",
                    game =
                        crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game),
                    signature = signature
                ),
                tr!(
                    words,
                    "press.broadcast_header",
                    game = game.name,
                    signature = signature
                ),
            )
        } else {
            (
                tr!(
                    words,
                    "press.press_subject",
                    game =
                        crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game),
                    signature = signature
                ),
                tr!(
                    words,
                    "press.press_header",
                    game = game.name,
                    signature = signature
                ),
            )
        };
        (subject, format!("{header}\n\n{}\n", text.trim_end()))
    };
    // POSTAL PRESS waits, written for each reader now, and goes out after the results.
    let postal = written == Written::Postal;
    for to in &recipients {
        let language = cx.judge.language_of(tx, &game, to)?;
        let (subject, body) = letter(cx.judge.templates.words(language));
        if postal {
            tx.hold_press(game.id, &to.email, &subject, &body, cx.now)?;
            continue;
        }
        cx.caused
            .push(OutgoingLetter::fresh(&to.email, subject, body).about(&game.name));
    }
    if broadcast {
        let (subject, body) = letter(cx.judge.game_words(&game));
        if postal {
            tx.hold_press(game.id, "", &subject, &body, cx.now)?;
        } else {
            tx.archive(game.id, game.phase_serial, &subject, &body, cx.now)?;
        }
    }
    let count = recipients.len();
    if postal {
        cx.say(msg!("press.postal_held", count = count, game = game.name));
        return Ok(());
    }
    cx.say(if broadcast {
        msg!("press.broadcast_sent", count = count, game = game.name)
    } else {
        msg!("press.press_sent", count = count, game = game.name)
    });
    Ok(())
}

/// Why the game's settings hold back press from a power now, if they do: POSTAL PRESS
/// not taken, no press in retreats and adjustments (SET NO MINOR PRESS), none from a late
/// power (SET NO LATE PRESS) or from anyone while a power is late (SET NO GRACE PRESS),
/// none before the power's orders are in (SET MUST ORDER). Masters and observers are not
/// held back but by POSTAL PRESS.
fn press_held_back(
    cx: &Session<'_>,
    tx: &Tx,
    game: &crate::store::GameRow,
    settings: &GameSettings,
    power: Option<&str>,
    written: Written,
) -> rusqlite::Result<Option<crate::report::Message>> {
    if written == Written::Postal && !settings.postal_press {
        return Ok(Some(msg!("press.no_postal", game = game.name)));
    }
    let (Some(power), Some((variant, position))) = (power, cx.judge.game_position(game)) else {
        return Ok(None);
    };
    if game.state != GameState::Active {
        return Ok(None);
    }
    if !settings.minor_press && position.turn.kind != crate::diplomacy::turn::PhaseKind::Movement {
        return Ok(Some(msg!("press.no_minor", game = game.name)));
    }
    let missing: Vec<String> = cx
        .judge
        .missing_powers(tx, game)?
        .into_iter()
        .map(|p| variant.map.power(p).id.clone())
        .collect();
    let owes = missing.iter().any(|p| p == power);
    let late = game.deadline_at.is_some_and(|d| d <= cx.now);
    if late && owes && !settings.late_press {
        return Ok(Some(msg!("press.late", game = game.name)));
    }
    if late && !missing.is_empty() && !settings.grace_press {
        return Ok(Some(msg!("press.grace", game = game.name)));
    }
    if owes && settings.must_order {
        return Ok(Some(msg!("press.must_order", game = game.name)));
    }
    Ok(None)
}

/// The powers a `PRESS TO` names: names, ids, or a run of letters (`FRG`).
fn press_powers(
    cx: &mut Session<'_>,
    line: usize,
    map: &crate::diplomacy::map::Map,
    words: &str,
) -> Option<Vec<PowerId>> {
    let mut out = Vec::new();
    for word in words
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
    {
        if let Some(p) = power_named(map, word) {
            out.push(p);
            continue;
        }
        let letters: Option<Vec<PowerId>> = word
            .chars()
            .map(|c| power_named(map, &c.to_string()))
            .collect();
        match letters {
            Some(ps) => out.extend(ps),
            None => {
                cx.fail(line, msg!("press.no_such_power", word = word));
                return None;
            }
        }
    }
    if out.is_empty() {
        cx.fail(line, msg!("press.needs_powers"));
        return None;
    }
    out.sort();
    out.dedup();
    Some(out)
}
