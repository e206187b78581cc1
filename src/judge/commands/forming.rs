//! A game before it starts (NJ:index): `SIGNON ? password` (join whichever public game is
//! forming), `BECOME MASTER` (its only player masters it instead), `UNSTART` (a game whose
//! first phase is not processed forms again, its powers unassigned), `SET VARIANT` and `SET
//! MANUAL START` (the game waits for FORCE BEGIN once full).

use crate::game::settings::GameSettings;
use crate::game::{GameKind, GameState};
use crate::judge::access::secrecy;
use crate::judge::commands::master;
use crate::judge::commands::master::command_word;
use crate::judge::commands::seats;
use crate::judge::session::Session;
use crate::judge::session::notices;
use crate::msg;
use crate::report::Message;
use crate::store::{GameRow, Tx};

/// SIGNON ? password: the oldest public game forming that the sender may join.
pub(crate) fn join_any(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    password: &str,
) -> rusqlite::Result<()> {
    let player = tx.player_by_email(&cx.sender)?;
    let mut forming: Vec<GameRow> = Vec::new();
    for game in tx.games()? {
        let settings = game.settings.clone();
        let member = match &player {
            Some(p) => tx.members(game.id)?.iter().any(|m| m.player_id == p.id),
            None => false,
        };
        if game.state == GameState::Forming
            && game.kind() != GameKind::HereIStand
            && settings.public
            && secrecy::may_enter(cx, &game)
            && !member
        {
            forming.push(game);
        }
    }
    forming.sort_by_key(|g| g.id);
    let Some(game) = forming.into_iter().next() else {
        cx.fail(line, msg!("forming.none_forming"));
        return Ok(());
    };
    cx.say(msg!("forming.joining", game = game.name));
    seats::join(cx, tx, line, &game.name, password)
}

/// BECOME MASTER: the only player of a forming game, signed on to it in this letter,
/// becomes its master; the game is moderated from then on.
pub(crate) fn become_master(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    if let Some(game) = &cx.master_of {
        let text = msg!("forming.already_master", game = game.name);
        cx.fail(line, text);
        return Ok(());
    }
    let Some(game) = cx.joined.clone() else {
        cx.fail(line, msg!("forming.become_master_needs_join"));
        return Ok(());
    };
    let mut game = tx.game(game.id)?;
    let players: Vec<_> = tx
        .members(game.id)?
        .into_iter()
        .filter(|m| m.role == "player")
        .collect();
    let sender = tx.player_by_email(&cx.sender)?;
    let alone = match (players.as_slice(), &sender) {
        ([only], Some(me)) => only.player_id == me.id,
        _ => false,
    };
    if game.state != GameState::Forming || !alone {
        cx.fail(line, msg!("forming.become_master_alone", game = game.name));
        return Ok(());
    }
    let me = &players[0];
    tx.set_member(
        game.id,
        me.player_id,
        None,
        "master",
        &me.password_hash,
        cx.now,
    )?;
    let mut settings = game.settings.clone();
    settings.masters.push(me.player_id);
    settings.moderated = true;
    game.settings = settings;
    tx.save_game(&game)?;
    cx.say(msg!("forming.became_master", game = game.name));
    cx.joined = None;
    cx.filled.retain(|id| *id != game.id);
    cx.master_of = Some(game);
    Ok(())
}

/// UNSTART: a running game whose first phase is not yet processed forms again; its powers
/// are unassigned (preferences may be sent again) and it waits for FORCE BEGIN.
pub(crate) fn unstart(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    let Some(mut game) = master::mastered(cx, tx, line, command_word("UNSTART"))? else {
        return Ok(());
    };
    if game.state != GameState::Active
        || game.phase_serial != 0
        || game.kind() == GameKind::HereIStand
    {
        cx.fail(line, msg!("forming.unstart_too_late", game = game.name));
        return Ok(());
    }
    for member in tx.members(game.id)? {
        if member.role == "player" {
            if member.power.is_none() {
                continue;
            }
            tx.set_member(
                game.id,
                member.player_id,
                None,
                "player",
                &member.password_hash,
                cx.now,
            )?;
            tx.clear_future_orders(game.id, member.power.as_deref().unwrap_or(""), None)?;
        }
    }
    tx.undo_orders_from(game.id, 0, cx.now)?;
    let mut settings = game.settings.clone();
    settings.manual_start = true;
    settings.deadline_moved();
    game.settings = settings;
    game.state = GameState::Forming;
    game.position = None;
    game.deadline_at = None;
    game.process_at = None;
    game.reminded = false;
    tx.save_game(&game)?;
    let text = msg!("forming.unstarted", game = game.name);
    cx.say(text.clone());
    notices::announce(
        cx,
        tx,
        &game,
        msg!(
            "forming.unstarted_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        text,
    )?;
    cx.refresh(game);
    Ok(())
}

/// SET VARIANT before the game starts: the change to announce, or `None` after saying why
/// not.
pub(crate) fn set_variant(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &mut GameRow,
    settings: &GameSettings,
    variant: &str,
) -> rusqlite::Result<Option<Message>> {
    if game.state != GameState::Forming || game.kind() == GameKind::HereIStand {
        cx.fail(line, msg!("forming.variant_too_late", game = game.name));
        return Ok(None);
    }
    let Some(chosen) = cx.judge.variant(variant) else {
        let known: Vec<&str> = cx.judge.variants.iter().map(|v| v.id.as_str()).collect();
        let text = msg!(
            "seats.no_such_variant",
            variant = variant,
            variants = known.join(", ")
        );
        cx.fail(line, text);
        return Ok(None);
    };
    let joined = tx
        .members(game.id)?
        .iter()
        .filter(|m| m.role == "player")
        .count();
    let needed = chosen.map.powers.len();
    if joined > needed {
        let text = msg!(
            "forming.variant_too_small",
            variant = chosen.name,
            needed = needed,
            joined = joined
        );
        cx.fail(line, text);
        return Ok(None);
    }
    game.variant = chosen.id.clone();
    if joined == needed && !settings.manual_start && !cx.filled.contains(&game.id) {
        cx.filled.push(game.id);
    }
    Ok(Some(msg!(
        "forming.variant_set",
        variant = chosen.name,
        needed = needed
    )))
}

/// SET NO MANUAL START on a full forming game: it starts once the letter is read.
pub(crate) fn start_if_full(cx: &mut Session<'_>, tx: &Tx, game: &GameRow) -> rusqlite::Result<()> {
    let Some(variant) = cx.judge.variant(&game.variant) else {
        return Ok(());
    };
    let joined = tx
        .members(game.id)?
        .iter()
        .filter(|m| m.role == "player")
        .count();
    if game.state == GameState::Forming
        && joined >= variant.map.powers.len()
        && !cx.filled.contains(&game.id)
    {
        cx.filled.push(game.id);
    }
    Ok(())
}
