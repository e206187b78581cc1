//! The game master's commands by mail (judge-conventions §1.4): settings, PROCESS, PREDICT,
//! PAUSE, RESUME, EXTEND, BECOME, EJECT, PROMOTE, FORCE BEGIN, ROLLBACK, TERMINATE. Every
//! change to a game is announced to all its members.

use chrono::Duration;

use super::letter::Session;
use super::phase::{next_deadline, phase_name};
use super::settings::{GameSettings, PressKind};
use super::{Judge, deadline_text};
use crate::diplomacy::adjudicate::{Submitted, adjudicate};
use crate::letter::{Address, OutgoingLetter};
use crate::report::describe::{describe_order, note};
use crate::store::{GameRow, Tx, position_from_json};
use crate::text::command::{ObserverPress, PhaseSetting, PressMode, Setting};

impl Session<'_> {
    /// The game this letter may act on as master: signed on as its master, or as a player of
    /// an unmoderated game. Reports an error when there is none.
    pub(super) fn mastered(
        &mut self,
        tx: &Tx,
        line: usize,
        what: &str,
    ) -> rusqlite::Result<Option<GameRow>> {
        if let Some(game) = &self.master_of {
            return Ok(Some(tx.game(game.id)?));
        }
        if let Some((game, _)) = &self.signed_on {
            let game = tx.game(game.id)?;
            if !GameSettings::from_json(&game.settings).moderated {
                return Ok(Some(game));
            }
        }
        self.error(format!(
            "line {line}: {what} is for the game's master; sign on as master first with SIGNON ?<game> <password>"
        ));
        Ok(None)
    }

    /// Announces `text` to every member of `game` (sent at the end of the letter, several
    /// announcements to one game in one letter) and keeps it in the game's archive.
    pub(super) fn announce(
        &mut self,
        tx: &Tx,
        game: &GameRow,
        subject: &str,
        text: &str,
    ) -> rusqlite::Result<()> {
        tx.archive(game.id, game.phase_serial, subject, text, self.now)?;
        self.notices
            .push((game.clone(), subject.to_string(), text.to_string()));
        Ok(())
    }

    /// Sends the letter's announcements: one letter per member of each game, the sender
    /// excepted (their answer says it all).
    pub(super) fn send_notices(&mut self, tx: &Tx) -> rusqlite::Result<()> {
        let notices = std::mem::take(&mut self.notices);
        let mut games: Vec<i64> = notices.iter().map(|(g, _, _)| g.id).collect();
        games.sort_unstable();
        games.dedup();
        for id in games {
            let of_game: Vec<&(GameRow, String, String)> =
                notices.iter().filter(|(g, _, _)| g.id == id).collect();
            let subject = match of_game.as_slice() {
                [(_, subject, _)] => subject.clone(),
                _ => format!("Game '{}': announcements", of_game[0].0.name),
            };
            let body = of_game
                .iter()
                .map(|(_, _, t)| t.trim_end())
                .collect::<Vec<_>>()
                .join("\n\n")
                + "\n";
            for member in tx
                .members(id)?
                .into_iter()
                .filter(|m| m.email != self.sender && m.email != self.answer_to)
            {
                self.caused.push(OutgoingLetter {
                    to: vec![Address::new(&member.email)],
                    subject: subject.clone(),
                    body: body.clone(),
                    in_reply_to: None,
                    references: Vec::new(),
                });
            }
        }
        Ok(())
    }

    /// SET for a master: changes a setting and announces it.
    pub(super) fn master_setting(
        &mut self,
        tx: &Tx,
        line: usize,
        setting: &Setting,
    ) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "this SET")? else {
            return Ok(());
        };
        let mut settings = GameSettings::from_json(&game.settings);
        let press = |mode: &PressMode| match mode {
            PressMode::White => PressKind::White,
            PressMode::Grey => PressKind::Grey,
            PressMode::None => PressKind::None,
        };
        let change = match setting {
            Setting::Deadline {
                kind,
                clock,
                min_hours,
                hours,
                grace_hours,
                days,
            } => {
                let (name, timing) = match kind {
                    PhaseSetting::Movement => ("movement", &mut settings.movement),
                    PhaseSetting::Retreat => ("retreat", &mut settings.retreat),
                    PhaseSetting::Adjustment => ("adjustment", &mut settings.adjustment),
                };
                if let Some(c) = clock {
                    timing.clock = Some(c.clone());
                }
                if let Some(h) = min_hours {
                    timing.min_hours = *h;
                }
                if let Some(h) = hours {
                    timing.hours = (*h).max(1);
                }
                if let Some(h) = grace_hours {
                    timing.grace_hours = *h;
                }
                if let Some(d) = days {
                    timing.days = d.clone();
                }
                format!(
                    "{name} phases last {} hours (at least {}), deadline at {}, on days {}, with {} hours of grace",
                    timing.hours,
                    timing.min_hours,
                    timing.clock.as_deref().unwrap_or("any time"),
                    timing.days,
                    timing.grace_hours
                )
            }
            Setting::Zone(zone) => {
                if zone.parse::<chrono_tz::Tz>().is_err() {
                    self.error(format!(
                        "line {line}: '{zone}' is not a time zone such as Europe/Moscow"
                    ));
                    return Ok(());
                }
                game.time_zone = zone.clone();
                format!(
                    "the game's time zone is {zone}; the deadline is now shown as {}",
                    deadline_text(&game)
                )
            }
            Setting::Press(mode) => {
                settings.press = press(mode);
                format!("press is {}", press_word(settings.press))
            }
            Setting::Partial(on) => {
                settings.partial_press = *on;
                format!(
                    "partial press is {}",
                    if *on { "allowed" } else { "not allowed" }
                )
            }
            Setting::ObserverPress(mode) => {
                settings.observer_press = match mode {
                    ObserverPress::Any | ObserverPress::White => PressKind::White,
                    ObserverPress::None => PressKind::None,
                };
                format!(
                    "observers' press is {}",
                    press_word(settings.observer_press)
                )
            }
            Setting::MasterSeesPress(on) => {
                settings.master_sees_press = *on;
                format!(
                    "the master {} a copy of all press",
                    if *on { "receives" } else { "does not receive" }
                )
            }
            Setting::CivilDisorder(on) => {
                settings.civil_disorder = *on;
                if *on {
                    "a power silent past the grace falls into civil disorder".to_string()
                } else {
                    "a power silent past the grace is offered for takeover and the game waits"
                        .to_string()
                }
            }
            Setting::Public(on) => {
                settings.public = *on;
                format!("the game is {}", if *on { "public" } else { "private" })
            }
            Setting::Allow(address) => {
                settings.allow.push(address.to_lowercase());
                format!("{address} may join")
            }
            Setting::Deny(address) => {
                settings.deny.push(address.to_lowercase());
                format!("{address} may not join")
            }
            Setting::Dias(on) => {
                settings.dias = *on;
                if *on {
                    "a draw includes all survivors".to_string()
                } else {
                    "smaller draws may be proposed".to_string()
                }
            }
            Setting::Moderated(on) => {
                settings.moderated = *on;
                format!(
                    "the game is {}",
                    if *on { "moderated" } else { "unmoderated" }
                )
            }
            Setting::MaxAbsence(days) => {
                settings.max_absence_days = *days;
                format!("absences may last up to {days} days")
            }
            _ => return Ok(()),
        };
        game.settings = settings.to_json();
        tx.save_game(&game)?;
        self.say(format!("Setting changed: {change}."));
        let text = format!("A setting of game '{}' changed: {change}.\n", game.name);
        self.announce(
            tx,
            &game,
            &format!("Game '{}': parameter change", game.name),
            &text,
        )?;
        self.refresh(game);
        Ok(())
    }

    /// Keeps the session's copies of a game current after a change.
    pub(super) fn refresh(&mut self, game: GameRow) {
        if let Some((g, _)) = &mut self.signed_on
            && g.id == game.id
        {
            *g = game.clone();
        }
        if let Some(g) = &mut self.master_of
            && g.id == game.id
        {
            *g = game;
        }
    }

    /// PROCESS [phase]: the phase now, with the orders there are.
    pub(super) fn process_now(
        &mut self,
        tx: &Tx,
        line: usize,
        phase: Option<&str>,
    ) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "PROCESS")? else {
            return Ok(());
        };
        let Some((variant, position)) = self
            .judge
            .game_position(&game)
            .filter(|_| game.state == "active")
        else {
            self.error(format!("line {line}: game '{}' is not running", game.name));
            return Ok(());
        };
        let current = phase_name(variant, &position);
        if let Some(asked) = phase
            && !current.to_lowercase().starts_with(&asked.to_lowercase())
        {
            self.error(format!(
                "line {line}: the current phase is {current}, not {asked}; nothing was processed"
            ));
            return Ok(());
        }
        self.say(format!(
            "{current} of game '{}' is processed now.",
            game.name
        ));
        let letters = self.judge.process_phase(tx, &mut game, self.now)?;
        self.caused.extend(letters);
        self.refresh(game);
        Ok(())
    }

    /// PREDICT: what the phase would come to with the orders now in force, to the master only.
    pub(super) fn predict(&mut self, tx: &Tx, line: usize) -> rusqlite::Result<()> {
        let Some(game) = self.mastered(tx, line, "PREDICT")? else {
            return Ok(());
        };
        let Some((variant, position)) = self.judge.game_position(&game) else {
            self.error(format!("line {line}: game '{}' is not running", game.name));
            return Ok(());
        };
        let map = &variant.map;
        let mut submitted = Vec::new();
        for power in super::orders::powers_owing(map, &position) {
            if let Some((lines, _)) = tx.orders(game.id, game.phase_serial, &map.power(power).id)? {
                let orders = super::orders::stored_orders(map, position.turn.kind, &lines);
                submitted.extend(orders.into_iter().map(|order| Submitted { power, order }));
            }
        }
        let resolution = adjudicate(map, &variant.rules, &position, &submitted);
        let mut lines = vec![format!(
            "Prediction for {} of game '{}' with the orders received so far (nothing is changed):",
            phase_name(variant, &position),
            game.name
        )];
        for (s, outcome) in submitted.iter().zip(&resolution.outcomes) {
            let n = note(map, outcome);
            let n = if n.is_empty() {
                String::new()
            } else {
                format!("  (*{n}*)")
            };
            lines.push(format!(
                "  {}: {}{n}",
                map.power(s.power).name,
                describe_order(map, &position, s.power, &s.order)
            ));
        }
        self.say(lines.join("\n"));
        Ok(())
    }

    /// PAUSE and RESUME: deadlines stop, and start again with a whole phase to come.
    pub(super) fn pause(&mut self, tx: &Tx, line: usize, pause: bool) -> rusqlite::Result<()> {
        let word = if pause { "PAUSE" } else { "RESUME" };
        let Some(mut game) = self.mastered(tx, line, word)? else {
            return Ok(());
        };
        let mut settings = GameSettings::from_json(&game.settings);
        if settings.paused == pause {
            self.error(format!(
                "line {line}: game '{}' is {} already",
                game.name,
                if pause { "paused" } else { "running" }
            ));
            return Ok(());
        }
        settings.paused = pause;
        game.settings = settings.to_json();
        let text = if pause {
            format!(
                "Game '{}' is paused: no deadline runs until the master resumes it. Press still flows.\n",
                game.name
            )
        } else {
            if let Some((_, position)) = self.judge.game_position(&game) {
                game.deadline_at = Some(next_deadline(&game, position.turn.kind, self.now));
                game.reminded = false;
            }
            format!(
                "Game '{}' is resumed. The deadline is {}.\n",
                game.name,
                deadline_text(&game)
            )
        };
        tx.save_game(&game)?;
        self.say(text.trim_end().to_string());
        self.announce(
            tx,
            &game,
            &format!(
                "Game '{}': {}",
                game.name,
                if pause { "paused" } else { "resumed" }
            ),
            &text,
        )?;
        self.refresh(game);
        Ok(())
    }

    /// EXTEND [hours]: the deadline moves later.
    pub(super) fn extend(&mut self, tx: &Tx, line: usize, hours: u32) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "EXTEND")? else {
            return Ok(());
        };
        let Some(deadline) = game.deadline_at.filter(|_| game.state == "active") else {
            self.error(format!(
                "line {line}: game '{}' has no deadline to extend",
                game.name
            ));
            return Ok(());
        };
        game.deadline_at = Some(deadline.max(self.now) + Duration::hours(i64::from(hours)));
        game.reminded = false;
        tx.save_game(&game)?;
        let text = format!(
            "The deadline of game '{}' is extended by {hours} hours, to {}.\n",
            game.name,
            deadline_text(&game)
        );
        self.say(text.trim_end().to_string());
        self.announce(
            tx,
            &game,
            &format!("Game '{}': deadline extended", game.name),
            &text,
        )?;
        self.refresh(game);
        Ok(())
    }

    /// TERMINATE: the game ends here.
    pub(super) fn terminate(&mut self, tx: &Tx, line: usize) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "TERMINATE")? else {
            return Ok(());
        };
        game.state = "finished".into();
        game.deadline_at = None;
        tx.save_game(&game)?;
        let text = format!("Game '{}' has been terminated by its master.\n", game.name);
        self.say(text.trim_end().to_string());
        self.announce(
            tx,
            &game,
            &format!("Game '{}' terminated", game.name),
            &text,
        )?;
        self.refresh(game);
        Ok(())
    }

    /// BECOME power: the rest of the letter acts for that power; its player gets a copy.
    pub(super) fn become_power(
        &mut self,
        tx: &Tx,
        line: usize,
        power: &str,
    ) -> rusqlite::Result<()> {
        let Some(game) = self.mastered(tx, line, "BECOME")? else {
            return Ok(());
        };
        let Some(variant) = self.judge.variant(&game.variant) else {
            return Ok(());
        };
        let Some(id) = super::credit::power_named(&variant.map, power) else {
            self.error(format!(
                "line {line}: '{power}' is not a power of game '{}'",
                game.name
            ));
            return Ok(());
        };
        let power_id = variant.map.power(id).id.clone();
        if let Some(player) = tx
            .members(game.id)?
            .into_iter()
            .find(|m| m.power.as_deref() == Some(power_id.as_str()))
        {
            self.copy_to.push(player.email);
        }
        self.say(format!(
            "Acting as {} in game '{}' for the rest of this letter.",
            variant.map.power(id).name,
            game.name
        ));
        self.signed_on = Some((game, power_id));
        Ok(())
    }

    /// EJECT power|address: the member leaves the game; a power without a player is open
    /// for takeover.
    pub(super) fn eject(&mut self, tx: &Tx, line: usize, who: &str) -> rusqlite::Result<()> {
        let Some(game) = self.mastered(tx, line, "EJECT")? else {
            return Ok(());
        };
        let Some(variant) = self.judge.variant(&game.variant) else {
            return Ok(());
        };
        let members = tx.members(game.id)?;
        let power =
            super::credit::power_named(&variant.map, who).map(|p| variant.map.power(p).id.clone());
        let target = members
            .iter()
            .find(|m| m.email.eq_ignore_ascii_case(who) || (power.is_some() && m.power == power));
        let Some(member) = target else {
            self.error(format!(
                "line {line}: nobody in game '{}' is '{who}'",
                game.name
            ));
            return Ok(());
        };
        tx.remove_member(game.id, member.player_id)?;
        let what = match member
            .power
            .as_deref()
            .and_then(|p| variant.map.power_by_id(p))
        {
            Some(p) => format!(
                "The player of {} has been ejected from game '{}'. {} is open for takeover: SIGNON {}{} <password>.\n",
                variant.map.power(p).name,
                game.name,
                variant.map.power(p).name,
                variant.map.power(p).letter,
                game.name
            ),
            None => format!(
                "{} has been ejected from game '{}'.\n",
                member.email, game.name
            ),
        };
        self.say(what.trim_end().to_string());
        self.caused.push(OutgoingLetter {
            to: vec![Address::new(&member.email)],
            subject: format!("Game '{}': you have been ejected", game.name),
            body: format!(
                "The master of game '{}' has ejected you from it.\n",
                game.name
            ),
            in_reply_to: None,
            references: Vec::new(),
        });
        self.announce(tx, &game, &format!("Game '{}': ejection", game.name), &what)?;
        Ok(())
    }

    /// PROMOTE address: an observer becomes co-master.
    pub(super) fn promote(&mut self, tx: &Tx, line: usize, who: &str) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "PROMOTE")? else {
            return Ok(());
        };
        let members = tx.members(game.id)?;
        let Some(member) = members
            .iter()
            .find(|m| m.email.eq_ignore_ascii_case(who) && m.role == "observer")
        else {
            self.error(format!(
                "line {line}: '{who}' does not observe game '{}'",
                game.name
            ));
            return Ok(());
        };
        tx.set_member(
            game.id,
            member.player_id,
            None,
            "master",
            &member.password_hash,
            self.now,
        )?;
        let mut settings = GameSettings::from_json(&game.settings);
        settings.masters.push(member.player_id);
        settings.moderated = true;
        game.settings = settings.to_json();
        tx.save_game(&game)?;
        let text = format!(
            "{} is now a master of game '{}'.\n",
            member.email, game.name
        );
        self.say(text.trim_end().to_string());
        self.announce(
            tx,
            &game,
            &format!("Game '{}': a new master", game.name),
            &text,
        )?;
        self.refresh(game);
        Ok(())
    }

    /// FORCE BEGIN: a forming game starts short-handed; empty seats are open for takeover.
    pub(super) fn force_begin(&mut self, tx: &Tx, line: usize) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "FORCE BEGIN")? else {
            return Ok(());
        };
        if game.state != "forming" {
            self.error(format!(
                "line {line}: game '{}' has already begun",
                game.name
            ));
            return Ok(());
        }
        self.say(format!(
            "Game '{}' starts now with the players it has.",
            game.name
        ));
        let letters = self.judge.start_game(tx, &mut game, self.now)?;
        self.caused.extend(letters);
        self.refresh(game);
        Ok(())
    }

    /// ROLLBACK n: the game goes back to the start of phase `n` of its history; the orders of
    /// the phases undone are kept for inspection.
    pub(super) fn rollback(
        &mut self,
        tx: &Tx,
        line: usize,
        phase: Option<u32>,
    ) -> rusqlite::Result<()> {
        let Some(mut game) = self.mastered(tx, line, "ROLLBACK")? else {
            return Ok(());
        };
        let target = phase.map(i64::from).unwrap_or(game.phase_serial - 1);
        let phases = tx.phases(game.id)?;
        let Some(row) = phases
            .iter()
            .find(|p| p.phase_serial == target && target < game.phase_serial)
        else {
            self.error(format!(
                "line {line}: game '{}' has no earlier phase {target}; its phases are 0 to {}",
                game.name, game.phase_serial
            ));
            return Ok(());
        };
        let Some(variant) = self.judge.variant(&game.variant) else {
            return Ok(());
        };
        if position_from_json(&variant.map, &row.position).is_err() {
            self.error(format!(
                "line {line}: the stored position of phase {target} cannot be read"
            ));
            return Ok(());
        }
        tx.undo_orders_from(game.id, target, self.now)?;
        game.position = Some(row.position.clone());
        game.phase_serial = target;
        game.state = "active".into();
        let kind = position_from_json(&variant.map, &row.position)
            .map(|p| p.turn.kind)
            .expect("checked above");
        game.deadline_at = Some(next_deadline(&game, kind, self.now));
        game.reminded = false;
        tx.save_game(&game)?;
        let text = format!(
            "Game '{}' has been rolled back to {} (phase {target}). Orders must be sent again; the deadline is {}.\n",
            game.name,
            row.title,
            deadline_text(&game)
        );
        self.say(text.trim_end().to_string());
        self.announce(
            tx,
            &game,
            &format!("Game '{}': rolled back", game.name),
            &text,
        )?;
        self.refresh(game);
        Ok(())
    }
}

fn press_word(kind: PressKind) -> &'static str {
    match kind {
        PressKind::White => "white (signed)",
        PressKind::Grey => "grey (anonymous)",
        PressKind::None => "not allowed",
    }
}

impl Judge {
    /// Whether `player` is a master of `game`.
    pub fn is_master(game: &GameRow, player: i64) -> bool {
        GameSettings::from_json(&game.settings)
            .masters
            .contains(&player)
    }
}
