//! Taking and leaving seats: REGISTER, CREATE, SIGNON (joining and signing on), OBSERVE,
//! RESIGN, SET PASSWORD. Every password goes through `lockout`; what would make the judge
//! write regularly to an address not yet proven waits for its confirmation (`confirm`).

use crate::judge::session::Confirmed;

use crate::game::{GameKind, GameState};
use crate::judge::access::seat::Checked;
use crate::judge::access::seat::Seat;
use crate::judge::session::Session;
use crate::judge::session::notices;

use crate::game::settings::GameSettings;
use crate::judge::access::lockout;
use crate::judge::access::password;
use crate::judge::access::secrecy;
use crate::msg;
use crate::store::{GameRow, Tx};

/// REGISTER password [name]: an account with a password changes its name only with that
/// password; a new one, or one without a password yet, waits for its address to confirm.
pub(crate) fn register(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    name: Option<&str>,
    password: Option<&str>,
) -> rusqlite::Result<()> {
    let Some(password) = password else {
        cx.fail(line, msg!("seats.register_needs_password"));
        return Ok(());
    };
    let account = tx
        .player_by_email(&cx.sender)?
        .and_then(|a| a.password_hash.clone().map(|h| (a, h)));
    if let Some((account, hash)) = account {
        let seat = Seat::account(account.id, &account.email);
        match lockout::check_password(cx, tx, &seat, password, &hash)? {
            Checked::Right => {
                cx.account_proven = Some(account.id);
                if name.is_some() {
                    tx.set_account(account.id, name, None)?;
                }
                let player = tx.player(account.id)?;
                cx.say(match &player.name {
                    Some(name) => {
                        msg!("seats.registered_as", address = player.email, name = name)
                    }
                    None => msg!("seats.registered", address = player.email),
                });
            }
            other => lockout::refused(
                cx,
                line,
                other,
                msg!("seats.account_wrong_password", address = account.email),
            ),
        }
        return Ok(());
    }
    if cx.confirmed != Confirmed::BySender {
        cx.hold(msg!("confirm.what_register"));
        return Ok(());
    }
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    let Some(hash) = password::new_password(cx, line, password) else {
        return Ok(());
    };
    tx.set_account(player.id, name, Some(&hash))?;
    let player = tx.player(player.id)?;
    cx.say(match &player.name {
        Some(name) => msg!("seats.registered_as", address = player.email, name = name),
        None => msg!("seats.registered", address = player.email),
    });
    Ok(())
}

/// CREATE: at once from a proven address, else once the address confirms.
pub(crate) fn create(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &str,
    password: &str,
    variant: Option<&str>,
    moderated: bool,
) -> rusqlite::Result<()> {
    if cx.proven {
        // What is cheap to check comes before the hash.
        if !can_create(cx, tx, line, game, variant)? {
            return Ok(());
        }
        let Some(hash) = password::new_password(cx, line, password) else {
            return Ok(());
        };
        return create_game(cx, tx, line, game, &hash, variant, moderated);
    }
    if can_create(cx, tx, line, game, variant)? {
        cx.hold(msg!("confirm.what_create", game = game));
    }
    Ok(())
}

/// Whether a game of that name and variant can be made; says why not.
fn can_create(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &str,
    variant: Option<&str>,
) -> rusqlite::Result<bool> {
    let variant_id = variant.unwrap_or("standard");
    if !crate::game::is_here_i_stand(variant_id) && cx.judge.variant(variant_id).is_none() {
        let known: Vec<&str> = cx.judge.variants.iter().map(|v| v.id.as_str()).collect();
        let text = msg!(
            "seats.no_such_variant",
            variant = variant_id,
            variants = known.join(", ")
        );
        cx.fail(line, text);
        return Ok(false);
    }
    if tx.game_by_name(game)?.is_some() {
        cx.fail(line, msg!("seats.game_exists", game = game));
        return Ok(false);
    }
    // So many games an account (all its addresses together) may create a day.
    let most = cx.judge.config.limits.games_created_per_day;
    if let Some(player) = tx.player_by_email(&cx.sender)?
        && tx.games_created_by(player.id, cx.now - chrono::Duration::days(1))? >= most as usize
    {
        cx.fail(line, msg!("limits.games_per_day", most = most));
        return Ok(false);
    }
    Ok(true)
}

