//! What players set for themselves: SET ADDRESS, WAIT, ABSENCE, DRAW, CONCEDE, PREFERENCE,
//! LANGUAGE. Draw votes and concessions are secret and cleared every phase; a draw passes
//! when every survivor votes for it.

use crate::game::GameState;
use chrono::NaiveDate;

use crate::diplomacy::power::PowerId;
use crate::game::settings::{EndedBy, Ending, Wishes};
use crate::judge::access::confirm::Waiting;
use crate::judge::access::secrecy;
use crate::judge::commands::addresses;
use crate::judge::deadline_of;
use crate::judge::session::Session;
use crate::judge::session::notices;
use crate::lang::Lang;
use crate::letter::OutgoingLetter;
use crate::message::Arg;
use crate::report::Message;
use crate::store::{GameRow, MemberRow, Tx};
use crate::text::command::Setting;
use crate::{msg, tr};

/// The member signed on as a power, with its game.
fn seat(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    what: Message,
) -> rusqlite::Result<Option<(GameRow, MemberRow)>> {
    let (game, member) = match (cx.signed_on.clone(), cx.joined.clone()) {
        (Some((game, power)), _) => {
            let game = tx.game(game.id)?;
            let member = tx
                .members(game.id)?
                .into_iter()
                .find(|m| m.power.as_deref() == Some(power.as_str()));
            (game, member)
        }
        // Just joined a forming game in this letter (SET PREFERENCE after SIGNON ?game).
        (None, Some(game)) => {
            let game = tx.game(game.id)?;
            let player = tx.player_by_email(&cx.sender)?;
            let member = tx
                .members(game.id)?
                .into_iter()
                .find(|m| player.as_ref().is_some_and(|p| p.id == m.player_id));
            (game, member)
        }
        (None, None) => {
            cx.fail(line, msg!("wishes.needs_signon", what = what));
            return Ok(None);
        }
    };
    match member {
        Some(m) => Ok(Some((game, m))),
        None => {
            cx.fail(line, msg!("wishes.no_seat", game = game.name));
            Ok(None)
        }
    }
}

/// SET for a player's own wishes.
pub(crate) fn player_setting(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    setting: &Setting,
) -> rusqlite::Result<()> {
    match setting {
        Setting::Address { address, password } => {
            return set_address(cx, tx, line, address.as_deref(), password.as_deref());
        }
        Setting::Language(language) => return set_language(cx, tx, *language),
        Setting::ShowAddress(code) => return secrecy::show_address(cx, tx, line, code.as_deref()),
        Setting::HideAddress => return secrecy::hide_address(cx, tx),
        Setting::Broadcast(on) => return set_broadcast(cx, tx, line, *on),
        _ => {}
    }
    let Some((mut game, member)) = seat(cx, tx, line, msg!("master.this_set"))? else {
        return Ok(());
    };
    let mut wishes = tx.member_wishes(game.id, member.player_id)?;
    match setting {
        Setting::Wait(true)
            if game.settings.clone().strict_wait && !owes_orders(cx, tx, &game, &member)? =>
        {
            cx.fail(line, msg!("wishes.strict_wait", game = game.name));
            return Ok(());
        }
        Setting::Wait(on) => {
            wishes.wait = *on;
            if !*on {
                cx.touch(game.id, false);
            }
            cx.say(if *on {
                msg!("wishes.wait")
            } else {
                msg!("wishes.no_wait")
            });
        }
        Setting::Absence { from, to } => {
            // The days as written, in the game's zone.
            let day = |date: &crate::text::date::WrittenDate| {
                let midnight = chrono::NaiveTime::MIN;
                crate::judge::phases::timing::moment(&game, date, midnight, cx.now).map(|at| {
                    let tz: chrono_tz::Tz = game.time_zone.parse().unwrap_or(chrono_tz::UTC);
                    at.with_timezone(&tz).format("%Y-%m-%d").to_string()
                })
            };
            let days = day(from).and_then(|f| match to {
                Some(to) => day(to).map(|t| (f, Some(t))),
                None => Ok((f, None)),
            });
            let (from, to) = match days {
                Ok(days) => days,
                Err(why) => {
                    cx.fail(line, why);
                    return Ok(());
                }
            };
            let Some(message) =
                absence(cx, tx, line, &mut game, &mut wishes, &from, to.as_deref())?
            else {
                return Ok(());
            };
            cx.say(message);
        }
        Setting::NoAbsence => {
            wishes.absence = None;
            cx.say(msg!("wishes.absence_cancelled"));
        }
        Setting::Draw(powers) => {
            wishes.draw = Some(powers.clone());
            cx.say(msg!("wishes.draw"));
        }
        Setting::NoDraw => {
            wishes.draw = None;
            cx.say(msg!("wishes.no_draw"));
        }
        Setting::Map(on) => {
            wishes.map = Some(*on);
            cx.say(if *on {
                msg!("wishes.map_on", game = game.name)
            } else {
                msg!("wishes.map_off", game = game.name)
            });
        }
        Setting::Concede(_) if !game.settings.clone().concessions => {
            cx.fail(line, msg!("wishes.no_concessions", game = game.name));
            return Ok(());
        }
        Setting::Concede(power) => {
            let named = cx.judge.game_position(&game).and_then(|(variant, _)| {
                crate::judge::commands::credit::power_named(&variant.map, power)
                    .map(|p| variant.map.power(p).clone())
            });
            let Some(named) = named else {
                cx.fail(line, msg!("wishes.no_such_power", power = power));
                return Ok(());
            };
            wishes.concede = Some(named.id.clone());
            cx.say(msg!("wishes.concede", power = named));
        }
        Setting::NoConcede => {
            wishes.concede = None;
            cx.say(msg!("wishes.no_concede"));
        }
        Setting::Preference(_) if game.state != GameState::Forming => {
            cx.fail(line, msg!("wishes.preference_too_late", game = game.name));
            return Ok(());
        }
        Setting::Preference(list) => {
            wishes.preference = Some(list.clone());
            cx.say(msg!("wishes.preference", list = list));
        }
        _ => return Ok(()),
    }
    tx.set_member_wishes(game.id, member.player_id, &wishes)?;
    if matches!(setting, Setting::Draw(_) | Setting::Concede(_)) {
        check_end_by_vote(cx, tx, game)?;
    }
    Ok(())
}

