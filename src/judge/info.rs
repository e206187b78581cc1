//! What players may ask about games: LIST, HISTORY, SUMMARY, WHOIS, and who still owes
//! orders; each answered only with what the asker may see (`secrecy`).

use super::deadline_text_in;
use super::letter::Session;
use super::phase::phase_name_in;
use super::secrecy::{self, Reader};
use crate::diplomacy::progress::VictoryCounting;
use crate::letter::OutgoingLetter;
use crate::report::describe::unit_name_in;
use crate::report::{Message, Words};
use crate::store::{GameRow, Tx};
use crate::{msg, tr};

impl Session<'_> {
    pub(super) fn list(
        &mut self,
        tx: &Tx,
        line: usize,
        game: Option<&str>,
    ) -> rusqlite::Result<()> {
        let words = self.words();
        let Some(name) = game else {
            let mut lines = vec![tr!(words, "info.games")];
            for row in self.visible_games(tx)? {
                lines.push(self.game_summary(tx, &row)?);
            }
            if lines.len() == 1 {
                lines.push(tr!(words, "info.no_games"));
            }
            self.say_text(lines.join("\n"));
            return Ok(());
        };
        let Some(row) = self.find_game(tx, line, name)? else {
            return Ok(());
        };
        let mut lines = vec![self.game_summary(tx, &row)?];
        if let Some((variant, position)) = self.judge.game_position(&row) {
            let map = &variant.map;
            lines.push(tr!(
                words,
                "info.deadline",
                deadline = deadline_text_in(words, &row)
            ));
            let owing = self.owing_names(tx, &row)?;
            if !owing.is_empty() {
                lines.push(tr!(words, "info.owing", powers = owing.join(", ")));
            }
            lines.push(tr!(words, "info.units"));
            for unit in &position.units {
                lines.push(format!(
                    "  {}: {}",
                    map.power(unit.power).name,
                    unit_name_in(words, map, unit)
                ));
            }
            // In a retreat phase, the units to retreat and where each may go.
            if !position.dislodged.is_empty() {
                lines.push(tr!(words, "info.dislodged"));
                let mut occupied = vec![false; map.n_provinces()];
                for unit in &position.units {
                    occupied[map.province_of(unit.region).index()] = true;
                }
                for d in &position.dislodged {
                    let options = crate::diplomacy::adjudicate::aftermath::retreat_options(
                        map,
                        &variant.rules,
                        d,
                        &occupied,
                        &position.contested,
                    );
                    lines.push(format!(
                        "  {}",
                        super::results::dislodged_line(
                            words,
                            map,
                            &crate::diplomacy::adjudicate::RetreatOptions {
                                dislodgement: *d,
                                retreats: options,
                            }
                        )
                    ));
                }
            }
            lines.push(tr!(words, "info.centres"));
            for (i, power) in map.powers.iter().enumerate() {
                let tally = position.tally(map, crate::diplomacy::power::PowerId(i as u8));
                // Where victory counts supply, the supply first and the centres beside it.
                lines.push(match variant.victory_counting {
                    VictoryCounting::Centres => format!("  {}: {}", power.name, tally.centres),
                    VictoryCounting::Supply => tr!(
                        words,
                        "info.supply",
                        power = power.name,
                        supply = tally.supply,
                        centres = tally.centres
                    ),
                });
            }
        }
        self.say_text(lines.join("\n"));
        Ok(())
    }

    /// `  mygame  Standard  active, Fall 1901 movement` and the like.
    pub(super) fn game_summary(&self, tx: &Tx, row: &GameRow) -> rusqlite::Result<String> {
        let Some(variant) = self.judge.variant(&row.variant) else {
            return Ok(format!("  {}", row.name));
        };
        let words = self.words();
        let state = match (&row.state[..], self.judge.game_position(row)) {
            ("forming", _) => {
                let joined = tx
                    .members(row.id)?
                    .iter()
                    .filter(|m| m.role == "player")
                    .count();
                tr!(
                    words,
                    "info.forming",
                    joined = joined,
                    needed = variant.map.powers.len()
                )
            }
            (state, Some((_, position))) => format!(
                "{}, {}",
                state_word(words, state),
                phase_name_in(words, variant, &position)
            ),
            (state, None) => state_word(words, state),
        };
        Ok(format!("  {}  {}  {state}", row.name, variant.name))
    }

    /// Names of the powers whose orders are not yet complete and error-free.
    pub(super) fn owing_names(&self, tx: &Tx, row: &GameRow) -> rusqlite::Result<Vec<String>> {
        let Some((variant, _)) = self.judge.game_position(row) else {
            return Ok(Vec::new());
        };
        let missing = self.judge.missing_powers(tx, row)?;
        Ok(missing
            .into_iter()
            .map(|p| variant.map.power(p).name.clone())
            .collect())
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
        // As njudge's HISTORY: the game's `::` lines, the span, then each archived letter with
        // its Date: and Subject: lines and without its own `::` lines (so jDip imports a whole
        // game from it).
        let words = self.words();
        let position = self.judge.game_position(&row);
        let [judge_line, deadline_line] = super::results::game_header(
            &self.judge.config.judge.code,
            &row,
            self.judge.variant(&row.variant).map(|v| v.name.as_str()),
            position.as_ref().map(|(_, p)| p.turn),
        );
        let from_time = reports
            .first()
            .and_then(|(when, _, _)| crate::store::parse_time(when))
            .unwrap_or(self.now);
        let mut body = format!(
            "\n{judge_line}\n{deadline_line}\n\n{}\n{}\n\n",
            tr!(
                words,
                "classic.history_from",
                game = row.name,
                from = crate::report::classic::date(from_time, &row.time_zone)
            ),
            tr!(
                words,
                "classic.history_through",
                to = crate::report::classic::date(self.now, &row.time_zone)
            )
        );
        for (when, title, text) in &reports {
            let at = crate::store::parse_time(when).unwrap_or(self.now);
            body.push_str(&format!(
                "Date:    {}\nSubject: {title}\n\n",
                crate::report::classic::archive_date(at)
            ));
            for line in text.lines().filter(|l| !l.starts_with("::")) {
                body.push_str(line);
                body.push('\n');
            }
            body.push('\n');
        }
        body.push_str(&format!("\n{}\n", tr!(words, "classic.history_end")));
        // Whatever the archive holds, no address the reader may not see.
        body = secrecy::scrub(tx, words, &row, &body, self.reader_for(&row))?;
        let subject = super::results::game_subject(
            &self.judge.config.judge.code,
            &row,
            position.as_ref().map(|(_, p)| p.turn),
            "History",
        );
        self.caused
            .push(OutgoingLetter::fresh(&self.answer_to, subject, body));
        self.say(msg!("info.history_follows", game = row.name));
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
                self.fail(line, msg!("info.summary_needs_game"));
                return Ok(());
            }
        };
        let Some(row) = self.find_game(tx, line, &name)? else {
            return Ok(());
        };
        let Some(variant) = self.judge.variant(&row.variant) else {
            return Ok(());
        };
        let text = |reader| -> rusqlite::Result<Message> {
            let text = crate::archive::summary_text(tx, variant, &row, reader)?;
            Ok(msg!("letter.text", text = text.trim_end()))
        };
        let public = text(Reader::Other)?;
        self.say_by_reader(&row, public, text(Reader::Master)?);
        Ok(())
    }

    /// GET MAP [game]: the picture of the game's board as it stands, attached to the answer
    /// as `map.png` (the orders of the phase being played are not drawn: they are secret).
    /// A game the sender may not see is answered as one that does not exist.
    pub(super) fn get_map(
        &mut self,
        tx: &Tx,
        line: usize,
        game: Option<&str>,
    ) -> rusqlite::Result<()> {
        let name = match (game, &self.signed_on, &self.master_of) {
            (Some(name), _, _) => name.to_string(),
            (None, Some((row, _)), _) | (None, None, Some(row)) => row.name.clone(),
            _ => {
                self.fail(line, msg!("info.map_needs_game"));
                return Ok(());
            }
        };
        let Some(row) = self.find_game(tx, line, &name)? else {
            return Ok(());
        };
        if self.attachments.iter().any(|(g, _)| *g == row.name) {
            return Ok(());
        }
        let words = self.words();
        let picture = if row.variant == super::his::VARIANT {
            super::his::picture(&row, words).and_then(|svg| super::pictures::his_picture(&svg))
        } else {
            self.judge
                .game_position(&row)
                .and_then(|(variant, position)| {
                    super::pictures::board_picture(words, variant, &row, &position)
                })
        };
        match picture {
            Some(picture) => {
                self.say(msg!("info.map_attached", game = row.name));
                self.attachments.push((row.name.clone(), picture));
            }
            None => self.fail(line, msg!("info.no_map", game = row.name)),
        }
        Ok(())
    }

    /// WHOIS address: the player's name and the games they play or watch. A player who
    /// hides their address is found only by themselves and by the masters of their games
    /// (signed on as such); to anyone else it is an address nobody registered.
    pub(super) fn whois(&mut self, tx: &Tx, who: &str) -> rusqlite::Result<()> {
        let public = self.whois_as(tx, who, None)?;
        match self.master_of.clone() {
            Some(game) => {
                let masters = self.whois_as(tx, who, Some(&game))?;
                self.say_by_reader(&game, public, masters);
            }
            None => self.say(public),
        }
        Ok(())
    }

    /// The answer to WHOIS `who`, as read by a master of `master_of` (none: by anyone else).
    fn whois_as(
        &self,
        tx: &Tx,
        who: &str,
        master_of: Option<&GameRow>,
    ) -> rusqlite::Result<Message> {
        let nobody = msg!("info.nobody", address = who);
        let Some(player) = tx.identity_by_email(who)? else {
            return Ok(nobody);
        };
        let memberships = tx.memberships(player.player_id)?;
        let masters = |game: &GameRow| master_of.is_some_and(|g| g.id == game.id);
        let themselves = player.email == self.sender;
        if !(themselves || player.show_address || memberships.iter().any(|(g, _)| masters(g))) {
            return Ok(nobody);
        }
        let mut lines = vec![format!(
            "{}{}",
            player.email,
            player
                .name
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        )];
        for (game, member) in memberships {
            let told = themselves
                || masters(&game)
                || (self.may_see(tx, &game)? && !secrecy::identities_hidden(&game));
            if !told {
                continue;
            }
            let what = match member.power {
                Some(power) => power,
                None => role_word(self.words(), &member.role),
            };
            lines.push(tr!(
                self.words(),
                "info.whois_game",
                game = game.name,
                what = what
            ));
        }
        Ok(msg!("letter.text", text = lines.join("\n")))
    }

    /// Whether the letter's sender is signed on as a master of `game`.
    pub(super) fn is_master_of(&self, game: &GameRow) -> bool {
        self.master_of.as_ref().is_some_and(|g| g.id == game.id)
    }
}

/// A game's state (`active`, `finished`) in the reader's words.
pub(super) fn state_word(words: Words, state: &str) -> String {
    match state {
        "active" => tr!(words, "state.active"),
        "finished" => tr!(words, "state.finished"),
        "forming" => tr!(words, "state.forming"),
        other => other.to_string(),
    }
}

/// A member's role (`master`, `observer`, `player`) in the reader's words.
pub(super) fn role_word(words: Words, role: &str) -> String {
    match role {
        "master" => tr!(words, "role.master"),
        "observer" => tr!(words, "role.observer"),
        "player" => tr!(words, "role.player"),
        other => other.to_string(),
    }
}