/// Makes the game, with the sender as its first player or (moderated) its master.
pub(crate) fn create_game(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &str,
    password_hash: &str,
    variant: Option<&str>,
    moderated: bool,
) -> rusqlite::Result<()> {
    if !can_create(cx, tx, line, game, variant)? {
        return Ok(());
    }
    let variant_id = variant.unwrap_or("standard");
    if crate::game::is_here_i_stand(variant_id) {
        return crate::judge::commands::his::his_create(cx, tx, line, game, password_hash);
    }
    let variant = cx
        .judge
        .variant(variant_id)
        .expect("can_create checked the variant");
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    let d = &cx.judge.config.deadlines;
    let hours = [
        d.movement_hours,
        d.retreat_hours,
        d.adjustment_hours,
        d.reminder_hours,
    ];
    let mut row = tx.create_game(
        game,
        &variant.id,
        player.id,
        &cx.judge.config.judge.time_zone,
        hours,
        cx.now,
    )?;
    let mut settings = GameSettings::configured(d);
    settings.moderated = moderated;
    if moderated {
        settings.masters.push(player.id);
    }
    row.settings = settings;
    tx.save_game(&row)?;
    let role = if moderated { "master" } else { "player" };
    tx.set_member(row.id, player.id, None, role, password_hash, cx.now)?;
    let needed = variant.map.powers.len();
    if moderated {
        cx.say(msg!(
            "seats.created_moderated",
            game = row.name,
            variant = variant.name,
            needed = needed
        ));
        cx.master_of = Some(row);
        return Ok(());
    }
    cx.say(msg!(
        "seats.created",
        game = row.name,
        variant = variant.name,
        needed = needed
    ));
    cx.joined = Some(row.clone());
    if needed == 1 {
        let mut row = row;
        cx.caused.extend(cx.judge.start_game(tx, &mut row, cx.now)?);
    }
    Ok(())
}

/// SIGNON ?game password: a master or an observer signs on in that role; a newcomer joins
/// a forming game (once their address is proven). Joining again never changes a password.
pub(crate) fn join(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &str,
    password: &str,
) -> rusqlite::Result<()> {
    let Some(row) = secrecy::find_game_to_join(cx, tx, line, game, None)? else {
        return Ok(());
    };
    let sender = tx.player_by_email(&cx.sender)?;
    let membership = tx
        .members(row.id)?
        .into_iter()
        .find(|m| sender.as_ref().is_some_and(|p| p.id == m.player_id));
    if let Some(member) = membership {
        let seat = Seat::member(&row, member.player_id, &member.email, &member.role);
        let checked = lockout::check_password(cx, tx, &seat, password, &member.password_hash)?;
        if checked != Checked::Right {
            lockout::refused(
                cx,
                line,
                checked,
                msg!("seats.wrong_password", game = row.name),
            );
            return Ok(());
        }
        cx.account_proven = Some(member.player_id);
        // Answered in the language the member reads the game's letters in, as a power is.
        cx.language = cx.judge.language_of(tx, &row, &member)?;
        match member.role.as_str() {
            "master" => {
                cx.say(msg!("seats.master_signed_on", game = row.name));
                cx.master_of = Some(row);
            }
            "observer" => {
                cx.say(msg!("seats.observer_signed_on", game = row.name));
                cx.watching = Some(row);
            }
            _ => {
                cx.say(msg!("seats.already_joined", game = row.name));
                if row.state == GameState::Forming {
                    cx.joined = Some(row);
                }
            }
        }
        return Ok(());
    }
    if !may_join(cx, line, &row) {
        return Ok(());
    }
    if !cx.proven {
        cx.hold(msg!("confirm.what_join", game = row.name));
        return Ok(());
    }
    let Some(hash) = password::new_password(cx, line, password) else {
        return Ok(());
    };
    join_game(cx, tx, line, row, &hash)
}