/// SET ADDRESS new [password]: the account moves to the new address once a token mailed
/// there comes back from it (its further addresses stay its own); to one of its further
/// addresses, game letters go there from now on, with no token (`addresses::choose`). Asking needs the account's password: given here, or proven by
/// signing on to one of its seats earlier in the letter. The old address is told now and
/// when the move happens.
fn set_address(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    address: Option<&str>,
    password: Option<&str>,
) -> rusqlite::Result<()> {
    let new = address.unwrap_or(&cx.sender).to_lowercase();
    let unregistered = msg!("wishes.not_registered", address = cx.sender);
    let needs = msg!("wishes.address_needs_password");
    let Some(account) = addresses::proven_account(cx, tx, line, password, unregistered, needs)?
    else {
        return Ok(());
    };
    if new == account.email {
        cx.fail(line, msg!("wishes.address_same", address = new));
        return Ok(());
    }
    // One of the account's further addresses: game letters go there from now on.
    if tx.is_address_of(account.id, &new)? {
        return addresses::choose(cx, tx, &account, &new);
    }
    // An address another account has is refused only when its own reader confirms (in
    // `confirm::move_account`): the asker's answer is the same whoever has it.
    // One letter, one account, one address (counted with I AM ALSO's additions).
    let refusal = |bound| match bound {
        addresses::Bound::ALetter => msg!("wishes.one_move_a_letter"),
        addresses::Bound::ADay => msg!("wishes.one_move_a_day", address = account.email),
        addresses::Bound::AskedToday => msg!("wishes.asked_today", address = new),
    };
    if !addresses::within_bounds(cx, tx, line, &account, &new, refusal)? {
        return Ok(());
    }
    let waiting = Waiting::Move {
        player: account.id,
        from: account.email.clone(),
    };
    addresses::mail_request(cx, tx, &account, &new, &waiting, |token, expires| {
        msg!(
            "wishes.address_confirm",
            old = account.email,
            new = new,
            token = token,
            expires = expires
        )
    })?;
    let words = cx.words();
    if account.email != cx.answer_to {
        cx.caused.push(OutgoingLetter::fresh(
            &account.email,
            tr!(words, "wishes.address_subject"),
            tr!(
                words,
                "wishes.address_asked",
                old = account.email,
                new = new,
                sender = cx.sender,
                keeper = cx.judge.config.judge.keeper
            ) + "\n",
        ));
    }
    cx.say(msg!("wishes.address_waits", old = account.email, new = new));
    Ok(())
}

