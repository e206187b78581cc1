//! One incoming letter, command by command, and the answer it gets: what was understood,
//! each error with its line, the power's orders in force, the deadline and who still owes.

use chrono::{DateTime, Utc};

use super::credit::{CreditOrder, change_credit};
use super::orders::{is_complete, order_lines, powers_owing, stored_orders, submit};
use super::password::{hash_password, password_matches};
use super::phase::phase_name;
use super::{Judge, deadline_text};
use crate::letter::{Address, IncomingLetter, OutgoingLetter};
use crate::mail::compose::reply_subject;
use crate::report::describe::{describe_order, unit_name};
use crate::store::{GameRow, Tx};
use crate::text::Severity;
use crate::text::command::{Command, CommandKind, CreditAction, parse_commands, render};

/// What reading one letter is building up.
struct Session<'j> {
    judge: &'j Judge,
    now: DateTime<Utc>,
    /// The address the letter came from.
    sender: String,
    /// Where the answer goes: the registered address of the power signed on to, else the sender.
    answer_to: String,
    /// The game and power signed on to.
    signed_on: Option<(GameRow, String)>,
    sections: Vec<String>,
    errors: usize,
    /// Other letters caused: start notices, reports, warnings to owners.
    caused: Vec<OutgoingLetter>,
}

/// Handles `letter`; returns the letters to send.
pub(super) fn handle(
    judge: &Judge,
    tx: &Tx,
    letter: &IncomingLetter,
    now: DateTime<Utc>,
) -> rusqlite::Result<Vec<OutgoingLetter>> {
    let Some(from) = &letter.from else {
        return Ok(Vec::new());
    };
    if letter.automatic.is_some() {
        return Ok(Vec::new());
    }
    let sender = from.email.to_lowercase();
    let mut session = Session {
        judge,
        now,
        answer_to: sender.clone(),
        sender,
        signed_on: None,
        sections: Vec::new(),
        errors: 0,
        caused: Vec::new(),
    };
    for warning in &letter.warnings {
        session.sections.push(format!("Note: {warning}."));
    }
    let (commands, diagnostics) = parse_commands(&letter.body);
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        session.error(format!("line {}: {}", d.line, d.message));
    }
    if commands.is_empty() && diagnostics.is_empty() {
        session
            .sections
            .push("Your letter held no commands. Send HELP for the list of commands.".into());
    }
    for command in &commands {
        session.run(tx, command)?;
    }
    let mut subject = reply_subject(&letter.subject);
    if session.errors > 0 {
        subject.push_str(" [Error Flag]");
        session.sections.push(format!(
            "{} error{} found. Orders with errors were not accepted; send them again before the deadline.",
            session.errors,
            if session.errors == 1 { " was" } else { "s were" }
        ));
    }
    let body = judge.templates.render(
        "reply.txt",
        serde_json::json!({
            "sections": session.sections, "judge_name": judge.config.judge.name, "judge_address": judge.config.judge.address,
        }),
            );
    let mut references = letter.references.clone();
    references.push(letter.message_id.clone());
    let mut letters = vec![OutgoingLetter {
        to: vec![Address::new(&session.answer_to)],
        subject,
        body,
        in_reply_to: Some(letter.message_id.clone()),
        references,
    }];
    letters.append(&mut session.caused);
    Ok(letters)
}

