//! A game's phases: the start, processing at the deadline (or when every order is in),
//! the report that follows, and reminders before the deadline.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::credit::{credit_lines, lapse_lines};
use super::orders::{is_complete, powers_owing, stored_orders};
use super::settings::{GameSettings, Wishes, deadline_after};
use super::{Judge, deadline_text_in};
use crate::diplomacy::adjudicate::{Outcome, RetreatOptions, Submitted, adjudicate};
use crate::diplomacy::credit::{Balance, balance};
use crate::diplomacy::map::Map;
use crate::diplomacy::order::{Action, Location, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::position::Unsupplied;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::{Progress, YearEnd, advance, eliminated};
use crate::diplomacy::turn::PhaseKind;
use crate::letter::OutgoingLetter;
use crate::report::describe::{describe_order_in, either_in, note_in, unit_name_in};
use crate::report::{Message, Words};
use crate::store::{GameRow, Tx, position_from_json, position_to_json};
use crate::variant::Variant;
use crate::{msg, tr};

/// One line of results.
#[derive(Serialize, Debug)]
struct ResultLine {
    power: String,
    text: String,
    note: String,
}

/// `Spring 1901 movement`, in English: the name phases are stored and asked for by.
pub fn phase_name(variant: &Variant, position: &Position) -> String {
    phase_name_in(Words::english(), variant, position)
}

/// `Spring 1901 movement` in the reader's words (the season and year as the variant says).
pub fn phase_name_in(words: Words, variant: &Variant, position: &Position) -> String {
    words.message(&phase_message(variant, position))
}

/// `Spring 1901 movement`, to put in a message for readers of any language.
pub fn phase_message(variant: &Variant, position: &Position) -> Message {
    let turn = variant.calendar.describe(position.turn);
    match position.turn.kind {
        PhaseKind::Movement => msg!("phase.movement", turn = turn),
        PhaseKind::Retreat => msg!("phase.retreats", turn = turn),
        PhaseKind::Adjustment => msg!("phase.adjustments", turn = turn),
    }
}

/// The deadline of a phase of `kind` starting at `now`, by the game's settings and zone.
pub fn next_deadline(game: &GameRow, kind: PhaseKind, now: DateTime<Utc>) -> DateTime<Utc> {
    let settings = GameSettings::from_json(&game.settings);
    let tz = game.time_zone.parse().unwrap_or(chrono_tz::UTC);
    deadline_after(settings.timing(kind), tz, now)
}

impl Judge {
    /// The power a member holds, by id.
    pub(super) fn power_of(map: &Map, power: &Option<String>) -> Option<PowerId> {
        power.as_deref().and_then(|p| map.power_by_id(p))
    }

    /// Starts a game whose seats are all taken: powers dealt, position set, first deadline,
    /// and a start notice to every player.
    pub(super) fn start_game(
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
            let wishes = Wishes::from_json(&tx.member_wishes(game.id, member.player_id)?);
            let wanted = wishes.preference.unwrap_or_default();
            let choice = wanted
                .chars()
                .filter_map(|c| {
                    map.powers
                        .iter()
                        .position(|p| p.letter.eq_ignore_ascii_case(&c))
                })
                .map(|p| PowerId(p as u8))
                .find(|p| !dealt.contains(&Some(*p)));
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
        game.state = "active".into();
        game.position = Some(position_to_json(map, &position));
        game.deadline_at = Some(next_deadline(game, position.turn.kind, now));
        game.reminded = false;
        tx.save_game(game)?;
        self.record_phase(tx, game, variant, &position, now)?;
        // Each player as the others (and the archive) may see them.
        let hidden = super::secrecy::identities_hidden(game);
        let mut names = Vec::new();
        for m in &members {
            let identity = super::secrecy::Identity::of_player(tx, m.player_id)?;
            names.push(super::secrecy::name_for(
                &identity,
                hidden,
                super::secrecy::Reader::Other,
            ));
        }
        // The lines of the start notice in one language: the powers with their players, and
        // the units.
        let lists = |words: Words| -> (Vec<String>, Vec<String>) {
            let powers = members
                .iter()
                .zip(&names)
                .filter_map(|(m, name)| {
                    Judge::power_of(map, &m.power)
                        .map(|p| format!("{}: {}", map.power(p).name, words.message(name)))
                })
                .collect();
            let units = position
                .units
                .iter()
                .map(|u| {
                    format!(
                        "{}: {}",
                        map.power(u.power).name,
                        unit_name_in(words, map, u)
                    )
                })
                .collect();
            (powers, units)
        };
        let mut letters = Vec::new();
        for member in &members {
            let Some(power) = Judge::power_of(map, &member.power) else {
                continue;
            };
            let example = position
                .units
                .iter()
                .find(|u| u.power == power)
                .map(|u| {
                    format!(
                        "{} {} H",
                        u.kind.letter(),
                        map.province(map.province_of(u.region)).id.to_uppercase()
                    )
                })
                .unwrap_or_default();
            let language = self.language_of(tx, game, member)?;
            let words = self.templates.words(&language);
            let (power_lines, units) = lists(words);
            let body = self.templates.render_in(
                words.language(),
                "start.txt",
                serde_json::json!({
                    "game": game.name, "variant": variant.name, "power": map.power(power).name,
                    "letter": map.power(power).letter.to_string(), "powers": power_lines, "units": units,
                    "phase": phase_name_in(words, variant, &position), "deadline": deadline_text_in(words, game),
                    "example": example,
                }),
            );
            letters.push(OutgoingLetter::fresh(
                &member.email,
                tr!(
                    words,
                    "phase.started_subject",
                    game = game.name,
                    power = map.power(power).name
                ),
                body,
            ));
        }
        let words = self.game_words(game);
        let (power_lines, units) = lists(words);
        let notice = self.templates.render_in(
            words.language(),
            "start.txt",
            serde_json::json!({
                "game": game.name, "variant": variant.name, "powers": power_lines, "units": units,
                "phase": phase_name_in(words, variant, &position), "deadline": deadline_text_in(words, game),
            }),
        );
        tx.archive(
            game.id,
            game.phase_serial,
            &tr!(words, "phase.started_title", game = game.name),
            &notice,
            now,
        )?;
        Ok(letters)
    }

    /// The words of a game's own language (`GameSettings::language`): its archive is kept
    /// in them.
    pub(super) fn game_words(&self, game: &GameRow) -> Words<'_> {
        self.templates
            .words(&GameSettings::from_json(&game.settings).language)
    }

    /// Keeps the position at the start of the game's current phase in its history, with
    /// who played each power then.
    pub(super) fn record_phase(
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
    pub(super) fn game_position(&self, game: &GameRow) -> Option<(&Variant, Position)> {
        let variant = self.variant(&game.variant)?;
        let position = position_from_json(&variant.map, game.position.as_deref()?).ok()?;
        Some((variant, position))
    }

    /// Adjudicates the current phase of `game` with the orders in force, reports it to every
    /// member, keeps the report in the archive and moves the game to its next phase.
    pub(super) fn process_phase(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        let map = &variant.map;
        let owing = powers_owing(map, &position);
        let mut submitted = Vec::new();
        let mut missing = Vec::new();
        for power in &owing {
            match tx.orders(game.id, game.phase_serial, &map.power(*power).id)? {
                Some((lines, _)) => submitted.extend(
                    stored_orders(map, position.turn.kind, &lines)
                        .into_iter()
                        .map(|order| Submitted {
                            power: *power,
                            order,
                        }),
                ),
                None => missing.push(*power),
            }
        }
        let resolution = adjudicate(map, &variant.rules, &position, &submitted);
        let Progress { next, year_end } = advance(
            map,
            &variant.calendar,
            &variant.victory(),
            &position,
            &resolution,
        );
        let eliminated = eliminated(map, &next);
        let standing = year_end.as_ref().map(|y| &y.standing);
        let winner = standing
            .and_then(|s| s.winner)
            .map(|p| map.power(p).name.clone());
        game.phase_serial += 1;
        game.position = Some(position_to_json(map, &next));
        game.reminded = false;
        if winner.is_some() {
            game.state = "finished".into();
            game.deadline_at = None;
        } else {
            let deadline = next_deadline(game, next.turn.kind, now);
            game.deadline_at = Some(super::wishes::beyond_absences(tx, game, deadline)?);
        }
        let game_now: &GameRow = game;
        // The report in one language: its title and its template's values.
        let report = |words: Words| -> (String, serde_json::Value) {
            let mut lines: Vec<ResultLine> = submitted
                .iter()
                .zip(&resolution.outcomes)
                .filter(|(_, o)| **o != Outcome::Superseded)
                .map(|(s, o)| ResultLine {
                    power: map.power(s.power).name.clone(),
                    text: describe_order_in(words, map, &position, s.power, &s.order),
                    note: note_in(words, map, o),
                })
                .collect();
            lines.extend(unordered_lines(
                words,
                map,
                &position,
                &submitted,
                &resolution.after,
            ));
            lines.sort_by(|a, b| a.power.cmp(&b.power));
            let dislodged: Vec<String> = resolution
                .dislodged
                .iter()
                .map(|d| dislodged_line(words, map, d))
                .collect();
            let year = year_end
                .as_ref()
                .map(|y| year_end_lines(words, map, y))
                .unwrap_or_default();
            let restoring: Vec<String> = next
                .restoring
                .iter()
                .map(|r| {
                    tr!(
                        words,
                        "report.restoring",
                        province = map.province(r.province).name,
                        power = map.power(r.power).name,
                        turns = r.turns
                    )
                })
                .collect();
            let credits = if year_end.is_some()
                || position.turn.kind == PhaseKind::Adjustment
                || next.turn.kind == PhaseKind::Adjustment
            {
                credit_lines(words, map, &next)
            } else {
                Vec::new()
            };
            let phase = phase_name_in(words, variant, &position);
            let title = tr!(words, "report.title", game = game_now.name, phase = phase);
            let context = serde_json::json!({
                "game": game_now.name, "phase": phase, "orders": lines,
                "missing": missing.iter().map(|p| map.power(*p).name.clone()).collect::<Vec<_>>(),
                "dislodged": dislodged, "ownership": year.ownership, "adjustments": year.adjustments,
                "cities": year.cities, "ungarrisoned": year.ungarrisoned, "lapsed": year.lapsed,
                "destroyed": next.destroyed.iter().map(|p| map.province(*p).name.clone()).collect::<Vec<_>>(),
                "restoring": restoring, "credits": credits,
                "eliminated": eliminated.iter().map(|p| map.power(*p).name.clone()).collect::<Vec<_>>(),
                "winner": winner, "next_phase": phase_name_in(words, variant, &next),
                "deadline": deadline_text_in(words, game_now),
            });
            (title, context)
        };
        // Each language's report written once.
        let mut written: std::collections::BTreeMap<String, (String, String)> =
            std::collections::BTreeMap::new();
        let mut write = |words: Words| {
            written
                .entry(words.language().to_string())
                .or_insert_with(|| {
                    let (title, context) = report(words);
                    let body = self
                        .templates
                        .render_in(words.language(), "report.txt", &context);
                    (title, body)
                })
                .clone()
        };
        let (title, body) = write(self.game_words(game_now));
        tx.save_game(game_now)?;
        super::wishes::clear_phase_wishes(tx, game_now.id)?;
        self.record_phase(tx, game_now, variant, &next, now)?;
        tx.archive(game_now.id, game_now.phase_serial, &title, &body, now)?;
        let mut letters = Vec::new();
        for m in tx.members(game_now.id)? {
            let language = self.language_of(tx, game_now, &m)?;
            let (subject, body) = write(self.templates.words(&language));
            letters.push(OutgoingLetter::fresh(&m.email, subject, body));
        }
        // Postal press written during the phase goes out after its results.
        for (recipient, subject, body) in tx.take_held_press(game_now.id)? {
            if recipient.is_empty() {
                tx.archive(game_now.id, game_now.phase_serial, &subject, &body, now)?;
            } else {
                letters.push(OutgoingLetter::fresh(&recipient, subject, body));
            }
        }
        Ok(letters)
    }

    /// The language a member reads: their own choice for the game, else for the judge, else
    /// the game's.
    pub(super) fn language_of(
        &self,
        tx: &Tx,
        game: &GameRow,
        member: &crate::store::MemberRow,
    ) -> rusqlite::Result<String> {
        if let Some(language) =
            Wishes::from_json(&tx.member_wishes(game.id, member.player_id)?).language
        {
            return Ok(language);
        }
        if let Some(language) = tx.player_language(&member.email)? {
            return Ok(language);
        }
        Ok(GameSettings::from_json(&game.settings).language)
    }

    /// Reminders to powers whose orders are missing, incomplete or in error.
    pub(super) fn remind(
        &self,
        tx: &Tx,
        game: &mut GameRow,
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
                .map(|(l, _)| stored_orders(map, position.turn.kind, l))
                .unwrap_or_default();
            let state = match &stored {
                None => "missing",
                Some((_, true)) => "in error",
                Some(_) if !is_complete(map, &position, power, &orders) => "incomplete",
                Some(_) => continue,
            };
            for m in members
                .iter()
                .filter(|m| Judge::power_of(map, &m.power) == Some(power) && m.role == "player")
            {
                let language = self.language_of(tx, game, m)?;
                let words = self.templates.words(&language);
                let phase = phase_name_in(words, variant, &position);
                // `state` stays the English word for the templates; the subject says it.
                let said = match state {
                    "missing" => tr!(words, "reminder.missing"),
                    "in error" => tr!(words, "reminder.in_error"),
                    _ => tr!(words, "reminder.incomplete"),
                };
                let context = serde_json::json!({
                    "game": game.name, "phase": phase, "state": state, "deadline": deadline_text_in(words, game),
                    "orders": orders.iter().map(|o| describe_order_in(words, map, &position, power, o)).collect::<Vec<_>>(),
                });
                letters.push(OutgoingLetter::fresh(
                    &m.email,
                    tr!(
                        words,
                        "reminder.subject",
                        game = game.name,
                        state = said,
                        phase = phase
                    ),
                    self.templates
                        .render_in(words.language(), "reminder.txt", &context),
                ));
            }
        }
        Ok(letters)
    }
}

