//! The game master's commands by mail (judge-conventions §1.4): PROCESS, PREDICT, PAUSE,
//! RESUME, EXTEND, BECOME, EJECT, PROMOTE, FORCE BEGIN, ROLLBACK, TERMINATE; the master's SETs
//! are in `master_settings.rs`. Every change to a game is announced to all its members.

use crate::game::{GameKind, GameState};
use chrono::Duration;

use crate::game::phases::{next_deadline, phase_message, phase_name, phase_name_in};
use crate::game::secrecy;
use crate::judge::session::Session;
use crate::judge::session::notices;

use crate::judge::Judge;

use crate::diplomacy::adjudicate::{Submitted, adjudicate};
use crate::judge::deadline_of;
use crate::letter::OutgoingLetter;
use crate::report::Message;
use crate::report::describe::{describe_order_in, note_in};
use crate::store::{GameRow, Tx, position_from_json};
use crate::{msg, tr};

/// A command's name as written, for messages that name it.
pub(crate) fn command_word(word: &'static str) -> Message {
    msg!("letter.text", text = word)
}

/// The game this letter acts on as its master: signed on as a master (SIGNON ?game with a
/// master's password, or the operator). Players never hold a master's powers, moderated
/// game or not (NJ:data/master). Reports an error when there is none.
pub(crate) fn mastered(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    what: Message,
) -> rusqlite::Result<Option<GameRow>> {
    if let Some(game) = &cx.master_of {
        return Ok(Some(tx.game(game.id)?));
    }
    if cx.signed_on.is_some() {
        cx.fail(line, msg!("master.masters_only", what = what));
    } else {
        cx.fail(line, msg!("master.not_master", what = what));
    }
    Ok(None)
}

/// The game this letter may steer: as its master, or as a player of an unmoderated game,
/// for what such players may do (NJ:data/index, "mod" commands: settings of the game's
/// pace and press, PAUSE, RESUME, EXTEND); each change is announced to every member.
pub(crate) fn steered(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    what: Message,
) -> rusqlite::Result<Option<GameRow>> {
    if let Some(game) = &cx.master_of {
        return Ok(Some(tx.game(game.id)?));
    }
    if let Some((game, _)) = &cx.signed_on
        && cx.became.is_none()
    {
        let game = tx.game(game.id)?;
        if !game.settings.clone().moderated {
            return Ok(Some(game));
        }
        cx.fail(
            line,
            msg!("master.moderated", what = what, game = game.name),
        );
        return Ok(None);
    }
    cx.fail(line, msg!("master.not_master", what = what));
    Ok(None)
}

/// PROCESS [phase]: the phase now, with the orders there are.
pub(crate) fn process_now(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    phase: Option<&str>,
) -> rusqlite::Result<()> {
    let Some(mut game) = mastered(cx, tx, line, command_word("PROCESS"))? else {
        return Ok(());
    };
    let Some((variant, position)) = cx
        .judge
        .game_position(&game)
        .filter(|_| game.state == GameState::Active)
    else {
        cx.fail(line, msg!("common.not_running", game = game.name));
        return Ok(());
    };
    let current = phase_name(variant, &position);
    let shown = phase_message(variant, &position);
    if let Some(asked) = phase
        && !current.to_lowercase().starts_with(&asked.to_lowercase())
    {
        cx.fail(
            line,
            msg!("master.not_current_phase", phase = shown, asked = asked),
        );
        return Ok(());
    }
    cx.say(msg!("master.processed", phase = shown, game = game.name));
    let letters = cx.judge.process_phase(tx, &mut game, cx.now)?;
    cx.caused.extend(letters);
    cx.refresh(game);
    Ok(())
}

/// PREDICT: what the phase would come to with the orders now in force, to the master only.
pub(crate) fn predict(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    let Some(game) = mastered(cx, tx, line, command_word("PREDICT"))? else {
        return Ok(());
    };
    let Some((variant, position)) = cx.judge.game_position(&game) else {
        cx.fail(line, msg!("common.not_running", game = game.name));
        return Ok(());
    };
    let map = &variant.map;
    let mut submitted = Vec::new();
    for power in crate::game::orders::powers_owing(map, &position) {
        if let Some((lines, _)) = tx.orders(game.id, game.phase_serial, &map.power(power).id)? {
            let orders = crate::game::orders::stored_orders(variant, position.turn.kind, &lines);
            submitted.extend(orders.into_iter().map(|order| Submitted { power, order }));
        }
    }
    let resolution = adjudicate(map, &variant.rules, &position, &submitted);
    let words = cx.words();
    let mut lines = vec![tr!(
        words,
        "master.prediction",
        phase = phase_name_in(words, variant, &position),
        game = game.name
    )];
    for (s, outcome) in submitted.iter().zip(&resolution.outcomes) {
        let n = note_in(words, map, outcome);
        let n = if n.is_empty() {
            String::new()
        } else {
            format!("  (*{n}*)")
        };
        lines.push(format!(
            "  {}: {}{n}",
            map.power(s.power).name_in(words.language()),
            describe_order_in(words, map, &position, s.power, &s.order)
        ));
    }
    // Every power's orders: not for the copy a BECOMEd power's player gets.
    let prediction = msg!("letter.text", text = lines.join("\n"));
    if cx.is_master_of(&game) {
        let public = msg!("secrecy.for_masters_only");
        cx.say(secrecy::by_reader(game.id, public, prediction));
    } else {
        cx.say(prediction);
    }
    Ok(())
}