/// Whether the sender may join `row` now: it forms, and its lists let them in.
fn may_join(cx: &mut Session<'_>, line: usize, row: &GameRow) -> bool {
    if row.state != GameState::Forming {
        cx.fail(line, msg!("seats.already_started", game = row.name));
        return false;
    }
    if !secrecy::may_enter(cx, row) {
        let text = msg!("seats.not_open", game = row.name, address = cx.sender);
        cx.fail(line, text);
        return false;
    }
    true
}

/// The sender joins the forming game `row` with this password (and preference).
pub(crate) fn join_game(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    row: GameRow,
    password_hash: &str,
) -> rusqlite::Result<()> {
    let row = tx.game(row.id)?;
    if !may_join(cx, line, &row) {
        return Ok(());
    }
    let variant = cx
        .judge
        .variant(&row.variant)
        .expect("games are created with known variants");
    let needed = variant.map.powers.len();
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    let members = tx.members(row.id)?;
    if members.iter().any(|m| m.player_id == player.id) {
        cx.fail(line, msg!("seats.already_member", game = row.name));
        return Ok(());
    }
    tx.set_member(row.id, player.id, None, "player", password_hash, cx.now)?;
    let joined = members.iter().filter(|m| m.role == "player").count() + 1;
    cx.joined = Some(row.clone());
    cx.say(msg!(
        "seats.joined",
        game = row.name,
        joined = joined,
        needed = needed
    ));
    if joined >= needed && row.settings.clone().manual_start {
        cx.say(msg!("forming.full_manual", game = row.name));
    } else if joined >= needed && !cx.filled.contains(&row.id) {
        cx.filled.push(row.id);
    }
    Ok(())
}

/// Starts the games this letter filled, now that the whole letter is read.
pub(crate) fn start_filled(cx: &mut Session<'_>, tx: &Tx) -> rusqlite::Result<()> {
    for id in std::mem::take(&mut cx.filled) {
        let mut row = tx.game(id)?;
        if row.state != GameState::Forming {
            continue;
        }
        cx.say(msg!("seats.full", game = row.name));
        cx.caused.extend(cx.judge.start_game(tx, &mut row, cx.now)?);
    }
    Ok(())
}

/// SIGNON <letter><game> password: signs on as the power's player; a power without a
/// player in a running game is taken over (once the sender's address is proven).
pub(crate) fn signon(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    letter: char,
    game: &str,
    password: &str,
) -> rusqlite::Result<()> {
    let Some(row) = secrecy::find_game_to_join(cx, tx, line, game, Some((letter, password)))?
    else {
        return Ok(());
    };
    let variant = cx
        .judge
        .variant(&row.variant)
        .expect("games are created with known variants");
    let map = &variant.map;
    let Some(power) = map
        .powers
        .iter()
        .find(|p| p.letter.eq_ignore_ascii_case(&letter))
    else {
        let letters: String = map.powers.iter().map(|p| p.letter).collect();
        let text = msg!(
            "seats.no_such_letter",
            game = row.name,
            letter = letter,
            letters = letters
        );
        cx.fail(line, text);
        return Ok(());
    };
    let members = tx.members(row.id)?;
    let member = members
        .iter()
        .find(|m| m.role == "player" && m.power.as_deref() == Some(power.id.as_str()));
    let Some(member) = member else {
        if row.state != GameState::Active {
            let text = msg!("seats.wrong_power_or_password", game = row.name);
            cx.fail(line, text);
            return Ok(());
        }
        if !may_take_over(cx, tx, line, &row)? {
            return Ok(());
        }
        if !cx.proven {
            let what = msg!("confirm.what_take_over", power = *power, game = row.name);
            cx.hold(what);
            return Ok(());
        }
        let Some(hash) = password::new_password(cx, line, password) else {
            return Ok(());
        };
        return take_seat(cx, tx, line, row, letter, &hash);
    };
    let owner = Some((member.player_id, member.email.clone()));
    let seat = Seat::power(&row, &power.id, &power.name, owner);
    let checked = lockout::check_password(cx, tx, &seat, password, &member.password_hash)?;
    if checked != Checked::Right {
        let text = msg!("seats.wrong_power_or_password", game = row.name);
        lockout::refused(cx, line, checked, text);
        return Ok(());
    }
    cx.account_proven = Some(member.player_id);
    cx.answer_for(member.player_id, &member.email);
    cx.language = cx.judge.language_of(tx, &row, member)?;
    cx.say(msg!("seats.signed_on", power = *power, game = row.name));
    cx.sign_on(row, power.id.clone());
    Ok(())
}