/// `The Austrian Army Bohemia (dislodged from Silesia) can retreat to Galicia or Vienna.`
pub(super) fn dislodged_line(words: Words, map: &Map, d: &RetreatOptions) -> String {
    let unit = &d.dislodgement.unit;
    let adjective = &map.power(unit.power).adjective;
    let name = unit_name_in(words, map, unit);
    let from = &map.province(d.dislodgement.attacker_from).name;
    if d.retreats.is_empty() {
        tr!(
            words,
            "report.dislodged_destroyed",
            adjective = adjective,
            unit = name,
            from = from
        )
    } else {
        tr!(
            words,
            "report.dislodged",
            adjective = adjective,
            unit = name,
            from = from,
            places = either_in(words, map, &d.retreats)
        )
    }
}

/// The lines of a year's reckoning, in one language.
#[derive(Default)]
struct YearLines {
    /// `Syria: Antioch, Armenia, Seleucia.`
    ownership: Vec<String>,
    /// `Egypt: supply 3, borrowed 1, units 3: builds 1.`
    adjustments: Vec<String>,
    /// Who controls each build-only city.
    cities: Vec<String>,
    /// Owned rebellion centres without their garrison, and why they do not count.
    ungarrisoned: Vec<String>,
    /// Credit that lapsed at the reckoning, and why.
    lapsed: Vec<String>,
}