/// PAUSE and RESUME: deadlines stop, and start again with a whole phase to come.
pub(crate) fn pause(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    pause: bool,
) -> rusqlite::Result<()> {
    let word = command_word(if pause { "PAUSE" } else { "RESUME" });
    let Some(mut game) = steered(cx, tx, line, word)? else {
        return Ok(());
    };
    if game.settings.paused == pause {
        let text = if pause {
            msg!("master.paused_already", game = game.name)
        } else {
            msg!("master.running_already", game = game.name)
        };
        cx.fail(line, text);
        return Ok(());
    }
    game.settings.paused = pause;
    // Paused, nothing is processed early; resumed, the letter decides again.
    game.process_at = None;
    let (subject, text) = if pause {
        (
            msg!(
                "master.paused_subject",
                game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
            ),
            msg!("master.paused", game = game.name),
        )
    } else {
        if let Some((_, position)) = cx.judge.game_position(&game) {
            let deadline = next_deadline(&game, position.turn.kind, cx.now);
            game.deadline_at = Some(crate::judge::phases::timing::beyond_absences(
                tx, &game, deadline,
            )?);
            game.reminded = false;
            game.settings.deadline_moved();
        } else if game.kind() == GameKind::HereIStand && game.deadline_at.is_some() {
            // Here I Stand: the open window gets a whole deadline again.
            game.deadline_at = Some(next_deadline(
                &game,
                crate::diplomacy::turn::PhaseKind::Movement,
                cx.now,
            ));
        }
        (
            msg!(
                "master.resumed_subject",
                game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
            ),
            msg!(
                "master.resumed",
                game = game.name,
                deadline = deadline_of(&game)
            ),
        )
    };
    tx.save_game(&game)?;
    cx.say(text.clone());
    notices::announce(cx, tx, &game, subject, text)?;
    if !pause {
        cx.touch(game.id, false);
    }
    cx.refresh(game);
    Ok(())
}

