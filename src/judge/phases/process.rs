//! A game's phases: the start, processing at the deadline (or when every order is in),
//! the report that follows, and reminders before the deadline.

use crate::game::GameState;
use chrono::{DateTime, Utc};

use crate::judge::Judge;

use crate::diplomacy::adjudicate::{Submitted, adjudicate};
use crate::diplomacy::map::Map;
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::{Progress, advance, eliminated};
use crate::game::orders::{is_complete, powers_owing, stored_orders};
use crate::judge::deadline_text_in;

use crate::game::phases::{next_deadline, phase_name};
use crate::lang::Lang;
use crate::letter::OutgoingLetter;
use crate::report::Words;
use crate::store::{GameRow, Tx, position_from_json, position_to_json};
use crate::tr;
use crate::variant::Variant;

/// A phase adjudicated with the orders in force (`Judge::play`).
pub(crate) struct Played {
    pub submitted: Vec<Submitted>,
    /// The powers that owed orders and gave none.
    pub missing: Vec<PowerId>,
    pub resolution: crate::diplomacy::adjudicate::Resolution,
    pub progress: Progress,
}

/// A preference list (`E[FGR][TAI]`) as groups of power letters wanted equally, best first.
fn preference_groups(list: &str) -> Vec<Vec<char>> {
    let mut groups = Vec::new();
    let mut open: Option<Vec<char>> = None;
    for c in list.chars() {
        match (c, &mut open) {
            ('[', None) => open = Some(Vec::new()),
            (']', Some(_)) => groups.push(open.take().unwrap_or_default()),
            (c, Some(group)) => group.push(c),
            (c, None) => groups.push(vec![c]),
        }
    }
    groups.extend(open);
    groups
}

impl Judge {
    /// The power a member holds, by id.
    pub(crate) fn power_of(map: &Map, power: &Option<String>) -> Option<PowerId> {
        power.as_deref().and_then(|p| map.power_by_id(p))
    }