/// Supply centres per power, the builds or removals each power now has (with the credit in
/// force), who controls the build-only cities, the rebellion centres that do not count for
/// want of a garrison, and the credit that lapsed: all from the board of the year's
/// reckoning.
fn year_end_lines(words: Words, map: &Map, year: &YearEnd) -> YearLines {
    let board = &year.board;
    let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, board);
    let mut lines = YearLines::default();
    for (p, owed) in owed.iter().enumerate() {
        let power = PowerId(p as u8);
        let mut centres: Vec<&str> = board
            .owned_centres(map, power)
            .into_iter()
            .map(|c| map.province(c).name.as_str())
            .collect();
        centres.sort();
        let units = board.units.iter().filter(|u| u.power == power).count();
        if centres.is_empty() && units == 0 {
            continue;
        }
        let name = &map.power(power).name;
        let centres = if centres.is_empty() {
            tr!(words, "report.no_centres")
        } else {
            centres.join(", ")
        };
        lines.ownership.push(tr!(
            words,
            "report.ownership",
            power = name,
            centres = centres
        ));
        let change = match *owed {
            n if n > 0 => tr!(words, "report.builds", count = n),
            n if n < 0 => tr!(words, "report.removes", count = -n),
            _ => tr!(words, "report.no_change"),
        };
        let supply = board.supply_of(map, power);
        let Balance { borrowed, lent } = balance(&board.credits, power);
        let mut credit = Vec::new();
        if borrowed > 0 {
            credit.push(tr!(words, "report.borrowed", amount = borrowed));
        }
        if lent > 0 {
            credit.push(tr!(words, "report.lent", amount = lent));
        }
        lines.adjustments.push(if credit.is_empty() {
            tr!(
                words,
                "report.adjustment",
                power = name,
                supply = supply,
                units = units,
                change = change
            )
        } else {
            tr!(
                words,
                "report.adjustment_credit",
                power = name,
                supply = supply,
                credit = credit.join(", "),
                units = units,
                change = change
            )
        });
    }
    for (i, province) in map.provinces.iter().enumerate() {
        let id = crate::diplomacy::map::ProvinceId(i as u16);
        if province.build_site && province.centre.is_none() {
            lines.cities.push(match board.owners[i] {
                Some(owner) => tr!(
                    words,
                    "report.city",
                    city = province.name,
                    power = map.power(owner).name
                ),
                None => tr!(words, "report.city_free", city = province.name),
            });
        }
        if let (Some(owner), Some(Unsupplied::NoGarrison)) =
            (board.owners[i], board.why_not_supplying(map, id))
        {
            lines.ungarrisoned.push(tr!(
                words,
                "report.ungarrisoned",
                province = province.name,
                power = map.power(owner).name
            ));
        }
    }
    lines.lapsed = lapse_lines(words, map, &year.lapsed);
    lines
}