/// OBSERVE game password: the sender watches the game (once their address is proven).
pub(crate) fn observe(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &str,
    password: &str,
) -> rusqlite::Result<()> {
    let Some(row) = secrecy::find_game(cx, tx, line, game)? else {
        return Ok(());
    };
    if let Some(player) = tx.player_by_email(&cx.sender)?
        && tx.members(row.id)?.iter().any(|m| m.player_id == player.id)
    {
        cx.say(msg!("seats.already_member", game = row.name));
        return Ok(());
    }
    if !cx.proven {
        cx.hold(msg!("confirm.what_observe", game = row.name));
        return Ok(());
    }
    let Some(hash) = password::new_password(cx, line, password) else {
        return Ok(());
    };
    observe_game(cx, tx, row, &hash)
}

/// The sender becomes an observer of `row`.
pub(crate) fn observe_game(
    cx: &mut Session<'_>,
    tx: &Tx,
    row: GameRow,
    password_hash: &str,
) -> rusqlite::Result<()> {
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    if tx.members(row.id)?.iter().any(|m| m.player_id == player.id) {
        cx.say(msg!("seats.already_member", game = row.name));
        return Ok(());
    }
    tx.set_member(row.id, player.id, None, "observer", password_hash, cx.now)?;
    cx.say(msg!("seats.observing", game = row.name));
    Ok(())
}

pub(crate) fn resign(cx: &mut Session<'_>, tx: &Tx, line: usize) -> rusqlite::Result<()> {
    let Some((row, power)) = cx.signed_on.take() else {
        cx.fail(line, msg!("seats.resign_needs_signon"));
        return Ok(());
    };
    if let Some(member) = tx
        .members(row.id)?
        .into_iter()
        .find(|m| m.power.as_deref() == Some(power.as_str()))
    {
        tx.remove_member(row.id, member.player_id)?;
    }
    cx.say(msg!("seats.resigned", game = row.name));
    if let Some(info) = cx
        .judge
        .variant(&row.variant)
        .and_then(|v| v.map.power_by_id(&power).map(|p| v.map.power(p).clone()))
    {
        notices::announce_seat(
            cx,
            tx,
            &row,
            msg!(
                "seats.open_subject",
                game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &row),
                power = info
            ),
            msg!(
                "seats.open",
                game = row.name,
                power = info,
                letter = info.letter
            ),
        )?;
    }
    Ok(())
}

/// SET PASSWORD: after a SIGNON, the password of that seat in that game (power, master
/// or observer), and after joining a forming game, that game's; before any, the password of the sender's account, which needs the old
/// one (REGISTER old-password first) or else a confirmation from the account's address.
pub(crate) fn set_password(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    password: &str,
) -> rusqlite::Result<()> {
    let seat = match (&cx.signed_on, &cx.master_of, &cx.watching) {
        (Some((game, power)), _, _) => tx
            .members(game.id)?
            .into_iter()
            .find(|m| m.power.as_deref() == Some(power.as_str()))
            .map(|m| (game.clone(), m.player_id)),
        (None, Some(game), _) | (None, None, Some(game)) => {
            match tx.player_by_email(&cx.sender)? {
                Some(player) => Some((game.clone(), player.id)),
                None => None,
            }
        }
        // Just joined (or created) a forming game in this letter: its password.
        (None, None, None) => match (&cx.joined, tx.player_by_email(&cx.sender)?) {
            (Some(game), Some(player)) => Some((game.clone(), player.id)),
            _ => None,
        },
    };
    if let Some((game, player)) = seat {
        let Some(hash) = password::new_password(cx, line, password) else {
            return Ok(());
        };
        tx.set_member_password(game.id, player, &hash)?;
        cx.say(msg!("letter.game_password_changed", game = game.name));
        return Ok(());
    }
    let Some(player) = tx.player_by_email(&cx.sender)? else {
        cx.fail(line, msg!("wishes.not_registered", address = cx.sender));
        return Ok(());
    };
    if cx.account_proven != Some(player.id) && cx.confirmed != Confirmed::BySender {
        cx.hold(msg!("confirm.what_password"));
        return Ok(());
    }
    let Some(hash) = password::new_password(cx, line, password) else {
        return Ok(());
    };
    tx.set_account(player.id, None, Some(&hash))?;
    cx.say(msg!("letter.password_changed"));
    Ok(())
}