    /// Starts a game whose seats are all taken: powers dealt, position set, first deadline,
    /// and a start notice to every player.
    pub(crate) fn start_game(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let variant = self
            .variant(&game.variant)
            .expect("games are created with known variants");
        let map = &variant.map;
        let mut members: Vec<_> = tx
            .members(game.id)?
            .into_iter()
            .filter(|m| m.role == "player")
            .collect();
        // Deal powers in an order fixed by the game's name and the time: random enough for
        // players, repeatable for tests.
        let mut seed = game
            .name
            .bytes()
            .fold(now.timestamp() as u64 ^ 0x9e37_79b9_7f4a_7c15, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
        let mut powers: Vec<PowerId> = (0..map.powers.len()).map(|p| PowerId(p as u8)).collect();
        for i in (1..powers.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            powers.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        // Preferences first (SET PREFERENCE, in the order players joined), then the deal.
        let mut dealt: Vec<Option<PowerId>> = vec![None; members.len()];
        for (i, member) in members.iter().enumerate() {
            let wishes = tx.member_wishes(game.id, member.player_id)?;
            let wanted = wishes.preference.unwrap_or_default();
            // The first group of the list with a power still free; among powers wanted
            // equally (`E[FGR]`), the one the deal puts first.
            let choice = preference_groups(&wanted)
                .into_iter()
                .map(|group| {
                    group
                        .into_iter()
                        .filter_map(|c| {
                            map.powers
                                .iter()
                                .position(|p| p.letter.eq_ignore_ascii_case(&c))
                        })
                        .map(|p| PowerId(p as u8))
                        .filter(|p| !dealt.contains(&Some(*p)))
                        .min_by_key(|p| powers.iter().position(|d| d == p))
                })
                .find_map(|p| p);
            dealt[i] = choice;
        }
        let free: Vec<PowerId> = powers
            .iter()
            .copied()
            .filter(|p| !dealt.contains(&Some(*p)))
            .collect();
        let mut rest = free.into_iter();
        for slot in dealt.iter_mut().filter(|d| d.is_none()) {
            *slot = rest.next();
        }
        for (member, power) in members.iter_mut().zip(dealt.iter().flatten()) {
            member.power = Some(map.power(*power).id.clone());
            tx.set_member(
                game.id,
                member.player_id,
                member.power.as_deref(),
                "player",
                &member.password_hash,
                now,
            )?;
        }
        let position = variant.start.clone();
        game.state = GameState::Active;
        game.position = Some(position_to_json(map, &position));
        game.deadline_at = Some(next_deadline(game, position.turn.kind, now));
        game.reminded = false;
        tx.save_game(game)?;
        self.record_phase(tx, game, variant, &position, now)?;
        // Each player as the others (and the archive) may see them.
        let hidden = crate::game::secrecy::identities_hidden(game);
        let mut names = Vec::new();
        for m in &members {
            let identity = crate::game::secrecy::Identity::of_player(tx, m.player_id)?;
            names.push(
                [
                    crate::game::secrecy::Reader::Other,
                    crate::game::secrecy::Reader::Master,
                ]
                .map(|reader| crate::game::secrecy::name_for(&identity, hidden, reader)),
            );
        }
        // The game's masters, first in the list as in njudge's letter.
        let mut master_names = Vec::new();
        for m in tx.members(game.id)?.iter().filter(|m| m.role == "master") {
            let identity = crate::game::secrecy::Identity::of_player(tx, m.player_id)?;
            master_names.push(
                [
                    crate::game::secrecy::Reader::Other,
                    crate::game::secrecy::Reader::Master,
                ]
                .map(|reader| crate::game::secrecy::name_for(&identity, hidden, reader)),
            );
        }
        // The start notice in one language, as the classic judge writes it: the players, the
        // starting position, the first deadline; `power` is the reader's (none: the archive's
        // copy, an observer's). Our own help for the first orders follows it.
        let header = crate::judge::phases::subjects::header_lines(
            &self.config.judge.code,
            game,
            variant,
            position.turn,
            game.deadline_at,
        );
        // The players in the powers' order, each with their member's index.
        let mut ordered: Vec<(PowerId, String, usize)> = members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                Judge::power_of(map, &m.power).map(|p| (p, map.power(p).name.clone(), i))
            })
            .collect();
        ordered.sort();
        let mut units: Vec<(usize, &crate::diplomacy::unit::Unit)> =
            position.units.iter().enumerate().collect();
        units.sort_by_key(|(i, u)| (u.power, *i));
        // `master`: the copy for a master of the game, who sees every player as they are.
        let notice = |words: Words, power: Option<PowerId>, master: bool| -> String {
            let selected = match power {
                Some(p) => tr!(
                    words,
                    "start.selected",
                    power = map.power(p).name_in(words.language()),
                    game = game.name
                ),
                None if master => tr!(words, "start.selected_master", game = game.name),
                None => tr!(words, "start.selected_observer", game = game.name),
            };
            let line = |role: &str, name: &crate::report::Message| {
                format!(
                    "     {}{}",
                    crate::report::classic::padded(role, 26),
                    words.message(name)
                )
            };
            let role = tr!(words, "start.master");
            let player_lines: Vec<String> = master_names
                .iter()
                .map(|names| line(&role, &names[usize::from(master)]))
                .chain(ordered.iter().map(|(p, _, i)| {
                    line(
                        map.power(*p).name_in(words.language()),
                        &names[*i][usize::from(master)],
                    )
                }))
                .collect();
            let mut unit_lines = Vec::new();
            let mut last = None;
            for (_, u) in &units {
                if last.is_some() && last != Some(u.power) {
                    unit_lines.push(String::new());
                }
                last = Some(u.power);
                let kind = match u.kind {
                    crate::diplomacy::unit::UnitKind::Army => tr!(words, "unit.army"),
                    crate::diplomacy::unit::UnitKind::Fleet => tr!(words, "unit.fleet"),
                };
                unit_lines.push(format!(
                    "{}{kind:<5} {}.",
                    crate::report::classic::padded(map.power(u.power).name_in(words.language()), 9),
                    crate::report::describe::region_name_in(words, map, u.region)
                ));
            }
            let example = power
                .and_then(|p| position.units.iter().find(|u| u.power == p))
                .map(|u| {
                    format!(
                        "{} {} H",
                        u.kind.letter(),
                        map.province(map.province_of(u.region)).id.to_uppercase()
                    )
                })
                .unwrap_or_default();
            let (season, year) =
                crate::judge::phases::subjects::season_and_year(words, variant, position.turn);
            let position_heading = tr!(words, "start.position", season = season, year = year);
            self.templates.render_exact_in(
                words.language(),
                "start.txt",
                serde_json::json!({
                    "header": header, "selected": selected, "players": player_lines,
                    "position_heading": position_heading,
                    "units": unit_lines,
                    "deadline": words.when(&crate::report::When { at: Some(game.deadline_at.unwrap_or(now)), zone: game.time_zone.clone() }),
                    "game": game.name, "power": power.map(|p| map.power(p).name.clone()),
                    "letter": power.map(|p| map.power(p).letter.to_string()),
                    "example": example,
                }),
            )
        };
        let token = crate::report::classic::phase_token(position.turn);
        let subject = crate::report::classic::subject(
            &self.config.judge.code,
            &game.name,
            &token,
            "Game Starting",
        );
        // Each reader's subject in their language (njudge's in English); the archive keeps
        // njudge's.
        let starting = |words: Words| {
            crate::report::classic::subject(
                &self.config.judge.code,
                &game.name,
                &token,
                &tr!(words, "start.subject"),
            )
        };
        let mut letters = Vec::new();
        for member in &members {
            let Some(power) = Judge::power_of(map, &member.power) else {
                continue;
            };
            let language = self.language_of(tx, game, member)?;
            let words = self.templates.words(language);
            letters.push(
                OutgoingLetter::fresh(
                    &member.email,
                    starting(words),
                    notice(words, Some(power), false),
                )
                .about(&game.name),
            );
        }
        // The game's masters get the letter too, as an observer reads it, with every player
        // named as a master may see them.
        for master in tx.members(game.id)?.iter().filter(|m| m.role == "master") {
            let language = self.language_of(tx, game, master)?;
            let words = self.templates.words(language);
            letters.push(
                OutgoingLetter::fresh(&master.email, starting(words), notice(words, None, true))
                    .about(&game.name),
            );
        }
        let words = self.game_words(game);
        tx.archive(
            game.id,
            game.phase_serial,
            &subject,
            &notice(words, None, false),
            now,
        )?;
        Ok(letters)
    }

