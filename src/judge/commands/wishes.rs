//! What players set for themselves: SET ADDRESS, WAIT, ABSENCE, DRAW, CONCEDE, PREFERENCE,
//! LANGUAGE. Draw votes and concessions are secret and cleared every phase; a draw passes
//! when every survivor votes for it.

use crate::game::GameState;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};

use crate::diplomacy::power::PowerId;
use crate::game::settings::{EndedBy, Ending, Wishes};
use crate::judge::access::confirm::Waiting;
use crate::judge::access::seat::Checked;
use crate::judge::access::seat::Seat;
use crate::judge::deadline_of;
use crate::judge::session::Session;
use crate::lang::Lang;
use crate::letter::OutgoingLetter;
use crate::report::Message;
use crate::store::{GameRow, MemberRow, Tx};
use crate::text::command::Setting;
use crate::{msg, tr};

impl Session<'_> {
    /// The member signed on as a power, with its game.
    fn seat(
        &mut self,
        tx: &Tx,
        line: usize,
        what: Message,
    ) -> rusqlite::Result<Option<(GameRow, MemberRow)>> {
        let (game, member) = match (self.signed_on.clone(), self.joined.clone()) {
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
                let player = tx.player_by_email(&self.sender)?;
                let member = tx
                    .members(game.id)?
                    .into_iter()
                    .find(|m| player.as_ref().is_some_and(|p| p.id == m.player_id));
                (game, member)
            }
            (None, None) => {
                self.fail(line, msg!("wishes.needs_signon", what = what));
                return Ok(None);
            }
        };
        match member {
            Some(m) => Ok(Some((game, m))),
            None => {
                self.fail(line, msg!("wishes.no_seat", game = game.name));
                Ok(None)
            }
        }
    }

    /// SET for a player's own wishes.
    pub(crate) fn player_setting(
        &mut self,
        tx: &Tx,
        line: usize,
        setting: &Setting,
    ) -> rusqlite::Result<()> {
        match setting {
            Setting::Address { address, password } => {
                return self.set_address(tx, line, address.as_deref(), password.as_deref());
            }
            Setting::Language(language) => return self.set_language(tx, *language),
            Setting::ShowAddress(code) => return self.show_address(tx, line, code.as_deref()),
            Setting::HideAddress => return self.hide_address(tx),
            Setting::Broadcast(on) => return self.set_broadcast(tx, line, *on),
            _ => {}
        }
        let Some((mut game, member)) = self.seat(tx, line, msg!("master.this_set"))? else {
            return Ok(());
        };
        let mut wishes = tx.member_wishes(game.id, member.player_id)?;
        match setting {
            Setting::Wait(true)
                if game.settings.clone().strict_wait
                    && !self.owes_orders(tx, &game, &member)? =>
            {
                self.fail(line, msg!("wishes.strict_wait", game = game.name));
                return Ok(());
            }
            Setting::Wait(on) => {
                wishes.wait = *on;
                if !*on {
                    self.touch(game.id, false);
                }
                self.say(if *on {
                    msg!("wishes.wait")
                } else {
                    msg!("wishes.no_wait")
                });
            }
            Setting::Absence { from, to } => {
                // The days as written, in the game's zone.
                let day = |date: &crate::text::date::WrittenDate| {
                    let midnight = chrono::NaiveTime::MIN;
                    crate::judge::phases::timing::moment(&game, date, midnight, self.now).map(
                        |at| {
                            let tz: chrono_tz::Tz =
                                game.time_zone.parse().unwrap_or(chrono_tz::UTC);
                            at.with_timezone(&tz).format("%Y-%m-%d").to_string()
                        },
                    )
                };
                let days = day(from).and_then(|f| match to {
                    Some(to) => day(to).map(|t| (f, Some(t))),
                    None => Ok((f, None)),
                });
                let (from, to) = match days {
                    Ok(days) => days,
                    Err(why) => {
                        self.fail(line, why);
                        return Ok(());
                    }
                };
                let Some(message) =
                    self.absence(tx, line, &mut game, &mut wishes, &from, to.as_deref())?
                else {
                    return Ok(());
                };
                self.say(message);
            }
            Setting::NoAbsence => {
                wishes.absence = None;
                self.say(msg!("wishes.absence_cancelled"));
            }
            Setting::Draw(powers) => {
                wishes.draw = Some(powers.clone());
                self.say(msg!("wishes.draw"));
            }
            Setting::NoDraw => {
                wishes.draw = None;
                self.say(msg!("wishes.no_draw"));
            }
            Setting::Map(on) => {
                wishes.map = Some(*on);
                self.say(if *on {
                    msg!("wishes.map_on", game = game.name)
                } else {
                    msg!("wishes.map_off", game = game.name)
                });
            }
            Setting::Concede(_) if !game.settings.clone().concessions => {
                self.fail(line, msg!("wishes.no_concessions", game = game.name));
                return Ok(());
            }
            Setting::Concede(power) => {
                let named = self.judge.game_position(&game).and_then(|(variant, _)| {
                    crate::judge::commands::credit::power_named(&variant.map, power)
                        .map(|p| variant.map.power(p).clone())
                });
                let Some(named) = named else {
                    self.fail(line, msg!("wishes.no_such_power", power = power));
                    return Ok(());
                };
                wishes.concede = Some(named.id.clone());
                self.say(msg!("wishes.concede", power = named.name));
            }
            Setting::NoConcede => {
                wishes.concede = None;
                self.say(msg!("wishes.no_concede"));
            }
            Setting::Preference(_) if game.state != GameState::Forming => {
                self.fail(line, msg!("wishes.preference_too_late", game = game.name));
                return Ok(());
            }
            Setting::Preference(list) => {
                wishes.preference = Some(list.clone());
                self.say(msg!("wishes.preference", list = list));
            }
            _ => return Ok(()),
        }
        tx.set_member_wishes(game.id, member.player_id, &wishes)?;
        if matches!(setting, Setting::Draw(_) | Setting::Concede(_)) {
            self.check_end_by_vote(tx, game)?;
        }
        Ok(())
    }

    /// SET ADDRESS new [password]: the account moves to the new address once a token mailed
    /// there comes back from it. Asking needs the account's password: given here, or proven by
    /// signing on to one of its seats earlier in the letter. The old address is told now and
    /// when the move happens.
    fn set_address(
        &mut self,
        tx: &Tx,
        line: usize,
        address: Option<&str>,
        password: Option<&str>,
    ) -> rusqlite::Result<()> {
        let new = address.unwrap_or(&self.sender).to_lowercase();
        let account = match self.account_proven {
            Some(id) => Some(tx.player(id)?),
            None => tx.player_by_email(&self.sender)?,
        };
        let Some(account) = account else {
            self.fail(line, msg!("wishes.not_registered", address = self.sender));
            return Ok(());
        };
        if self.account_proven != Some(account.id) {
            let (Some(password), Some(hash)) = (password, account.password_hash.clone()) else {
                self.fail(line, msg!("wishes.address_needs_password"));
                return Ok(());
            };
            let seat = Seat::account(account.id, &account.email);
            let checked = self.check_password(tx, &seat, password, &hash)?;
            if checked != Checked::Right {
                let text = msg!("seats.account_wrong_password", address = account.email);
                self.refused(line, checked, text);
                return Ok(());
            }
            self.account_proven = Some(account.id);
        }
        if new == account.email {
            self.fail(line, msg!("wishes.address_same", address = new));
            return Ok(());
        }
        if tx.player_by_email(&new)?.is_some() {
            self.fail(line, msg!("wishes.address_taken", address = new));
            return Ok(());
        }
        // One letter, one account, one address: a day's bound on what a letter may have the
        // judge mail to other people's addresses.
        let day_ago = self.now - chrono::Duration::days(1);
        if self.moves_asked > 0 {
            self.fail(line, msg!("wishes.one_move_a_letter"));
            return Ok(());
        }
        if tx.moves_asked(account.id, day_ago)? > 0 {
            self.fail(line, msg!("wishes.one_move_a_day", address = account.email));
            return Ok(());
        }
        if tx.requests_mailed(&new, "address", day_ago)? > 0 {
            self.fail(line, msg!("wishes.asked_today", address = new));
            return Ok(());
        }
        self.moves_asked += 1;
        let waiting = Waiting::Move {
            player: account.id,
            from: account.email.clone(),
        };
        let hours = self.judge.config.limits.confirm_hours;
        let request = self.request(tx, &new, "address", &waiting, None, hours)?;
        tx.set_request_account(request.id, account.id)?;
        let words = self.words();
        self.caused.push(OutgoingLetter::fresh(
            &new,
            tr!(words, "confirm.subject"),
            tr!(
                words,
                "wishes.address_confirm",
                old = account.email,
                new = new,
                token = request.token,
                expires = self.when(request.expires_at)
            ) + "\n",
        ));
        if account.email != self.answer_to {
            self.caused.push(OutgoingLetter::fresh(
                &account.email,
                tr!(words, "wishes.address_subject"),
                tr!(
                    words,
                    "wishes.address_asked",
                    old = account.email,
                    new = new,
                    sender = self.sender,
                    keeper = self.judge.config.judge.keeper
                ) + "\n",
            ));
        }
        self.say(msg!("wishes.address_waits", old = account.email, new = new));
        Ok(())
    }

    /// SET LANGUAGE: letters to you in this language (`en`, `ru`).
    fn set_language(&mut self, tx: &Tx, language: Lang) -> rusqlite::Result<()> {
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        tx.set_player_language(player.id, language)?;
        if let Some((game, _)) = &self.signed_on
            && let Some(member) = tx
                .members(game.id)?
                .into_iter()
                .find(|m| m.player_id == player.id)
        {
            let mut wishes = tx.member_wishes(game.id, member.player_id)?;
            wishes.language = Some(language);
            tx.set_member_wishes(game.id, member.player_id, &wishes)?;
        }
        self.language = language;
        self.say(if language == Lang::Ru {
            msg!("wishes.language_ru")
        } else {
            msg!("wishes.language_en")
        });
        Ok(())
    }

    /// SET ABSENCE: a deadline inside the absence moves to its end (capped by the game's
    /// longest absence); the masters are told.
    fn absence(
        &mut self,
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
            self.fail(line, msg!("wishes.dates"));
            return Ok(None);
        };
        let Some(end) = end.unwrap_or(Some(start)) else {
            self.fail(line, msg!("wishes.dates"));
            return Ok(None);
        };
        let days = (end - start).num_days() + 1;
        if days < 1 {
            self.fail(line, msg!("wishes.absence_backwards"));
            return Ok(None);
        }
        if days > i64::from(settings.max_absence_days) {
            self.fail(
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
            && let Some(moved) = past_absence(game, from, Some(to), deadline)
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
            self.announce(
                tx,
                game,
                msg!(
                    "wishes.absence_subject",
                    game =
                        crate::judge::phases::subjects::prefix(&self.judge.config.judge.code, game)
                ),
                notice,
            )?;
        }
        Ok(Some(message))
    }

    /// Ends the game when every survivor votes the same draw, or concedes to one power.
    fn check_end_by_vote(&mut self, tx: &Tx, mut game: GameRow) -> rusqlite::Result<()> {
        let Some((variant, position)) = self.judge.game_position(&game) else {
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
            Some(Some(first)) if votes.iter().all(|v| v.as_ref() == Some(first)) => {
                Some(first.clone())
            }
            _ => None,
        };
        let winner = survivors.iter().copied().find(|w| {
            survivors
                .iter()
                .zip(&concessions)
                .all(|(p, c)| p == w || *c == Some(*w))
        });
        let (text, how) = match (draw, winner) {
            (Some(powers), _) => {
                let names: Vec<&str> = powers.iter().map(|p| map.power(*p).name.as_str()).collect();
                (
                    msg!(
                        "wishes.draw_end",
                        game = game.name,
                        powers = names.join(", ")
                    ),
                    EndedBy::Draw {
                        powers: names.iter().map(|n| n.to_string()).collect(),
                    },
                )
            }
            (None, Some(w)) if survivors.len() > 1 => (
                msg!(
                    "wishes.concede_end",
                    game = game.name,
                    power = map.power(w).name
                ),
                EndedBy::Concession {
                    to: map.power(w).name.clone(),
                },
            ),
            _ => return Ok(()),
        };
        game.settings.ending = Some(Ending { how, at: self.now });
        game.state = GameState::Finished;
        game.deadline_at = None;
        game.process_at = None;
        tx.save_game(&game)?;
        self.caused
            .extend(self.judge.publish_diaries(tx, &game, self.now)?);
        self.say(text.clone());
        self.announce(
            tx,
            &game,
            msg!(
                "wishes.over_subject",
                game = crate::judge::phases::subjects::prefix(&self.judge.config.judge.code, &game)
            ),
            text,
        )?;
        self.refresh(game);
        Ok(())
    }
}

