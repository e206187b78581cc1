//! Who plays what, as the classic judges tell it (NJ:index): `LIST FULL` (every game the
//! letter may see, with its settings and players), `WHO GAME` (each member of a game, named as
//! the reader may see them), and `VERSION`.

use crate::game::secrecy::{self, Identity, Reader};
use crate::game::settings::{GameSettings, PressKind};
use crate::judge::commands::info;
use crate::judge::commands::info::state_word;
use crate::judge::session::Session;
use crate::report::{Message, Words};
use crate::store::{GameRow, Tx};
use crate::{msg, tr};

/// Hours, and minutes as hours (`0.5`).
fn hours(minutes: u32) -> String {
    let text = format!("{:.2}", f64::from(minutes) / 60.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A game's settings in a few lines of the reader's words (LIST FULL).
pub(crate) fn settings_lines(words: Words, game: &GameRow, settings: &GameSettings) -> Vec<String> {
    let press = match settings.press {
        PressKind::White => tr!(words, "master.press_white"),
        PressKind::Grey => tr!(words, "master.press_grey"),
        PressKind::None => tr!(words, "master.press_none"),
    };
    let timing = |name: &str, t: &crate::game::settings::PhaseTiming| {
        tr!(
            words,
            "roster.timing",
            kind = name,
            next = t.hours,
            grace = t.grace_hours,
            delay = hours(t.delay_minutes),
            clock = t.clock.as_deref().unwrap_or("-"),
            days = t.days
        )
    };
    let on_off = |on: bool| {
        if on {
            tr!(words, "roster.on")
        } else {
            tr!(words, "roster.off")
        }
    };
    vec![
        tr!(
            words,
            "roster.press",
            press = press,
            partial = on_off(settings.partial_press),
            minor = on_off(settings.minor_press),
            postal = on_off(settings.postal_press)
        ),
        timing(&tr!(words, "master.kind_movement"), &settings.movement),
        timing(&tr!(words, "master.kind_retreat"), &settings.retreat),
        timing(&tr!(words, "master.kind_adjustment"), &settings.adjustment),
        tr!(
            words,
            "roster.rules",
            zone = game.time_zone,
            nmr = if settings.civil_disorder {
                tr!(words, "roster.nmr_cd")
            } else {
                tr!(words, "roster.nmr_wait")
            },
            dias = on_off(settings.dias),
            moderated = on_off(settings.moderated),
            public = on_off(settings.public),
            anonymous = on_off(settings.anonymous)
        ),
    ]
}

/// LIST FULL: every game the letter may see, with its settings and who plays it.
pub(crate) fn list_full(cx: &mut Session<'_>, tx: &Tx) -> rusqlite::Result<()> {
    let words = cx.words();
    let mut lines = vec![tr!(words, "info.games")];
    let games = crate::judge::access::secrecy::visible_games(cx, tx)?;
    if games.is_empty() {
        lines.push(tr!(words, "info.no_games"));
    }
    for row in games {
        lines.push(info::game_summary(cx, tx, &row)?);
        let settings = row.settings.clone();
        for line in settings_lines(words, &row, &settings) {
            lines.push(format!("    {line}"));
        }
        for (what, name) in members_named(cx, tx, &row, false)? {
            lines.push(format!("    {what}: {}", words.message(&name)));
        }
        lines.push(String::new());
    }
    cx.say_text(lines.join("\n").trim_end().to_string());
    Ok(())
}

/// The members of `game` as this letter may name them: `(power or role, name)`; the
/// observers too with `full`. A game hiding identities names no one to a non-master. In a
/// fixed order that tells nothing of who joined when: the powers in the variant's order,
/// then masters, then observers, each by name.
fn members_named(
    cx: &Session<'_>,
    tx: &Tx,
    game: &GameRow,
    full: bool,
) -> rusqlite::Result<Vec<(String, Message)>> {
    let reader = crate::judge::access::secrecy::reader_for(cx, game);
    let hidden = secrecy::identities_hidden(game);
    let variant = cx.judge.variant(&game.variant);
    let words = cx.words();
    let mut out = Vec::new();
    let rank = |member: &crate::store::MemberRow| -> (usize, usize) {
        let power = member
            .power
            .as_deref()
            .and_then(|id| variant.and_then(|v| v.map.powers.iter().position(|p| p.id == id)));
        match (member.role.as_str(), power) {
            ("player", Some(index)) => (0, index),
            ("player", None) => (1, 0),
            ("master", _) => (2, 0),
            _ => (3, 0),
        }
    };
    let mut members = Vec::new();
    for member in tx.members(game.id)? {
        let identity = Identity::of_player(tx, member.player_id)?;
        let key = (rank(&member), identity.name.clone().unwrap_or_default());
        members.push((key, member, identity));
    }
    members.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, member, identity) in members {
        if member.role == "observer" && !full {
            continue;
        }
        let what = match (&member.power, variant) {
            (Some(power), Some(v)) => v.map.power_by_id(power).map_or(power.clone(), |p| {
                v.map.power(p).name_in(words.language()).to_string()
            }),
            _ => crate::judge::commands::info::role_word(words, &member.role),
        };
        // Masters and observers are never hidden behind the game's anonymity.
        let hides = hidden && member.role == "player";
        out.push((what, secrecy::name_for(&identity, hides, reader)));
    }
    Ok(out)
}

/// WHO GAME [game] [FULL]: every player (and master; observers too with FULL) of the game,
/// named as the reader may see them; in a game hiding its players, for its masters only.
pub(crate) fn who_game(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: Option<&str>,
    full: bool,
) -> rusqlite::Result<()> {
    let Some(row) = crate::judge::access::secrecy::game_asked(
        cx,
        tx,
        line,
        game,
        msg!("roster.who_game_needs_game"),
    )?
    else {
        return Ok(());
    };
    if secrecy::identities_hidden(&row)
        && crate::judge::access::secrecy::reader_for(cx, &row) != Reader::Master
    {
        cx.fail(line, msg!("roster.who_game_hidden", game = row.name));
        return Ok(());
    }
    let words = cx.words();
    let mut lines = vec![tr!(
        words,
        "roster.who_game",
        game = row.name,
        state = state_word(words, &row.state)
    )];
    // A finished game says how it ended and when, as LIST and SUMMARY do.
    if row.state == crate::game::GameState::Finished {
        lines.push(words.message(&crate::game::ended(
            &row.name,
            &row.settings,
            &row.time_zone,
            cx.judge.variant(&row.variant).map(|v| &v.map),
        )));
    }
    for (what, name) in members_named(cx, tx, &row, full)? {
        lines.push(format!("  {what}: {}", words.message(&name)));
    }
    cx.say_text(lines.join("\n"));
    Ok(())
}

/// VERSION: the judge's software, its version, and where it is.
pub(crate) fn version(cx: &mut Session<'_>) {
    let judge = &cx.judge.config.judge;
    cx.say(msg!(
        "roster.version",
        version = env!("CARGO_PKG_VERSION"),
        name = judge.name,
        address = judge.address,
        code = judge.code
    ));
}