    /// The words of a game's own language (`GameSettings::language`): its archive is kept
    /// in them.
    pub(crate) fn game_words(&self, game: &GameRow) -> Words<'_> {
        self.templates.words(game.settings.language)
    }

    /// Keeps the position at the start of the game's current phase in its history, with
    /// who played each power then.
    pub(crate) fn record_phase(
        &self,
        tx: &Tx,
        game: &GameRow,
        variant: &Variant,
        position: &Position,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        let players: serde_json::Map<String, serde_json::Value> = tx
            .members(game.id)?
            .into_iter()
            .filter(|m| m.role == "player")
            .filter_map(|m| m.power.map(|p| (p, serde_json::Value::from(m.email))))
            .collect();
        tx.record_phase(
            game.id,
            game.phase_serial,
            &phase_name(variant, position),
            &position_to_json(&variant.map, position),
            &serde_json::Value::Object(players).to_string(),
            now,
        )
    }

    /// The variant and current position of a running game.
    pub(crate) fn game_position(&self, game: &GameRow) -> Option<(&Variant, Position)> {
        let variant = self.variant(&game.variant)?;
        let text = game.position.as_deref()?;
        let mut last = self
            .last_position
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some((id, stored, position)) = last.as_ref()
            && *id == variant.id
            && stored == text
        {
            return Some((variant, position.clone()));
        }
        let position = position_from_json(variant, text).ok()?;
        *last = Some((variant.id.clone(), text.to_string(), position.clone()));
        Some((variant, position))
    }

    /// The current phase of `game` (at `position`) adjudicated with the orders in force:
    /// what `process_phase` carries out. It only reads, so the pictures of a busy deadline
    /// are foreseen from it before their games are processed (`pictures::foresee`).
    pub(crate) fn play(
        &self,
        tx: &Tx,
        game: &GameRow,
        variant: &Variant,
        position: &Position,
    ) -> rusqlite::Result<Played> {
        let map = &variant.map;
        let owing = powers_owing(map, position);
        let mut submitted = Vec::new();
        let mut missing = Vec::new();
        for power in &owing {
            match tx.orders(game.id, game.phase_serial, &map.power(*power).id)? {
                Some((lines, _)) => submitted.extend(
                    stored_orders(variant, position.turn.kind, &lines)
                        .into_iter()
                        .map(|order| Submitted {
                            power: *power,
                            order,
                        }),
                ),
                None => missing.push(*power),
            }
        }
        let resolution = adjudicate(map, &variant.rules, position, &submitted);
        // The game's own victory threshold (SET CENTERS), else the variant's.
        let mut victory = variant.victory();
        if let Some(centres) = game.settings.clone().centres {
            victory.threshold = centres;
        }
        let progress = advance(map, &variant.calendar, &victory, position, &resolution);
        Ok(Played {
            submitted,
            missing,
            resolution,
            progress,
        })
    }

    /// Adjudicates the current phase of `game` with the orders in force, reports it to every
    /// member, keeps the report in the archive and moves the game to its next phase.
    pub(crate) fn process_phase(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        let map = &variant.map;
        let Played {
            submitted,
            missing,
            resolution,
            progress: Progress { next, year_end },
        } = self.play(tx, game, variant, &position)?;
        let eliminated = eliminated(map, &next);
        let standing = year_end.as_ref().map(|y| &y.standing);
        let winner = standing
            .and_then(|s| s.winner)
            .map(|p| map.power(p).name.clone());
        let seq = game.phase_serial + 1;
        let deadline_before = game.deadline_at;
        game.phase_serial += 1;
        game.position = Some(position_to_json(map, &next));
        game.reminded = false;
        game.process_at = None;
        if let Some(winner) = &winner {
            game.state = GameState::Finished;
            game.deadline_at = None;
            game.settings.ending = Some(crate::game::settings::Ending {
                how: crate::game::settings::EndedBy::Victory {
                    winner: winner.clone(),
                },
                at: now,
            });
        } else {
            let deadline = next_deadline(game, next.turn.kind, now);
            game.deadline_at = Some(crate::judge::phases::timing::beyond_absences(
                tx, game, deadline,
            )?);
        }
        let game_now: &GameRow = game;
        let results = crate::judge::phases::results::Results {
            code: &self.config.judge.code,
            variant,
            game: game_now,
            seq,
            deadline_before,
            before: &position,
            submitted: &submitted,
            resolution: &resolution,
            next: &next,
            year_end: year_end.as_ref(),
            eliminated: &eliminated,
            winner: standing.and_then(|s| s.winner),
            missing: &missing,
        };
        let report = |words: Words| -> (String, serde_json::Value) {
            (results.subject_in(words), results.context(words))
        };
        // Each language's report written once.
        let mut written: std::collections::BTreeMap<String, (String, String)> =
            std::collections::BTreeMap::new();
        let mut write = |words: Words| {
            written
                .entry(words.language().to_string())
                .or_insert_with(|| {
                    let (title, context) = report(words);
                    let body =
                        self.templates
                            .render_exact_in(words.language(), "report.txt", &context);
                    (title, body)
                })
                .clone()
        };
        // The archive keeps njudge's subject, whatever the game's language.
        let (_, body) = write(self.game_words(game_now));
        let title = results.subject();
        tx.save_game(game_now)?;
        tracing::info!(
            "game {}: {} processed; {}",
            game_now.name,
            phase_name(variant, &position),
            match (game_now.state, game_now.deadline_at) {
                (GameState::Finished, _) => "the game is over".to_string(),
                (_, Some(at)) => format!(
                    "{} next, deadline {}",
                    phase_name(variant, &next),
                    crate::store::time_text(at)
                ),
                _ => phase_name(variant, &next),
            }
        );
        clear_phase_wishes(tx, game_now.id)?;
        self.record_phase(tx, game_now, variant, &next, now)?;
        tx.archive(game_now.id, game_now.phase_serial, &title, &body, now)?;
        let mut letters = Vec::new();
        // The picture of the new board, drawn once per language, for the members who want it.
        let game_map = self.config.maps.results_pictures && game_now.settings.clone().map;
        let mut pictures: std::collections::BTreeMap<Lang, Option<crate::letter::Attachment>> =
            std::collections::BTreeMap::new();
        for m in tx.members(game_now.id)? {
            let language = self.language_of(tx, game_now, &m)?;
            let (subject, body) = write(self.templates.words(language));
            let mut letter = OutgoingLetter::fresh(&m.email, subject, body).about(&game_now.name);
            let wants = tx
                .member_wishes(game_now.id, m.player_id)?
                .map
                .unwrap_or(true);
            if game_map && wants {
                let words = self.templates.words(language);
                let picture = pictures.entry(language).or_insert_with(|| {
                    crate::judge::phases::pictures::ResultsScene::new(
                        words,
                        variant,
                        game_now,
                        &position,
                        &submitted,
                        &resolution,
                        &next,
                    )
                    .and_then(|scene| {
                        // Painted ahead while the judge was idle, if the orders stayed so.
                        match tx.picture_ahead(game_now.id, language, scene.key()) {
                            Ok(Some(png)) => crate::judge::phases::pictures::png_attachment(png),
                            _ => self.pictures_ahead.take_or_paint(scene, variant, words),
                        }
                    })
                });
                letter.attachments.extend(picture.clone());
            }
            letters.push(letter);
        }
        // Pictures painted ahead for this phase have served (or showed what did not happen).
        tx.forget_pictures_ahead(game_now.id)?;
        // Postal press written during the phase goes out after its results.
        for (recipient, subject, body) in tx.take_held_press(game_now.id)? {
            if recipient.is_empty() {
                tx.archive(game_now.id, game_now.phase_serial, &subject, &body, now)?;
            } else {
                letters
                    .push(OutgoingLetter::fresh(&recipient, subject, body).about(&game_now.name));
            }
        }
        if game_now.state == GameState::Finished {
            letters.extend(self.publish_diaries(tx, game_now, now)?);
        } else {
            // Orders kept for the new phase come into force; with them every order may be in.
            letters.extend(self.begin_kept_orders(tx, game_now, variant, &next, now)?);
            self.schedule_if_ready(tx, game, now)?;
        }
        Ok(letters)
    }

    /// The language a member reads: their own choice for the game, else for the judge, else
    /// the game's.
    pub(crate) fn language_of(
        &self,
        tx: &Tx,
        game: &GameRow,
        member: &crate::store::MemberRow,
    ) -> rusqlite::Result<Lang> {
        if let Some(language) = tx.member_wishes(game.id, member.player_id)?.language {
            return Ok(language);
        }
        if let Some(language) = tx.player_language(&member.email)? {
            return Ok(language);
        }
        Ok(game.settings.language)
    }

    /// Reminders to powers whose orders are missing, incomplete or in error.
    pub(crate) fn remind(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        game.reminded = true;
        tx.save_game(game)?;
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        let map = &variant.map;
        let members = tx.members(game.id)?;
        let mut letters = Vec::new();
        for power in powers_owing(map, &position) {
            let stored = tx.orders(game.id, game.phase_serial, &map.power(power).id)?;
            let orders = stored
                .as_ref()
                .map(|(l, _)| stored_orders(variant, position.turn.kind, l))
                .unwrap_or_default();
            let in_error = match &stored {
                Some((_, true)) => true,
                Some(_) if is_complete(map, &position, power, &orders) => continue,
                _ => false,
            };
            let header = crate::judge::phases::subjects::header_lines(
                &self.config.judge.code,
                game,
                variant,
                position.turn,
                game.deadline_at,
            );
            for m in members
                .iter()
                .filter(|m| Judge::power_of(map, &m.power) == Some(power) && m.role == "player")
            {
                let language = self.language_of(tx, game, m)?;
                let words = self.templates.words(language);
                let hours = game.reminder_hours;
                let warning = if in_error {
                    tr!(words, "reminder.in_error", hours = hours)
                } else {
                    tr!(words, "reminder.missing", hours = hours)
                };
                let order_lines = crate::judge::commands::play::order_list(
                    words,
                    variant,
                    &position,
                    power,
                    &orders,
                    &game.name,
                    game.phase_serial + 1,
                );
                let time_left = game
                    .deadline_at
                    .filter(|d| *d > now)
                    .map(|d| crate::report::classic::time_left(words, d - now));
                let context = serde_json::json!({
                    "header": header, "orders": order_lines, "warning": warning,
                    "deadline": deadline_text_in(words, game), "time_left": time_left,
                });
                letters.push(
                    OutgoingLetter::fresh(
                        &m.email,
                        tr!(
                            words,
                            "reminder.subject",
                            game = crate::judge::phases::subjects::prefix(
                                &self.config.judge.code,
                                game
                            )
                        ),
                        self.templates
                            .render_exact_in(words.language(), "reminder.txt", &context),
                    )
                    .about(&game.name),
                );
            }
        }
        Ok(letters)
    }
}

/// Clears the wishes that last one phase (wait, draw votes, concessions) of every member.
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