impl Session<'_> {
    /// Whether `member` of `game` owes orders this phase (SET STRICT WAIT lets only them wait).
    fn owes_orders(&self, tx: &Tx, game: &GameRow, member: &MemberRow) -> rusqlite::Result<bool> {
        let Some((variant, position)) = self.judge.game_position(game) else {
            return Ok(false);
        };
        let power = member
            .power
            .as_deref()
            .and_then(|p| variant.map.power_by_id(p));
        let _ = tx;
        Ok(power.is_some_and(|p| {
            crate::game::orders::powers_owing(&variant.map, &position).contains(&p)
        }))
    }

    /// SET [NO] BROADCAST: an observer or master of the game signed on to stops (or starts
    /// again) getting its broadcast press.
    fn set_broadcast(&mut self, tx: &Tx, line: usize, on: bool) -> rusqlite::Result<()> {
        let game = self.master_of.clone().or_else(|| self.watching.clone());
        let Some(game) = game else {
            self.fail(line, msg!("wishes.broadcast_who"));
            return Ok(());
        };
        let Some(player) = tx.player_by_email(&self.sender)? else {
            return Ok(());
        };
        let mut wishes = tx.member_wishes(game.id, player.id)?;
        wishes.no_broadcast = !on;
        tx.set_member_wishes(game.id, player.id, &wishes)?;
        self.say(if on {
            msg!("wishes.broadcast_on", game = game.name)
        } else {
            msg!("wishes.broadcast_off", game = game.name)
        });
        Ok(())
    }
}