/// EXTEND [hours]: the deadline moves later.
pub(crate) fn extend(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    hours: u32,
) -> rusqlite::Result<()> {
    let Some(mut game) = steered(cx, tx, line, command_word("EXTEND"))? else {
        return Ok(());
    };
    let Some(deadline) = game.deadline_at.filter(|_| game.state == GameState::Active) else {
        cx.fail(line, msg!("master.no_deadline", game = game.name));
        return Ok(());
    };
    game.deadline_at = Some(deadline.max(cx.now) + Duration::hours(i64::from(hours)));
    game.reminded = false;
    let mut settings = game.settings.clone();
    settings.deadline_moved();
    game.settings = settings;
    tx.save_game(&game)?;
    let text = msg!(
        "master.extended",
        game = game.name,
        hours = hours,
        deadline = deadline_of(&game)
    );
    cx.say(text.clone());
    notices::announce(
        cx,
        tx,
        &game,
        msg!(
            "master.extended_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        text,
    )?;
    cx.refresh(game);
    Ok(())
}

/// TERMINATE: the game ends here. From a master at once; from a player of an unmoderated
/// game it is a secret vote, and the game ends when every surviving power has voted in
/// the same phase.
pub(crate) fn terminate(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    if cx.master_of.is_none()
        && let Some((game, power)) = cx.signed_on.clone()
        && cx.became.is_none()
        && !tx.game(game.id)?.settings.clone().moderated
    {
        return vote_terminate(cx, tx, game.id, &power);
    }
    let Some(game) = mastered(cx, tx, line, command_word("TERMINATE"))? else {
        return Ok(());
    };
    end_terminated(cx, tx, game)
}

/// A player's vote to end an unmoderated game; the last vote ends it.
fn vote_terminate(cx: &mut Session<'_>, tx: &Tx, game: i64, power: &str) -> rusqlite::Result<()> {
    let game = tx.game(game)?;
    let members = tx.members(game.id)?;
    let Some(member) = members.iter().find(|m| m.power.as_deref() == Some(power)) else {
        return Ok(());
    };
    let mut wishes = tx.member_wishes(game.id, member.player_id)?;
    wishes.terminate = true;
    tx.set_member_wishes(game.id, member.player_id, &wishes)?;
    let everyone = match cx.judge.game_position(&game) {
        Some((variant, position)) => {
            let mut all = true;
            for p in crate::diplomacy::progress::survivors(&variant.map, &position) {
                let id = &variant.map.power(p).id;
                let voted = match members.iter().find(|m| m.power.as_deref() == Some(id)) {
                    Some(m) => tx.member_wishes(game.id, m.player_id)?.terminate,
                    None => false,
                };
                all &= voted;
            }
            all
        }
        // A forming game: every player who joined.
        None => {
            let mut all = true;
            for m in members.iter().filter(|m| m.role == "player") {
                all &= tx.member_wishes(game.id, m.player_id)?.terminate;
            }
            all
        }
    };
    if !everyone {
        cx.say(msg!("master.terminate_vote", game = game.name));
        return Ok(());
    }
    end_terminated(cx, tx, game)
}

fn end_terminated(cx: &mut Session<'_>, tx: &Tx, mut game: GameRow) -> rusqlite::Result<()> {
    game.settings.ending = Some(crate::game::settings::Ending {
        how: crate::game::settings::EndedBy::Terminated,
        at: cx.now,
    });
    game.state = GameState::Finished;
    game.deadline_at = None;
    game.process_at = None;
    tx.save_game(&game)?;
    cx.caused
        .extend(cx.judge.publish_diaries(tx, &game, cx.now)?);
    let text = msg!("master.terminated", game = game.name);
    cx.say(text.clone());
    notices::announce(
        cx,
        tx,
        &game,
        msg!(
            "master.terminated_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        text,
    )?;
    cx.refresh(game);
    Ok(())
}

/// BECOME power: the rest of the letter acts for that power; its player gets a copy.
pub(crate) fn become_power(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    power: &str,
) -> rusqlite::Result<()> {
    let Some(game) = mastered(cx, tx, line, command_word("BECOME"))? else {
        return Ok(());
    };
    let Some(variant) = cx.judge.variant(&game.variant) else {
        return Ok(());
    };
    let Some(id) = crate::judge::commands::credit::power_named(&variant.map, power) else {
        cx.fail(
            line,
            msg!("master.not_a_power", power = power, game = game.name),
        );
        return Ok(());
    };
    let power_id = variant.map.power(id).id.clone();
    let player = tx
        .members(game.id)?
        .into_iter()
        .find(|m| m.power.as_deref() == Some(power_id.as_str()) && m.role == "player")
        .map(|m| m.email);
    cx.acted_for.push(crate::judge::session::ActedFor {
        game: game.name.clone(),
        prefix: crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game),
        power: variant.map.power(id).name.clone(),
        player,
        sections: Vec::new(),
    });
    cx.became = Some(cx.acted_for.len() - 1);
    cx.touched.push((game.id, false));
    cx.say(msg!(
        "master.acting_as",
        power = *variant.map.power(id),
        game = game.name
    ));
    cx.sign_on(game, power_id);
    Ok(())
}

/// EJECT power|address: the member leaves the game; a power without a player is open
/// for takeover.
pub(crate) fn eject(cx: &mut Session<'_>, tx: &Tx, line: usize, who: &str) -> rusqlite::Result<()> {
    let Some(game) = mastered(cx, tx, line, command_word("EJECT"))? else {
        return Ok(());
    };
    let Some(variant) = cx.judge.variant(&game.variant) else {
        return Ok(());
    };
    let members = tx.members(game.id)?;
    let power = crate::judge::commands::credit::power_named(&variant.map, who)
        .map(|p| variant.map.power(p).id.clone());
    let target = members
        .iter()
        .find(|m| m.email.eq_ignore_ascii_case(who) || (power.is_some() && m.power == power));
    let Some(member) = target else {
        cx.fail(line, msg!("master.nobody", game = game.name, who = who));
        return Ok(());
    };
    let language = cx.judge.language_of(tx, &game, member)?;
    tx.remove_member(game.id, member.player_id)?;
    let what = match member
        .power
        .as_deref()
        .and_then(|p| variant.map.power_by_id(p))
    {
        Some(p) => msg!(
            "master.ejected_power",
            power = *variant.map.power(p),
            game = game.name,
            letter = variant.map.power(p).letter
        ),
        None => msg!(
            "master.ejected_member",
            member = crate::judge::access::secrecy::member_named(tx, &game, member.player_id)?,
            game = game.name
        ),
    };
    cx.say(what.clone());
    let words = cx.judge.templates.words(language);
    cx.caused.push(
        OutgoingLetter::fresh(
            &member.email,
            tr!(
                words,
                "master.ejected_you_subject",
                game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
            ),
            tr!(words, "master.ejected_you", game = game.name) + "\n",
        )
        .about(&game.name),
    );
    notices::announce_seat(
        cx,
        tx,
        &game,
        msg!(
            "master.ejected_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        what,
    )?;
    Ok(())
}

/// PROMOTE address: an observer becomes co-master.
pub(crate) fn promote(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    who: &str,
) -> rusqlite::Result<()> {
    let Some(mut game) = mastered(cx, tx, line, command_word("PROMOTE"))? else {
        return Ok(());
    };
    let members = tx.members(game.id)?;
    let Some(member) = members
        .iter()
        .find(|m| m.email.eq_ignore_ascii_case(who) && m.role == "observer")
    else {
        cx.fail(
            line,
            msg!("master.not_observer", who = who, game = game.name),
        );
        return Ok(());
    };
    tx.set_member(
        game.id,
        member.player_id,
        None,
        "master",
        &member.password_hash,
        cx.now,
    )?;
    let mut settings = game.settings.clone();
    settings.masters.push(member.player_id);
    settings.moderated = true;
    game.settings = settings;
    tx.save_game(&game)?;
    let named = crate::judge::access::secrecy::member_named(tx, &game, member.player_id)?;
    let text = msg!("master.promoted", member = named, game = game.name);
    cx.say(text.clone());
    notices::announce(
        cx,
        tx,
        &game,
        msg!(
            "master.promoted_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        text,
    )?;
    cx.refresh(game);
    Ok(())
}

/// FORCE BEGIN: a forming game starts short-handed; empty seats are open for takeover.
pub(crate) fn force_begin(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    let Some(mut game) = mastered(cx, tx, line, command_word("FORCE BEGIN"))? else {
        return Ok(());
    };
    if game.state != GameState::Forming {
        cx.fail(line, msg!("master.begun_already", game = game.name));
        return Ok(());
    }
    cx.say(msg!("master.force_begin", game = game.name));
    let letters = cx.judge.start_game(tx, &mut game, cx.now)?;
    cx.caused.extend(letters);
    cx.refresh(game);
    Ok(())
}

/// ROLLBACK n: the game goes back to the start of phase `n` of its history; the orders of
/// the phases undone are kept for inspection.
pub(crate) fn rollback(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    phase: Option<u32>,
) -> rusqlite::Result<()> {
    let Some(mut game) = mastered(cx, tx, line, command_word("ROLLBACK"))? else {
        return Ok(());
    };
    let target = phase.map(i64::from).unwrap_or(game.phase_serial - 1);
    let phases = tx.phases(game.id)?;
    let Some(row) = phases
        .iter()
        .find(|p| p.phase_serial == target && target < game.phase_serial)
    else {
        cx.fail(
            line,
            msg!(
                "master.no_such_phase",
                game = game.name,
                target = target,
                last = game.phase_serial
            ),
        );
        return Ok(());
    };
    let Some(variant) = cx.judge.variant(&game.variant) else {
        return Ok(());
    };
    let Ok(earlier) = position_from_json(variant, &row.position) else {
        cx.fail(line, msg!("master.unreadable_phase", target = target));
        return Ok(());
    };
    tx.undo_orders_from(game.id, target, cx.now)?;
    game.position = Some(row.position.clone());
    game.phase_serial = target;
    game.state = GameState::Active;
    game.process_at = None;
    let deadline = next_deadline(&game, earlier.turn.kind, cx.now);
    game.deadline_at = Some(crate::judge::phases::timing::beyond_absences(
        tx, &game, deadline,
    )?);
    game.reminded = false;
    // The phase is played again: its late notices and offers go again, and the wishes
    // that last a phase (waits, draw votes, concessions) start afresh.
    let mut settings = game.settings.clone();
    settings.deadline_moved();
    game.settings = settings;
    tx.save_game(&game)?;
    crate::judge::phases::process::clear_phase_wishes(tx, game.id)?;
    let text = msg!(
        "master.rolled_back",
        game = game.name,
        phase = phase_message(variant, &earlier),
        target = target,
        deadline = deadline_of(&game)
    );
    cx.say(text.clone());
    notices::announce(
        cx,
        tx,
        &game,
        msg!(
            "master.rolled_back_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        text,
    )?;
    cx.refresh(game);
    Ok(())
}

impl Judge {
    /// Whether `player` is a master of `game`.
    pub fn is_master(game: &GameRow, player: i64) -> bool {
        game.settings.clone().masters.contains(&player)
    }
}
