//! A game's phases: the start, processing at the deadline (or when every order is in),
//! the report that follows, and reminders before the deadline.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::credit::credit_lines;
use super::orders::{is_complete, powers_owing, stored_orders};
use super::settings::{GameSettings, Wishes, deadline_after};
use super::{Judge, deadline_text};
use crate::diplomacy::adjudicate::{Outcome, RetreatOptions, Submitted, adjudicate};
use crate::diplomacy::map::Map;
use crate::diplomacy::order::{Action, Location, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::{next_position, standing};
use crate::diplomacy::turn::{PhaseKind, Season};
use crate::letter::{Address, OutgoingLetter};
use crate::report::describe::{describe_order, either, note, unit_name};
use crate::store::{GameRow, Tx, position_from_json, position_to_json};
use crate::variant::Variant;

/// One line of results.
#[derive(Serialize, Debug)]
struct ResultLine {
    power: String,
    text: String,
    note: String,
}

/// `Spring 1901 movement`.
pub fn phase_name(variant: &Variant, position: &Position) -> String {
    let kind = match position.turn.kind {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreats",
        PhaseKind::Adjustment => "adjustments",
    };
    format!("{} {kind}", variant.calendar.describe(position.turn))
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
        let deadline = deadline_text(game);
        let hidden = GameSettings::from_json(&game.settings).hides_identities();
        let power_lines: Vec<String> = members
            .iter()
            .filter_map(|m| {
                Judge::power_of(map, &m.power).map(|p| {
                    format!(
                        "{}: {}",
                        map.power(p).name,
                        if hidden { "(hidden)" } else { m.email.as_str() }
                    )
                })
            })
            .collect();
        let mut letters = Vec::new();
        for member in &members {
            let Some(power) = Judge::power_of(map, &member.power) else {
                continue;
            };
            let units: Vec<String> = position
                .units
                .iter()
                .map(|u| format!("{}: {}", map.power(u.power).name, unit_name(map, u)))
                .collect();
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
            let body = self.templates.render_in(
                &language,
                "start.txt",
                serde_json::json!({
                    "game": game.name, "variant": variant.name, "power": map.power(power).name,
                    "letter": map.power(power).letter.to_string(), "powers": power_lines, "units": units,
                    "phase": phase_name(variant, &position), "deadline": deadline, "example": example,
                }),
            );
            letters.push(OutgoingLetter {
                to: vec![Address::new(&member.email)],
                subject: format!(
                    "Game '{}' has started: you are {}",
                    game.name,
                    map.power(power).name
                ),
                body,
                in_reply_to: None,
                references: Vec::new(),
            });
        }
        let units: Vec<String> = position
            .units
            .iter()
            .map(|u| format!("{}: {}", map.power(u.power).name, unit_name(map, u)))
            .collect();
        let notice = self.templates.render(
            "start.txt",
            serde_json::json!({
                "game": game.name, "variant": variant.name, "powers": power_lines, "units": units,
                "phase": phase_name(variant, &position), "deadline": deadline,
            }),
        );
        tx.archive(
            game.id,
            game.phase_serial,
            &format!("Game '{}' started", game.name),
            &notice,
            now,
        )?;
        Ok(letters)
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
        let next = next_position(map, &variant.calendar, &position, &resolution);
        let standing = standing(
            map,
            &next,
            variant.victory_centres,
            variant.victory_counting,
        );
        let mut lines: Vec<ResultLine> = submitted
            .iter()
            .zip(&resolution.outcomes)
            .filter(|(_, o)| **o != Outcome::Superseded)
            .map(|(s, o)| ResultLine {
                power: map.power(s.power).name.clone(),
                text: describe_order(map, &position, s.power, &s.order),
                note: note(map, o),
            })
            .collect();
        lines.extend(self.unordered_lines(map, &position, &submitted, &resolution.after));
        lines.sort_by(|a, b| a.power.cmp(&b.power));
        let dislodged: Vec<String> = resolution
            .dislodged
            .iter()
            .map(|d| dislodged_line(map, d))
            .collect();
        let ownership_changed =
            position.turn.season == Season::Fall && next.turn.season != Season::Fall;
        let (ownership, adjustments) = if ownership_changed {
            ownership_lines(map, &next)
        } else {
            (Vec::new(), Vec::new())
        };
        let winner = standing.winner.map(|p| map.power(p).name.clone());
        game.phase_serial += 1;
        game.position = Some(position_to_json(map, &next));
        game.reminded = false;
        if winner.is_some() {
            game.state = "finished".into();
            game.deadline_at = None;
        } else {
            game.deadline_at = Some(next_deadline(game, next.turn.kind, now));
        }
        let title = format!("{}: {} results", game.name, phase_name(variant, &position));
        let context = serde_json::json!({
            "game": game.name, "phase": phase_name(variant, &position), "orders": lines,
            "missing": missing.iter().map(|p| map.power(*p).name.clone()).collect::<Vec<_>>(),
            "dislodged": dislodged, "ownership": ownership, "adjustments": adjustments,
            "destroyed": next.destroyed.iter().map(|p| map.province(*p).name.clone()).collect::<Vec<_>>(),
            "restoring": next.restoring.iter().map(|r| format!("{} ({}, {} of 2 turns)", map.province(r.province).name, map.power(r.power).name, r.turns)).collect::<Vec<_>>(),
            "credits": if ownership_changed || position.turn.kind == PhaseKind::Adjustment || next.turn.kind == PhaseKind::Adjustment { credit_lines(map, &next) } else { Vec::new() },
            "eliminated": standing.eliminated.iter().map(|p| map.power(*p).name.clone()).collect::<Vec<_>>(),
            "winner": winner, "next_phase": phase_name(variant, &next), "deadline": deadline_text(game),
        });
        let body = self.templates.render("report.txt", &context);
        tx.save_game(game)?;
        super::wishes::clear_phase_wishes(tx, game.id)?;
        self.record_phase(tx, game, variant, &next, now)?;
        tx.archive(game.id, game.phase_serial, &title, &body, now)?;
        let mut letters = Vec::new();
        for m in tx.members(game.id)? {
            let language = self.language_of(tx, game, &m)?;
            let body = if language == "en" {
                body.clone()
            } else {
                self.templates.render_in(&language, "report.txt", &context)
            };
            letters.push(OutgoingLetter {
                to: vec![Address::new(&m.email)],
                subject: title.clone(),
                body,
                in_reply_to: None,
                references: Vec::new(),
            });
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

    /// Results lines for units that had no order: they held, were disbanded or removed.
    fn unordered_lines(
        &self,
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
                        text: format!("{} HOLD.", unit_name(map, unit)),
                        note: "no order".into(),
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
                        text: format!("{} DISBAND.", unit_name(map, &d.unit)),
                        note: "no order".into(),
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
                        text: describe_order(map, position, unit.power, &order),
                        note: "civil disorder".into(),
                    });
                }
            }
        }
        lines
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
            let context = serde_json::json!({
                "game": game.name, "phase": phase_name(variant, &position), "state": state, "deadline": deadline_text(game),
                "orders": orders.iter().map(|o| describe_order(map, &position, power, o)).collect::<Vec<_>>(),
            });
            for m in members
                .iter()
                .filter(|m| Judge::power_of(map, &m.power) == Some(power) && m.role == "player")
            {
                letters.push(OutgoingLetter {
                    to: vec![Address::new(&m.email)],
                    subject: format!(
                        "Game '{}': orders {state} for {}",
                        game.name,
                        phase_name(variant, &position)
                    ),
                    body: self.templates.render_in(
                        &self.language_of(tx, game, m)?,
                        "reminder.txt",
                        &context,
                    ),
                    in_reply_to: None,
                    references: Vec::new(),
                });
            }
        }
        Ok(letters)
    }
}