impl Session<'_> {
    fn error(&mut self, message: String) {
        self.errors += 1;
        self.sections.push(format!("Error: {message}"));
    }

    fn say(&mut self, message: String) {
        self.sections.push(message);
    }

    fn run(&mut self, tx: &Tx, command: &Command) -> rusqlite::Result<()> {
        let line = command.line;
        match &command.kind {
            CommandKind::Orders { text } => return self.orders(tx, text, line),
            CommandKind::Press { .. } => {
                self.error(format!(
                    "line {line}: press is not offered on this judge yet; the message was not sent"
                ));
                return Ok(());
            }
            _ => {}
        }
        self.say(format!("> {}", render(command)));
        match &command.kind {
            CommandKind::Help { topic } => self.help(topic.as_deref()),
            CommandKind::Register { name, password } => {
                self.register(tx, line, name.as_deref(), password.as_deref())?
            }
            CommandKind::SetPassword { password } => {
                tx.register_player(&self.sender, None, Some(&hash_password(password)), self.now)?;
                self.say("Your password is changed.".into());
            }
            CommandKind::Create {
                game,
                password,
                variant,
            } => self.create(tx, line, game, password, variant.as_deref())?,
            CommandKind::Signon {
                power: None,
                game,
                password,
            } => self.join(tx, line, game, password)?,
            CommandKind::Signon {
                power: Some(letter),
                game,
                password,
            } => self.signon(tx, line, *letter, game, password)?,
            CommandKind::Observe { game, password } => self.observe(tx, line, game, password)?,
            CommandKind::List { game } => self.list(tx, line, game.as_deref())?,
            CommandKind::History { game } => self.history(tx, line, game)?,
            CommandKind::Credit {
                action,
                amount,
                power,
            } => self.credit(tx, line, *action, *amount, power)?,
            CommandKind::Resign => self.resign(tx, line)?,
            CommandKind::Signoff | CommandKind::Orders { .. } | CommandKind::Press { .. } => {}
        }
        Ok(())
    }

    /// The game named `name`, or an error for the player when there is none.
    fn find_game(&mut self, tx: &Tx, line: usize, name: &str) -> rusqlite::Result<Option<GameRow>> {
        let found = tx.game_by_name(name)?;
        if found.is_none() {
            self.error(format!(
                "line {line}: there is no game called '{name}'; send LIST for the games"
            ));
        }
        Ok(found)
    }

    fn help(&mut self, topic: Option<&str>) {
        let info = topic.and_then(|t| self.judge.variant(t.trim_start_matches("info-")));
        if let Some(variant) = info {
            let file = format!("info-{}.txt", variant.id);
            let text = if self.judge.templates.has(&file) {
                self.judge.templates.render(&file, serde_json::json!({}))
            } else {
                format!(
                    "{}: {} powers, {} supply centres; {} to win.\n{}\n",
                    variant.name,
                    variant.map.powers.len(),
                    variant
                        .map
                        .provinces
                        .iter()
                        .filter(|p| p.centre.is_some())
                        .count(),
                    variant.victory_centres,
                    variant.description
                )
            };
            self.say(text.trim_end().to_string());
            return;
        }
        if let Some(topic) = topic.filter(|t| !t.eq_ignore_ascii_case("help")) {
            self.say(format!(
                "There is no help file '{topic}'; here is the general help."
            ));
        }
        let variants: Vec<&str> = self.judge.variants.iter().map(|v| v.id.as_str()).collect();
        self.say(
            self.judge
                .templates
                .render("help.txt", serde_json::json!({ "variants": variants }))
                .trim_end()
                .to_string(),
        );
    }

    fn register(
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

    fn create(
        &mut self,
        tx: &Tx,
        line: usize,
        game: &str,
        password: &str,
        variant: Option<&str>,
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
        let row = tx.create_game(
            game,
            &variant.id,
            player.id,
            &self.judge.config.judge.time_zone,
            hours,
            self.now,
        )?;
        tx.set_member(
            row.id,
            player.id,
            None,
            "player",
            &hash_password(password),
            self.now,
        )?;
        let needed = variant.map.powers.len();
        self.say(format!(
            "Game '{}' ({}) is created and you have joined it. It starts when {needed} players have joined; \
             others join with: SIGNON ?{} <their password>",
            row.name, variant.name, row.name
        ));
        if needed == 1 {
            let mut row = row;
            self.caused
                .extend(self.judge.start_game(tx, &mut row, self.now)?);
        }
        Ok(())
    }

    fn join(&mut self, tx: &Tx, line: usize, game: &str, password: &str) -> rusqlite::Result<()> {
        let Some(mut row) = self.find_game(tx, line, game)? else {
            return Ok(());
        };
        if row.state != "forming" {
            self.error(format!("line {line}: game '{}' has already started; sign on with your power's letter, like SIGNON F{} <password>", row.name, row.name));
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

    fn signon(
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

    fn observe(
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

    fn list(&mut self, tx: &Tx, line: usize, game: Option<&str>) -> rusqlite::Result<()> {
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
    fn game_summary(&self, tx: &Tx, row: &GameRow) -> rusqlite::Result<String> {
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
    fn owing_names(&self, tx: &Tx, row: &GameRow) -> rusqlite::Result<Vec<String>> {
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
    fn history(&mut self, tx: &Tx, line: usize, game: &str) -> rusqlite::Result<()> {
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

    /// CREDIT: grant, pass on, end or ask for supply credit (Diadochi V rule 8).
    fn credit(
        &mut self,
        tx: &Tx,
        line: usize,
        action: CreditAction,
        amount: u32,
        other: &str,
    ) -> rusqlite::Result<()> {
        let Some((row, power_id)) = self.signed_on.clone() else {
            self.error(format!(
                "line {line}: CREDIT needs a SIGNON to a game first"
            ));
            return Ok(());
        };
        let mut row = tx.game(row.id)?;
        let Some((variant, position)) = self
            .judge
            .game_position(&row)
            .filter(|_| row.state == "active")
        else {
            self.error(format!("line {line}: game '{}' is not running", row.name));
            return Ok(());
        };
        let map = &variant.map;
        let power = map
            .power_by_id(&power_id)
            .expect("members hold the variant's powers");
        match change_credit(
            tx,
            variant,
            &mut row,
            position,
            power,
            CreditOrder {
                action,
                amount,
                other,
            },
        )? {
            Err(why) => self.error(format!("line {line}: {why}")),
            Ok(change) => {
                self.say(change.said);
                if let Some((to, subject, body)) = change.notice {
                    for m in tx
                        .members(row.id)?
                        .iter()
                        .filter(|m| m.power.as_deref() == Some(map.power(to).id.as_str()))
                    {
                        self.caused.push(OutgoingLetter {
                            to: vec![Address::new(&m.email)],
                            subject: subject.clone(),
                            body: body.clone(),
                            in_reply_to: None,
                            references: Vec::new(),
                        });
                    }
                }
            }
        }
        self.signed_on = Some((row, power_id));
        Ok(())
    }

    fn resign(&mut self, tx: &Tx, line: usize) -> rusqlite::Result<()> {
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

    fn orders(&mut self, tx: &Tx, text: &str, line: usize) -> rusqlite::Result<()> {
        let Some((row, power_id)) = self.signed_on.clone() else {
            self.error(format!(
                "line {line}: '{}' is not a command, and orders need a SIGNON first, like: SIGNON F<game> <password>",
                text.lines().next().unwrap_or("").trim()
            ));
            return Ok(());
        };
        let Some((variant, position)) = self.judge.game_position(&row) else {
            self.error(format!(
                "line {line}: game '{}' is not running, so it takes no orders",
                row.name
            ));
            return Ok(());
        };
        if row.state != "active" {
            self.error(format!(
                "line {line}: game '{}' is not running, so it takes no orders",
                row.name
            ));
            return Ok(());
        }
        let map = &variant.map;
        let power = map
            .power_by_id(&power_id)
            .expect("members hold the variant's powers");
        let in_force = tx
            .orders(row.id, row.phase_serial, &power_id)?
            .map(|(lines, _)| stored_orders(map, position.turn.kind, &lines))
            .unwrap_or_default();
        let submission = submit(map, &variant.rules, &position, power, in_force, text, line);
        let has_errors = !submission.errors.is_empty();
        for e in submission.errors {
            self.error(e);
        }
        tx.set_orders(
            row.id,
            row.phase_serial,
            &power_id,
            &order_lines(map, &submission.orders),
            has_errors,
            self.now,
        )?;
        let mut lines = vec![format!(
            "Orders of {} in game '{}' for {}:",
            map.power(power).name,
            row.name,
            phase_name(variant, &position)
        )];
        if submission.orders.is_empty() {
            lines.push("  none".into());
        }
        for order in &submission.orders {
            lines.push(format!(
                "  {}",
                describe_order(map, &position, power, order)
            ));
        }
        if !is_complete(map, &position, power, &submission.orders) {
            lines.push("These orders are not complete yet.".into());
        }
        lines.push(format!("Deadline: {}.", deadline_text(&row)));
        let owing = self.owing_names(tx, &row)?;
        if owing.is_empty() {
            lines.push("Every power's orders are in: the phase is processed now.".into());
        } else {
            lines.push(format!("Orders still due from: {}.", owing.join(", ")));
        }
        self.say(lines.join("\n"));
        if owing.is_empty() {
            let mut row = tx.game(row.id)?;
            self.caused
                .extend(self.judge.process_phase(tx, &mut row, self.now)?);
            self.signed_on = Some((row, power_id));
        }
        Ok(())
    }
}