/// SET LANGUAGE: letters to you in this language (`en`, `ru`).
fn set_language(cx: &mut Session<'_>, tx: &Tx, language: Lang) -> rusqlite::Result<()> {
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    tx.set_player_language(player.id, language)?;
    if let Some((game, _)) = &cx.signed_on
        && let Some(member) = tx
            .members(game.id)?
            .into_iter()
            .find(|m| m.player_id == player.id)
    {
        let mut wishes = tx.member_wishes(game.id, member.player_id)?;
        wishes.language = Some(language);
        tx.set_member_wishes(game.id, member.player_id, &wishes)?;
    }
    cx.language = language;
    cx.say(if language == Lang::Ru {
        msg!("wishes.language_ru")
    } else {
        msg!("wishes.language_en")
    });
    Ok(())
}

/// SET ABSENCE: a deadline inside the absence moves to its end (capped by the game's
/// longest absence); the masters are told.
fn absence(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &mut GameRow,
    wishes: &mut Wishes,
    from: &str,
    to: Option<&str>,
) -> rusqlite::Result<Option<Message>> {
    let settings = game.settings.clone();
    let parse = |d: &str| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok();
    let (Some(start), end) = (parse(from), to.map(parse)) else {
        cx.fail(line, msg!("wishes.dates"));
        return Ok(None);
    };
    let Some(end) = end.unwrap_or(Some(start)) else {
        cx.fail(line, msg!("wishes.dates"));
        return Ok(None);
    };
    let days = (end - start).num_days() + 1;
    if days < 1 {
        cx.fail(line, msg!("wishes.absence_backwards"));
        return Ok(None);
    }
    if days > i64::from(settings.max_absence_days) {
        cx.fail(
            line,
            msg!(
                "wishes.absence_length",
                days = settings.max_absence_days,
                game = game.name
            ),
        );
        return Ok(None);
    }
    wishes.absence = Some((from.to_string(), to.map(str::to_string)));
    let to = to.unwrap_or(from);
    let mut message = msg!("wishes.absence_from_to", from = from, to = to);
    if let Some(deadline) = game.deadline_at
        && let Some(moved) =
            crate::judge::phases::timing::past_absence(game, from, Some(to), deadline)
    {
        game.deadline_at = Some(moved);
        game.reminded = false;
        tx.save_game(game)?;
        message = msg!(
            "wishes.absence_moves",
            from = from,
            to = to,
            game = game.name,
            deadline = deadline_of(game)
        );
        let notice = msg!(
            "wishes.absence_notice",
            game = game.name,
            from = from,
            to = to,
            deadline = deadline_of(game)
        );
        notices::announce(
            cx,
            tx,
            game,
            msg!(
                "wishes.absence_subject",
                game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, game)
            ),
            notice,
        )?;
    }
    Ok(Some(message))
}

