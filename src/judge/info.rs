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
    pub(super) fn history(
        &mut self,
        tx: &Tx,
        line: usize,
        game: &str,
        from: Option<&str>,
        to: Option<&str>,
    ) -> rusqlite::Result<()> {
        let Some(row) = self.find_game(tx, line, game)? else {
            return Ok(());
        };
        // Stored times start with the date (yyyy-mm-dd), so text order is date order.
        let reports: Vec<_> = tx
            .reports(row.id)?
            .into_iter()
            .filter(|(when, _, _)| {
                from.is_none_or(|f| when.as_str() >= f)
                    && to.is_none_or(|t| &when[..10.min(when.len())] <= t)
            })
            .collect();
        let mut body = format!(
            "The archive of game '{}': {} report(s).\n",
            row.name,
            reports.len()
        );
        for (when, title, text) in &reports {
            body.push_str(&format!("\n======== {title} ({when})\n\n{text}"));
        }
        if super::settings::GameSettings::from_json(&row.settings).hides_identities()
            && !self.is_master_of(&row)
        {
            body = hide_members(tx, &row, &body)?;
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

    /// SUMMARY: who held each power when, and centre counts by year.
    pub(super) fn summary(
        &mut self,
        tx: &Tx,
        line: usize,
        game: Option<&str>,
    ) -> rusqlite::Result<()> {
        let name = match (game, &self.signed_on, &self.master_of) {
            (Some(name), _, _) => name.to_string(),
            (None, Some((row, _)), _) | (None, None, Some(row)) => row.name.clone(),
            _ => {
                self.error(format!(
                    "line {line}: SUMMARY needs a game name, like: SUMMARY mygame"
                ));
                return Ok(());
            }
        };
        let Some(row) = self.find_game(tx, line, &name)? else {
            return Ok(());
        };
        let Some(variant) = self.judge.variant(&row.variant) else {
            return Ok(());
        };
        let mut text = crate::archive::summary_text(tx, variant, &row)?;
        if super::settings::GameSettings::from_json(&row.settings).hides_identities()
            && !self.is_master_of(&row)
        {
            text = hide_members(tx, &row, &text)?;
        }
        self.say(text.trim_end().to_string());
        Ok(())
    }

    /// WHOIS address: the player's name and the games they play or watch.
    pub(super) fn whois(&mut self, tx: &Tx, who: &str) -> rusqlite::Result<()> {
        let Some(player) = tx.player_by_email(who)? else {
            self.say(format!("Nobody is registered as {who}."));
            return Ok(());
        };
        let mut lines = vec![format!(
            "{}{}",
            player.email,
            player
                .name
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        )];
        for (game, member) in tx.memberships(player.id)? {
            if super::settings::GameSettings::from_json(&game.settings).hides_identities()
                && !self.is_master_of(&game)
            {
                continue;
            }
            let what = member.power.unwrap_or(member.role);
            lines.push(format!("  game '{}': {what}", game.name));
        }
        self.say(lines.join("\n"));
        Ok(())
    }

    /// Whether the letter's sender is signed on as a master of `game`.
    pub(super) fn is_master_of(&self, game: &GameRow) -> bool {
        self.master_of.as_ref().is_some_and(|g| g.id == game.id)
    }
}

/// `text` with every member's address (and registered name) of `game` replaced by "(hidden)".
fn hide_members(tx: &Tx, game: &GameRow, text: &str) -> rusqlite::Result<String> {
    let mut out = text.to_string();
    for member in tx.members(game.id)? {
        if let Some(name) = tx
            .player(member.player_id)?
            .name
            .filter(|n| !n.trim().is_empty())
        {
            out = out.replace(&format!("{} <{}>", name.trim(), member.email), "(hidden)");
        }
        out = out.replace(&member.email, "(hidden)");
    }
    Ok(out)
}