/// `The Austrian Army in Bohemia (dislodged from Silesia) can retreat to Galicia or Vienna.`
fn dislodged_line(map: &Map, d: &RetreatOptions) -> String {
    let unit = &d.dislodgement.unit;
    let who = format!(
        "The {} {} (dislodged from {})",
        map.power(unit.power).adjective,
        unit_name(map, unit),
        map.province(d.dislodgement.attacker_from).name
    );
    if d.retreats.is_empty() {
        format!("{who} has nowhere to retreat and is destroyed.")
    } else {
        format!("{who} can retreat to {}.", either(map, &d.retreats))
    }
}

/// Supply centres per power, and the builds or removals each power now has.
fn ownership_lines(map: &Map, position: &Position) -> (Vec<String>, Vec<String>) {
    let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, position);
    let mut ownership = Vec::new();
    let mut adjustments = Vec::new();
    for (p, owed) in owed.iter().enumerate() {
        let power = PowerId(p as u8);
        let mut centres: Vec<&str> = position
            .owners
            .iter()
            .enumerate()
            .filter(|(i, o)| **o == Some(power) && map.provinces[*i].centre.is_some())
            .map(|(i, _)| map.provinces[i].name.as_str())
            .collect();
        centres.sort();
        let units = position.units.iter().filter(|u| u.power == power).count();
        if centres.is_empty() && units == 0 {
            continue;
        }
        let name = &map.power(power).name;
        ownership.push(format!(
            "{name}: {}.",
            if centres.is_empty() {
                "none".to_string()
            } else {
                centres.join(", ")
            }
        ));
        let change = match *owed {
            n if n > 0 => format!("builds {n}"),
            n if n < 0 => format!("removes {}", -n),
            _ => "no change".into(),
        };
        adjustments.push(format!(
            "{name}: supply {}, units {units}: {change}.",
            position.supply_of(map, power)
        ));
    }
    (ownership, adjustments)
}