/// Ends the game when every survivor votes the same draw, or concedes to one power.
fn check_end_by_vote(cx: &mut Session<'_>, tx: &Tx, mut game: GameRow) -> rusqlite::Result<()> {
    let Some((variant, position)) = cx.judge.game_position(&game) else {
        return Ok(());
    };
    let map = &variant.map;
    let survivors = crate::diplomacy::progress::survivors(map, &position);
    let settings = game.settings.clone();
    let members = tx.members(game.id)?;
    let mut votes = Vec::new();
    let mut concessions = Vec::new();
    for power in &survivors {
        let id = &map.power(*power).id;
        let member = members
            .iter()
            .find(|m| m.power.as_deref() == Some(id.as_str()));
        let wishes = match member {
            Some(m) => tx.member_wishes(game.id, m.player_id)?,
            None => Wishes::default(),
        };
        votes.push(wishes.draw.map(|powers| {
            // Only survivors share a draw: a power named that is out of the game is not.
            let mut named: Vec<PowerId> = powers
                .iter()
                .filter_map(|p| crate::judge::commands::credit::power_named(map, p))
                .filter(|p| survivors.contains(p))
                .collect();
            if named.is_empty() || settings.dias {
                named = survivors.clone();
            }
            named.sort();
            named
        }));
        concessions.push(
            wishes
                .concede
                .and_then(|p| crate::judge::commands::credit::power_named(map, &p)),
        );
    }
    let draw = match votes.first() {
        Some(Some(first)) if votes.iter().all(|v| v.as_ref() == Some(first)) => Some(first.clone()),
        _ => None,
    };
    let winner = survivors.iter().copied().find(|w| {
        survivors
            .iter()
            .zip(&concessions)
            .all(|(p, c)| p == w || *c == Some(*w))
    });
    let prefix = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game);
    // As njudge writes it: the powers in the subject by their letters, in the text by name.
    let (text, subject, how) = match (draw, winner) {
        // A draw voted for one power alone is that power's by concession.
        (Some(powers), _) if powers.len() > 1 => {
            let names: Vec<&str> = powers.iter().map(|p| map.power(*p).name.as_str()).collect();
            let letters: String = powers.iter().map(|p| map.power(*p).letter).collect();
            // The names in each language, all but the last joined, and the last.
            let (most, last) = powers.split_at(powers.len().saturating_sub(1));
            let named = |part: &[PowerId]| {
                Arg::Each(
                    Lang::ALL
                        .map(|l| {
                            let names: Vec<&str> =
                                part.iter().map(|p| map.power(*p).name_in(l)).collect();
                            (l, names.join(", "))
                        })
                        .to_vec(),
                )
            };
            (
                msg!(
                    "wishes.draw_end",
                    game = game.name,
                    powers = named(most),
                    last = named(last)
                ),
                msg!("wishes.draw_subject", game = prefix, powers = letters),
                EndedBy::Draw {
                    powers: names.iter().map(|n| n.to_string()).collect(),
                },
            )
        }
        (Some(powers), _) if powers.len() == 1 && survivors.len() > 1 => (
            msg!(
                "wishes.concede_end",
                game = game.name,
                power = *map.power(powers[0])
            ),
            msg!(
                "wishes.concede_subject",
                game = prefix,
                power = map.power(powers[0]).letter.to_string()
            ),
            EndedBy::Concession {
                to: map.power(powers[0]).name.clone(),
            },
        ),
        (None, Some(w)) if survivors.len() > 1 => (
            msg!(
                "wishes.concede_end",
                game = game.name,
                power = *map.power(w)
            ),
            msg!(
                "wishes.concede_subject",
                game = prefix,
                power = map.power(w).letter.to_string()
            ),
            EndedBy::Concession {
                to: map.power(w).name.clone(),
            },
        ),
        _ => return Ok(()),
    };
    game.settings.ending = Some(Ending { how, at: cx.now });
    game.state = GameState::Finished;
    game.deadline_at = None;
    game.process_at = None;
    tx.save_game(&game)?;
    cx.caused
        .extend(cx.judge.publish_diaries(tx, &game, cx.now)?);
    cx.say(text.clone());
    // The board as the game ends, and its map, close the answer as they close the end letter.
    let words = cx.words();
    let wants_map = match members
        .iter()
        .find(|m| m.email == cx.answer_to || cx.is_own(&m.email))
    {
        Some(m) => tx.member_wishes(game.id, m.player_id)?.map.unwrap_or(true),
        None => true,
    };
    let (board, picture) = notices::final_board(cx.judge, words, &game, wants_map);
    if !board.is_empty() {
        cx.say_text(board);
    }
    // A letter that ends several games carries no more pictures than any other answer.
    if let Some(picture) =
        picture.filter(|_| cx.attachments.len() < crate::judge::session::PICTURES_PER_LETTER)
    {
        cx.attachments.push((game.name.clone(), picture));
    }
    notices::announce(cx, tx, &game, subject, text)?;
    cx.closing.push(game.id);
    cx.refresh(game);
    Ok(())
}

/// Whether `member` of `game` owes orders this phase (SET STRICT WAIT lets only them wait).
fn owes_orders(
    cx: &Session<'_>,
    tx: &Tx,
    game: &GameRow,
    member: &MemberRow,
) -> rusqlite::Result<bool> {
    let Some((variant, position)) = cx.judge.game_position(game) else {
        return Ok(false);
    };
    let power = member
        .power
        .as_deref()
        .and_then(|p| variant.map.power_by_id(p));
    let _ = tx;
    Ok(power
        .is_some_and(|p| crate::game::orders::powers_owing(&variant.map, &position).contains(&p)))
}

/// SET [NO] BROADCAST: an observer or master of the game signed on to stops (or starts
/// again) getting its broadcast press.
fn set_broadcast(cx: &mut Session<'_>, tx: &Tx, line: usize, on: bool) -> rusqlite::Result<()> {
    let game = cx.master_of.clone().or_else(|| cx.watching.clone());
    let Some(game) = game else {
        cx.fail(line, msg!("wishes.broadcast_who"));
        return Ok(());
    };
    let Some(player) = tx.player_by_email(&cx.sender)? else {
        return Ok(());
    };
    let mut wishes = tx.member_wishes(game.id, player.id)?;
    wishes.no_broadcast = !on;
    tx.set_member_wishes(game.id, player.id, &wishes)?;
    cx.say(if on {
        msg!("wishes.broadcast_on", game = game.name)
    } else {
        msg!("wishes.broadcast_off", game = game.name)
    });
    Ok(())
}
