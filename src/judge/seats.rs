//! Taking and leaving seats: REGISTER, CREATE, SIGNON (joining and signing on), OBSERVE,
//! RESIGN.

use super::letter::Session;
use super::password::{hash_password, password_matches};
use super::settings::GameSettings;
use crate::letter::OutgoingLetter;
use crate::store::Tx;
use crate::{msg, tr};

impl Session<'_> {
    pub(super) fn register(
        &mut self,
        tx: &Tx,
        line: usize,
        name: Option<&str>,
        password: Option<&str>,
    ) -> rusqlite::Result<()> {
        let Some(password) = password else {
            self.fail(line, msg!("seats.register_needs_password"));
            return Ok(());
        };
        let player =
            tx.register_player(&self.sender, name, Some(&hash_password(password)), self.now)?;
        let text = match &player.name {
            Some(name) => msg!("seats.registered_as", address = player.email, name = name),
            None => msg!("seats.registered", address = player.email),
        };
        self.say(text);
        Ok(())
    }

    pub(super) fn create(
        &mut self,
        tx: &Tx,
        line: usize,
        game: &str,
        password: &str,
        variant: Option<&str>,
        moderated: bool,
    ) -> rusqlite::Result<()> {
        let variant_id = variant.unwrap_or("standard");
        let Some(variant) = self.judge.variant(variant_id) else {
            let known: Vec<&str> = self.judge.variants.iter().map(|v| v.id.as_str()).collect();
            let text = msg!(
                "seats.no_such_variant",
                variant = variant_id,
                variants = known.join(", ")
            );
            self.fail(line, text);
            return Ok(());
        };
        if tx.game_by_name(game)?.is_some() {
            self.fail(line, msg!("seats.game_exists", game = game));
            return Ok(());
        }
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        let d = &self.judge.config.deadlines;
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
            &self.judge.config.judge.time_zone,
            hours,
            self.now,
        )?;
        let mut settings =
            GameSettings::with_hours(d.movement_hours, d.retreat_hours, d.adjustment_hours);
        settings.moderated = moderated;
        if moderated {
            settings.masters.push(player.id);
        }
        row.settings = settings.to_json();
        tx.save_game(&row)?;
        let role = if moderated { "master" } else { "player" };
        tx.set_member(
            row.id,
            player.id,
            None,
            role,
            &hash_password(password),
            self.now,
        )?;
        let needed = variant.map.powers.len();
        if moderated {
            self.say(msg!(
                "seats.created_moderated",
                game = row.name,
                variant = variant.name,
                needed = needed
            ));
            self.master_of = Some(row);
            return Ok(());
        }
        self.say(msg!(
            "seats.created",
            game = row.name,
            variant = variant.name,
            needed = needed
        ));
        self.joined = Some(row.clone());
        if needed == 1 {
            let mut row = row;
            self.caused
                .extend(self.judge.start_game(tx, &mut row, self.now)?);
        }
        Ok(())
    }

    pub(super) fn join(
        &mut self,
        tx: &Tx,
        line: usize,
        game: &str,
        password: &str,
    ) -> rusqlite::Result<()> {
        let Some(row) = self.find_game_to_join(tx, line, game, None)? else {
            return Ok(());
        };
        // A master or an observer signs on to the game in that role.
        let sender = tx.player_by_email(&self.sender)?;
        let role_member = tx.members(row.id)?.into_iter().find(|m| {
            sender.as_ref().is_some_and(|p| p.id == m.player_id)
                && (m.role == "master" || m.role == "observer")
        });
        if let Some(member) = role_member {
            if !password_matches(password, &member.password_hash) {
                self.fail(line, msg!("seats.wrong_password", game = row.name));
                return Ok(());
            }
            // Answered in the language the member reads the game's letters in, as a power is.
            self.language = self.judge.language_of(tx, &row, &member)?;
            if member.role == "master" {
                self.say(msg!("seats.master_signed_on", game = row.name));
                self.master_of = Some(row);
            } else {
                self.say(msg!("seats.observer_signed_on", game = row.name));
                self.watching = Some(row);
            }
            return Ok(());
        }
        if row.state != "forming" {
            self.fail(line, msg!("seats.already_started", game = row.name));
            return Ok(());
        }
        let settings = GameSettings::from_json(&row.settings);
        if settings.deny.contains(&self.sender)
            || (!settings.allow.is_empty() && !settings.allow.contains(&self.sender))
        {
            let text = msg!("seats.not_open", game = row.name, address = self.sender);
            self.fail(line, text);
            return Ok(());
        }
        let variant = self
            .judge
            .variant(&row.variant)
            .expect("games are created with known variants");
        let needed = variant.map.powers.len();
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        let members = tx.members(row.id)?;
        if members
            .iter()
            .any(|m| m.player_id == player.id && m.role == "player")
        {
            tx.set_member(
                row.id,
                player.id,
                None,
                "player",
                &hash_password(password),
                self.now,
            )?;
            self.say(msg!("seats.password_changed", game = row.name));
            return Ok(());
        }
        tx.set_member(
            row.id,
            player.id,
            None,
            "player",
            &hash_password(password),
            self.now,
        )?;
        let joined = members.iter().filter(|m| m.role == "player").count() + 1;
        self.joined = Some(row.clone());
        self.say(msg!(
            "seats.joined",
            game = row.name,
            joined = joined,
            needed = needed
        ));
        if joined >= needed && !self.filled.contains(&row.id) {
            self.filled.push(row.id);
        }
        Ok(())
    }

    /// Starts the games this letter filled, now that the whole letter is read.
    pub(super) fn start_filled(&mut self, tx: &Tx) -> rusqlite::Result<()> {
        for id in std::mem::take(&mut self.filled) {
            let mut row = tx.game(id)?;
            if row.state != "forming" {
                continue;
            }
            self.say(msg!("seats.full", game = row.name));
            self.caused
                .extend(self.judge.start_game(tx, &mut row, self.now)?);
        }
        Ok(())
    }

    pub(super) fn signon(
        &mut self,
        tx: &Tx,
        line: usize,
        letter: char,
        game: &str,
        password: &str,
    ) -> rusqlite::Result<()> {
        let Some(row) = self.find_game_to_join(tx, line, game, Some((letter, password)))? else {
            return Ok(());
        };
        let variant = self
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
            self.fail(line, text);
            return Ok(());
        };
        let members = tx.members(row.id)?;
        let member = members
            .iter()
            .find(|m| m.role == "player" && m.power.as_deref() == Some(power.id.as_str()));
        if member.is_none() && row.state == "active" {
            let power = power.clone();
            return self.take_over(tx, line, row, &power, password);
        }
        let Some(member) = member.filter(|m| password_matches(password, &m.password_hash)) else {
            let text = msg!("seats.wrong_power_or_password", game = row.name);
            self.fail(line, text);
            if let Some(owner) = members
                .iter()
                .find(|m| m.power.as_deref() == Some(power.id.as_str()) && m.email != self.sender)
            {
                let language = self.judge.language_of(tx, &row, owner)?;
                let words = self.judge.templates.words(&language);
                self.caused.push(OutgoingLetter::fresh(
                    &owner.email,
                    tr!(
                        words,
                        "seats.failed_signon_subject",
                        game = row.name,
                        power = power.name
                    ),
                    tr!(
                        words,
                        "seats.failed_signon",
                        address = self.sender,
                        power = power.name,
                        game = row.name
                    ) + "\n",
                ));
            }
            return Ok(());
        };
        self.answer_to = member.email.clone();
        self.language = self.judge.language_of(tx, &row, member)?;
        self.say(msg!("seats.signed_on", power = power.name, game = row.name));
        self.signed_on = Some((row, power.id.clone()));
        Ok(())
    }

    pub(super) fn observe(
        &mut self,
        tx: &Tx,
        line: usize,
        game: &str,
        password: &str,
    ) -> rusqlite::Result<()> {
        let Some(row) = self.find_game(tx, line, game)? else {
            return Ok(());
        };
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        if tx.members(row.id)?.iter().any(|m| m.player_id == player.id) {
            self.say(msg!("seats.already_member", game = row.name));
            return Ok(());
        }
        tx.set_member(
            row.id,
            player.id,
            None,
            "observer",
            &hash_password(password),
            self.now,
        )?;
        self.say(msg!("seats.observing", game = row.name));
        Ok(())
    }

    pub(super) fn resign(&mut self, tx: &Tx, line: usize) -> rusqlite::Result<()> {
        let Some((row, power)) = self.signed_on.take() else {
            self.fail(line, msg!("seats.resign_needs_signon"));
            return Ok(());
        };
        if let Some(member) = tx
            .members(row.id)?
            .into_iter()
            .find(|m| m.power.as_deref() == Some(power.as_str()))
        {
            tx.remove_member(row.id, member.player_id)?;
        }
        self.say(msg!("seats.resigned", game = row.name));
        if let Some(info) = self
            .judge
            .variant(&row.variant)
            .and_then(|v| v.map.power_by_id(&power).map(|p| v.map.power(p).clone()))
        {
            self.announce(
                tx,
                &row,
                msg!("seats.open_subject", game = row.name, power = info.name),
                msg!(
                    "seats.open",
                    game = row.name,
                    power = info.name,
                    letter = info.letter
                ),
            )?;
        }
        Ok(())
    }

    /// SET PASSWORD: after a SIGNON, the password of that seat in that game (power, master
    /// or observer); before any, the password the address registered with.
    pub(super) fn set_password(&mut self, tx: &Tx, password: &str) -> rusqlite::Result<()> {
        let seat = match (&self.signed_on, &self.master_of, &self.watching) {
            (Some((game, power)), _, _) => tx
                .members(game.id)?
                .into_iter()
                .find(|m| m.power.as_deref() == Some(power.as_str()))
                .map(|m| (game.clone(), m.player_id)),
            (None, Some(game), _) | (None, None, Some(game)) => {
                match tx.player_by_email(&self.sender)? {
                    Some(player) => Some((game.clone(), player.id)),
                    None => None,
                }
            }
            (None, None, None) => None,
        };
        match seat {
            Some((game, player)) => {
                tx.set_member_password(game.id, player, &hash_password(password))?;
                self.say(msg!("letter.game_password_changed", game = game.name));
            }
            None => {
                tx.register_player(&self.sender, None, Some(&hash_password(password)), self.now)?;
                self.say(msg!("letter.password_changed"));
            }
        }
        Ok(())
    }

    /// A newcomer takes over a power that has no player: the deadline moves so they have a
    /// whole phase, and the game is told.
    fn take_over(
        &mut self,
        tx: &Tx,
        line: usize,
        mut row: crate::store::GameRow,
        power: &crate::diplomacy::map::PowerInfo,
        password: &str,
    ) -> rusqlite::Result<()> {
        let settings = GameSettings::from_json(&row.settings);
        if settings.deny.contains(&self.sender)
            || (!settings.allow.is_empty() && !settings.allow.contains(&self.sender))
        {
            let text = msg!("seats.not_open", game = row.name, address = self.sender);
            self.fail(line, text);
            return Ok(());
        }
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        if tx
            .members(row.id)?
            .iter()
            .any(|m| m.player_id == player.id && m.role == "player")
        {
            self.fail(line, msg!("seats.already_playing", game = row.name));
            return Ok(());
        }
        tx.set_member(
            row.id,
            player.id,
            Some(&power.id),
            "player",
            &hash_password(password),
            self.now,
        )?;
        let mut phase = None;
        if let Some((variant, position)) = self.judge.game_position(&row) {
            phase = Some(super::phase::phase_message(variant, &position));
            let fresh = super::phase::next_deadline(&row, position.turn.kind, self.now);
            if row.deadline_at.is_none_or(|d| d < fresh) {
                row.deadline_at = Some(fresh);
                row.reminded = false;
                let mut moved = settings.clone();
                moved.deadline_moved();
                row.settings = moved.to_json();
            }
        }
        tx.save_game(&row)?;
        let text = msg!(
            "seats.taken_over",
            player = self.member_named(tx, &row, player.id)?,
            power = power.name,
            game = row.name,
            deadline = super::deadline_of(&row)
        );
        // The newcomer's answer says what the others are told: the phase and its deadline.
        self.say(match phase {
            Some(phase) => msg!(
                "seats.now_play",
                power = power.name,
                game = row.name,
                phase = phase,
                deadline = super::deadline_of(&row)
            ),
            None => msg!("seats.now_play_only", power = power.name, game = row.name),
        });
        self.announce(
            tx,
            &row,
            msg!(
                "seats.taken_over_subject",
                game = row.name,
                power = power.name
            ),
            text,
        )?;
        self.signed_on = Some((row, power.id.clone()));
        Ok(())
    }
}