/// Results lines for units that had no order: they held, were disbanded or removed.
fn unordered_lines(
    words: Words,
    map: &Map,
    position: &Position,
    submitted: &[Submitted],
    after: &Position,
) -> Vec<ResultLine> {
    let ordered = |province| {
        submitted
            .iter()
            .any(|s| matches!(&s.order, Order::Unit(u) if u.at.province == province))
    };
    let mut lines = Vec::new();
    match position.turn.kind {
        PhaseKind::Movement => {
            for unit in position
                .units
                .iter()
                .filter(|u| !ordered(map.province_of(u.region)))
            {
                lines.push(ResultLine {
                    power: map.power(unit.power).name.clone(),
                    text: format!(
                        "{}.",
                        tr!(words, "order.hold", unit = unit_name_in(words, map, unit))
                    ),
                    note: tr!(words, "note.no_order"),
                });
            }
        }
        PhaseKind::Retreat => {
            for d in position
                .dislodged
                .iter()
                .filter(|d| !ordered(map.province_of(d.unit.region)))
            {
                lines.push(ResultLine {
                    power: map.power(d.unit.power).name.clone(),
                    text: format!(
                        "{}.",
                        tr!(
                            words,
                            "order.disband",
                            unit = unit_name_in(words, map, &d.unit)
                        )
                    ),
                    note: tr!(words, "note.no_order"),
                });
            }
        }
        PhaseKind::Adjustment => {
            for unit in position
                .units
                .iter()
                .filter(|u| !after.units.contains(u) && !ordered(map.province_of(u.region)))
            {
                let order = Order::Unit(UnitOrder {
                    unit: Some(unit.kind),
                    at: Location::province(map.province_of(unit.region)),
                    action: Action::Disband,
                });
                lines.push(ResultLine {
                    power: map.power(unit.power).name.clone(),
                    text: describe_order_in(words, map, position, unit.power, &order),
                    note: tr!(words, "note.civil_disorder"),
                });
            }
        }
    }
    lines
}