/// Whether the sender may take over a power of `row`: its lists let them in and they
/// play no power of it yet.
fn may_take_over(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    row: &GameRow,
) -> rusqlite::Result<bool> {
    if !secrecy::may_enter(cx, row) {
        let text = msg!("seats.not_open", game = row.name, address = cx.sender);
        cx.fail(line, text);
        return Ok(false);
    }
    if let Some(player) = tx.player_by_email(&cx.sender)?
        && tx
            .members(row.id)?
            .iter()
            .any(|m| m.player_id == player.id && m.role == "player")
    {
        cx.fail(line, msg!("seats.already_playing", game = row.name));
        return Ok(false);
    }
    Ok(true)
}

/// The sender takes over the power with `letter` in `row`, if it still has no player.
pub(crate) fn take_seat(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    row: GameRow,
    letter: char,
    password_hash: &str,
) -> rusqlite::Result<()> {
    let row = tx.game(row.id)?;
    if row.kind() == GameKind::HereIStand {
        let Some(power) = crate::judge::his::power_by_letter(letter) else {
            return Ok(());
        };
        return crate::judge::commands::his::his_take(cx, tx, line, row, power, password_hash);
    }
    let Some(variant) = cx.judge.variant(&row.variant) else {
        return Ok(());
    };
    let power = variant
        .map
        .powers
        .iter()
        .find(|p| p.letter.eq_ignore_ascii_case(&letter))
        .cloned();
    let taken = tx.members(row.id)?.iter().any(|m| {
        m.role == "player"
            && power
                .as_ref()
                .is_some_and(|p| m.power.as_deref() == Some(p.id.as_str()))
    });
    let Some(power) = power.filter(|_| !taken && row.state == GameState::Active) else {
        cx.fail(
            line,
            msg!("seats.no_longer_open", game = row.name, letter = letter),
        );
        return Ok(());
    };
    if !may_take_over(cx, tx, line, &row)? {
        return Ok(());
    }
    take_over(cx, tx, row, &power, password_hash)
}

/// A newcomer takes over a power that has no player: the deadline moves so they have a
/// whole phase, and the game is told.
fn take_over(
    cx: &mut Session<'_>,
    tx: &Tx,
    mut row: crate::store::GameRow,
    power: &crate::diplomacy::map::PowerInfo,
    password_hash: &str,
) -> rusqlite::Result<()> {
    // A new player starts with no late phases counted (SET LATE COUNT).
    row.settings.late_counts.remove(&power.id);
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    tx.set_member(
        row.id,
        player.id,
        Some(&power.id),
        "player",
        password_hash,
        cx.now,
    )?;
    let mut phase = None;
    if let Some((variant, position)) = cx.judge.game_position(&row) {
        phase = Some(crate::game::phases::phase_message(variant, &position));
        let fresh = crate::game::phases::next_deadline(&row, position.turn.kind, cx.now);
        if row.deadline_at.is_none_or(|d| d < fresh) {
            row.deadline_at = Some(fresh);
            row.reminded = false;
            row.settings.deadline_moved();
        }
    }
    tx.save_game(&row)?;
    let text = msg!(
        "seats.taken_over",
        player = secrecy::member_named(tx, &row, player.id)?,
        power = *power,
        game = row.name,
        deadline = crate::judge::deadline_of(&row)
    );
    // The newcomer's answer says what the others are told: the phase and its deadline.
    cx.say(match phase {
        Some(phase) => msg!(
            "seats.now_play",
            power = *power,
            game = row.name,
            phase = phase,
            deadline = crate::judge::deadline_of(&row)
        ),
        None => msg!("seats.now_play_only", power = *power, game = row.name),
    });
    notices::announce_seat(
        cx,
        tx,
        &row,
        msg!(
            "seats.taken_over_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &row),
            power = *power
        ),
        text,
    )?;
    cx.sign_on(row, power.id.clone());
    Ok(())
}
