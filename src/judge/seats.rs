//! Taking and leaving seats: REGISTER, CREATE, SIGNON (joining and signing on), OBSERVE,
//! RESIGN.

use super::letter::Session;
use super::password::{hash_password, password_matches};
use super::settings::GameSettings;
use crate::letter::{Address, OutgoingLetter};
use crate::store::Tx;

impl Session<'_> {
    pub(super) fn register(
        &mut self,
        tx: &Tx,
        line: usize,
        name: Option<&str>,
        password: Option<&str>,
    ) -> rusqlite::Result<()> {
        let Some(password) = password else {
            self.error(format!(
                "line {line}: REGISTER needs a password, like: REGISTER secret Your Name"
            ));
            return Ok(());
        };
        let player =
            tx.register_player(&self.sender, name, Some(&hash_password(password)), self.now)?;
        let name = player.name.map(|n| format!(" as {n}")).unwrap_or_default();
        self.say(format!("Registered {}{name}.", player.email));
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
            self.error(format!(
                "line {line}: there is no variant '{variant_id}'; the variants are {}",
                known.join(", ")
            ));
            return Ok(());
        };
        if tx.game_by_name(game)?.is_some() {
            self.error(format!(
                "line {line}: there is already a game called '{game}'"
            ));
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
            self.say(format!(
                "Game '{}' ({}) is created, moderated, with you as its master. It starts when {needed} players \
                 have joined with: SIGNON ?{} <their password>. Sign on as master with SIGNON ?{} <your password>.",
                row.name, variant.name, row.name, row.name
            ));
            self.master_of = Some(row);
            return Ok(());
        }
        self.say(format!(
            "Game '{}' ({}) is created and you have joined it. It starts when {needed} players have joined; \
             others join with: SIGNON ?{} <their password>",
            row.name, variant.name, row.name
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
        let Some(mut row) = self.find_game(tx, line, game)? else {
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
                self.error(format!(
                    "line {line}: the password is wrong for game '{}'",
                    row.name
                ));
            } else if member.role == "master" {
                self.say(format!("Signed on as master of game '{}'.", row.name));
                self.master_of = Some(row);
            } else {
                self.say(format!("Signed on as an observer of game '{}'.", row.name));
                self.watching = Some(row);
            }
            return Ok(());
        }
        if row.state != "forming" {
            self.error(format!("line {line}: game '{}' has already started; sign on with your power's letter, like SIGNON F{} <password>", row.name, row.name));
            return Ok(());
        }
        let settings = GameSettings::from_json(&row.settings);
        if settings.deny.contains(&self.sender)
            || (!settings.allow.is_empty() && !settings.allow.contains(&self.sender))
        {
            self.error(format!(
                "line {line}: game '{}' is not open to {}",
                row.name, self.sender
            ));
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
            self.say(format!(
                "You are already in game '{}'; your password for it is changed.",
                row.name
            ));
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
        self.say(format!(
            "You have joined game '{}' ({joined} of {needed} players).",
            row.name
        ));
        if joined >= needed {
            self.say(format!(
                "Game '{}' is full and starts now; your power comes in a separate letter.",
                row.name
            ));
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
        let Some(row) = self.find_game(tx, line, game)? else {
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
            self.error(format!("line {line}: game '{}' has no power with the letter {letter}; its powers are {letters}", row.name));
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
            self.error(format!(
                "line {line}: the power or the password is wrong for game '{}'",
                row.name
            ));
            if let Some(owner) = members
                .iter()
                .find(|m| m.power.as_deref() == Some(power.id.as_str()) && m.email != self.sender)
            {
                self.caused.push(OutgoingLetter {
                    to: vec![Address::new(&owner.email)],
                    subject: format!("Game '{}': a failed sign-on as {}", row.name, power.name),
                    body: format!(
                        "Someone writing from {} tried to sign on as {} in game '{}' with a wrong password.\n\
                         Nothing was changed. If it was not you, you need do nothing.\n",
                        self.sender, power.name, row.name
                    ),
                    in_reply_to: None,
                    references: Vec::new(),
                });
            }
            return Ok(());
        };
        self.answer_to = member.email.clone();
        self.say(format!(
            "Signed on as {} in game '{}'.",
            power.name, row.name
        ));
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
            self.say(format!("You are already a member of game '{}'.", row.name));
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
        self.say(format!(
            "You now observe game '{}': you will receive its reports.",
            row.name
        ));
        Ok(())
    }

    pub(super) fn resign(&mut self, tx: &Tx, line: usize) -> rusqlite::Result<()> {
        let Some((row, power)) = self.signed_on.take() else {
            self.error(format!(
                "line {line}: RESIGN needs a SIGNON to a game first"
            ));
            return Ok(());
        };
        if let Some(member) = tx
            .members(row.id)?
            .into_iter()
            .find(|m| m.power.as_deref() == Some(power.as_str()))
        {
            tx.remove_member(row.id, member.player_id)?;
        }
        self.say(format!(
            "You have resigned from game '{}'; your power has no player now.",
            row.name
        ));
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
            self.error(format!(
                "line {line}: game '{}' is not open to {}",
                row.name, self.sender
            ));
            return Ok(());
        }
        let player = tx.register_player(&self.sender, None, None, self.now)?;
        if tx
            .members(row.id)?
            .iter()
            .any(|m| m.player_id == player.id && m.role == "player")
        {
            self.error(format!(
                "line {line}: you already play a power in game '{}'",
                row.name
            ));
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
        if let Some((_, position)) = self.judge.game_position(&row) {
            let fresh = super::phase::next_deadline(&row, position.turn.kind, self.now);
            if row.deadline_at.is_none_or(|d| d < fresh) {
                row.deadline_at = Some(fresh);
                row.reminded = false;
            }
        }
        tx.save_game(&row)?;
        let newcomer = if settings.hides_identities() {
            "A new player".to_string()
        } else {
            self.sender.clone()
        };
        let text = format!(
            "{} has taken over {} in game '{}'. The deadline is {}.\n",
            newcomer,
            power.name,
            row.name,
            super::deadline_text(&row)
        );
        self.say(format!(
            "You now play {} in game '{}'.",
            power.name, row.name
        ));
        self.announce(
            tx,
            &row,
            &format!("Game '{}': {} taken over", row.name, power.name),
            &text,
        )?;
        self.signed_on = Some((row, power.id.clone()));
        Ok(())
    }
}