/// Clears the wishes that last one phase (wait, draw votes, concessions) of every member.
/// Where `deadline` goes if it falls inside the absence `from`..=`to` (dates in the game's
/// zone): the same time of day on the day after the absence; `None` if it falls outside.
fn past_absence(
    game: &GameRow,
    from: &str,
    to: Option<&str>,
    deadline: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let parse = |d: &str| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok();
    let start = parse(from)?;
    let end = match to {
        Some(to) => parse(to)?,
        None => start,
    };
    let tz: chrono_tz::Tz = game.time_zone.parse().unwrap_or(chrono_tz::UTC);
    let local = |d: NaiveDate| {
        tz.from_local_datetime(&d.and_hms_opt(0, 0, 0)?)
            .earliest()
            .map(|t| t.with_timezone(&Utc))
    };
    let (begin, finish) = (local(start)?, local(end + Duration::days(1))?);
    if deadline < begin || deadline >= finish {
        return None;
    }
    let midnight = local(deadline.with_timezone(&tz).date_naive()).unwrap_or(deadline);
    Some(finish + (deadline - midnight))
}

/// A new phase's deadline (or one set afresh by RESUME or ROLLBACK) moved past every member's
/// declared absence it falls in, as SET ABSENCE promises for every deadline it covers.
pub(crate) fn beyond_absences(
    tx: &Tx,
    game: &GameRow,
    deadline: DateTime<Utc>,
) -> rusqlite::Result<DateTime<Utc>> {
    let absences: Vec<(String, Option<String>)> = tx
        .members(game.id)?
        .iter()
        .filter(|m| m.power.is_some())
        .map(|m| tx.member_wishes(game.id, m.player_id))
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .filter_map(|w| w.absence)
        .collect();
    let mut deadline = deadline;
    // Absences can follow one another: move until none holds the deadline (each moves it
    // forward past one absence, so this ends).
    for _ in 0..=absences.len() {
        let moved = absences
            .iter()
            .find_map(|(from, to)| past_absence(game, from, to.as_deref(), deadline));
        match moved {
            Some(later) => deadline = later,
            None => break,
        }
    }
    Ok(deadline)
}

pub(crate) fn clear_phase_wishes(tx: &Tx, game_id: i64) -> rusqlite::Result<()> {
    for member in tx.members(game_id)? {
        let mut wishes = tx.member_wishes(game_id, member.player_id)?;
        if wishes.wait || wishes.draw.is_some() || wishes.concede.is_some() || wishes.terminate {
            wishes.wait = false;
            wishes.terminate = false;
            wishes.draw = None;
            wishes.concede = None;
            tx.set_member_wishes(game_id, member.player_id, &wishes)?;
        }
    }
    Ok(())
}
