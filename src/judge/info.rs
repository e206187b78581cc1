//! What players may ask about games: LIST, HISTORY, and who still owes orders.

use super::deadline_text;
use super::letter::Session;
use super::orders::{is_complete, powers_owing, stored_orders};
use super::phase::phase_name;
use crate::letter::{Address, OutgoingLetter};
use crate::report::describe::unit_name;
use crate::store::{GameRow, Tx};

impl Session<'_> {
    pub(super) fn list(
        &mut self,
        tx: &Tx,
        line: usize,
        game: Option<&str>,
    ) -> rusqlite::Result<()> {
        let Some(name) = game else {
            let mut lines = vec!["Games on this judge:".to_string()];
            for row in tx.games()? {
                lines.push(self.game_summary(tx, &row)?);
            }
            if lines.len() == 1 {
                lines.push("  none yet; create one with CREATE ?name password".into());
            }
            self.say(lines.join("\n"));
            return Ok(());
        };
        let Some(row) = self.find_game(tx, line, name)? else {
            return Ok(());
        };
        let mut lines = vec![self.game_summary(tx, &row)?];
        if let Some((variant, position)) = self.judge.game_position(&row) {
            let map = &variant.map;
            lines.push(format!("Deadline: {}.", deadline_text(&row)));
            let owing = self.owing_names(tx, &row)?;
            if !owing.is_empty() {
                lines.push(format!("Orders still due from: {}.", owing.join(", ")));
            }
            lines.push("Units:".into());
            for unit in &position.units {
                lines.push(format!(
                    "  {}: {}",
                    map.power(unit.power).name,
                    unit_name(map, unit)
                ));
            }
            lines.push("Supply centres:".into());
            for (i, power) in map.powers.iter().enumerate() {
                let id = crate::diplomacy::power::PowerId(i as u8);
                lines.push(format!(
                    "  {}: {}",
                    power.name,
                    position.centres_of(map, id)
                ));
            }
        }
        self.say(lines.join("\n"));
        Ok(())
    }

    /// `  mygame  Standard  active, Fall 1901 movement` and the like.
    pub(super) fn game_summary(&self, tx: &Tx, row: &GameRow) -> rusqlite::Result<String> {
        let Some(variant) = self.judge.variant(&row.variant) else {
            return Ok(format!("  {}", row.name));
        };
        let state = match (&row.state[..], self.judge.game_position(row)) {
            ("forming", _) => {
                let joined = tx
                    .members(row.id)?
                    .iter()
                    .filter(|m| m.role == "player")
                    .count();
                format!("forming, {joined} of {} players", variant.map.powers.len())
            }
            (state, Some((_, position))) => format!("{state}, {}", phase_name(variant, &position)),
            (state, None) => state.to_string(),
        };
        Ok(format!("  {}  {}  {state}", row.name, variant.name))
    }

    /// Names of the powers whose orders are not yet complete and error-free.
    pub(super) fn owing_names(&self, tx: &Tx, row: &GameRow) -> rusqlite::Result<Vec<String>> {
        let Some((variant, position)) = self.judge.game_position(row) else {
            return Ok(Vec::new());
        };
        let map = &variant.map;
        let mut names = Vec::new();
        for power in powers_owing(map, &position) {
            let done = match tx.orders(row.id, row.phase_serial, &map.power(power).id)? {
                Some((lines, false)) => is_complete(
                    map,
                    &position,
                    power,
                    &stored_orders(map, position.turn.kind, &lines),
                ),
                _ => false,
            };
            if !done {
                names.push(map.power(power).name.clone());
            }
        }
        Ok(names)
    }

    /// HISTORY: the game's archive, every report in order, in a letter of its own.
    pub(super) fn history(&mut self, tx: &Tx, line: usize, game: &str) -> rusqlite::Result<()> {
        let Some(row) = self.find_game(tx, line, game)? else {
            return Ok(());
        };
        let reports = tx.reports(row.id)?;
        let mut body = format!(
            "The archive of game '{}': {} report(s).\n",
            row.name,
            reports.len()
        );
        for (when, title, text) in &reports {
            body.push_str(&format!("\n======== {title} ({when})\n\n{text}"));
        }
        self.caused.push(OutgoingLetter {
            to: vec![Address::new(&self.answer_to)],
            subject: format!("History of game '{}'", row.name),
            body,
            in_reply_to: None,
            references: Vec::new(),
        });
        self.say(format!(
            "The archive of game '{}' follows in a separate letter.",
            row.name
        ));
        Ok(())
    }
}
