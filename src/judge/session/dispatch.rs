//! The one place a letter's command is mapped to what does it (`run_command`), and the
//! commands a master's BECOME does for a power.

use super::Session;
use crate::game::{GameKind, GameState};

use crate::store::Tx;
use crate::text::command::{Command, CommandKind, render};

/// Whether a command is a power's own (orders, press, its SETs, its password, credit,
/// resigning): after BECOME it is done for that power, and shown in the power's copy.
pub(crate) fn acts_for_power(kind: &CommandKind) -> bool {
    match kind {
        CommandKind::Orders { .. }
        | CommandKind::Press { .. }
        | CommandKind::SetPassword { .. }
        | CommandKind::Credit { .. }
        | CommandKind::Phase(_)
        | CommandKind::Clear
        | CommandKind::Diary(_)
        | CommandKind::Resign => true,
        CommandKind::Set(setting) => setting.is_for_players(),
        _ => false,
    }
}

impl Session<'_> {
    /// Runs one command; what it writes while a master acts for a power, if the command is the
    /// power's own, is kept for that power's copy.
    pub(crate) fn run(&mut self, tx: &Tx, command: &Command) -> rusqlite::Result<()> {
        let start = self.sections.len();
        let for_power = self.became.filter(|_| acts_for_power(&command.kind));
        self.run_command(tx, command)?;
        if let Some(i) = for_power {
            self.acted_for[i].sections.push(start..self.sections.len());
        }
        Ok(())
    }

    pub(crate) fn run_command(&mut self, tx: &Tx, command: &Command) -> rusqlite::Result<()> {
        let line = command.line;
        // In a Here I Stand game WITHDRAW (read as RESIGN) answers the withdrawal window.
        if let (CommandKind::Resign, Some((row, power))) = (&command.kind, &self.signed_on)
            && row.kind() == GameKind::HereIStand
        {
            let (row, power) = (row.clone(), crate::his::Power::from_word(power));
            return self.his_lines(tx, row, power, "withdraw", line);
        }
        match &command.kind {
            CommandKind::Orders { text } => return self.orders(tx, text, line),
            CommandKind::Press {
                kind,
                options,
                text,
            } => return self.press(tx, line, *kind, options, text),
            _ => {}
        }
        self.say_text(format!("> {}", render(command)));
        match &command.kind {
            CommandKind::Help { topic } => self.help(tx, line, topic.as_deref())?,
            CommandKind::GetMap { game } => self.get_map(tx, line, game.as_deref())?,
            CommandKind::Register { name, password, .. } => {
                self.register(tx, line, name.as_deref(), password.as_deref())?
            }
            CommandKind::SetPassword { password } => self.set_password(tx, line, password)?,
            CommandKind::Confirm { token } => self.confirm(tx, line, token)?,
            CommandKind::Create {
                game,
                password,
                variant,
                moderated,
                private,
                anonymous,
            } => self.creating(tx, game, *private, *anonymous, |s| {
                s.create(tx, line, game, password, variant.as_deref(), *moderated)
            })?,
            CommandKind::Signon {
                power: None,
                game,
                password,
            } => self.join(tx, line, game, password)?,
            CommandKind::Signon {
                power: Some(letter),
                game,
                password,
            } => match self.his_game(tx, game, Some((*letter, password)))? {
                Some(row) => self.his_signon(tx, line, *letter, row, password)?,
                None => self.signon(tx, line, *letter, game, password)?,
            },
            CommandKind::Observe { game, password } => self.observe(tx, line, game, password)?,
            CommandKind::List {
                game: Some(name), ..
            } if self.his_game(tx, name, None)?.is_some() => {
                let row = self.his_game(tx, name, None)?.expect("checked");
                self.his_list(&row);
            }
            CommandKind::List {
                game: None,
                full: true,
            } => self.list_full(tx)?,
            CommandKind::List { game, .. } => self.list(tx, line, game.as_deref())?,
            CommandKind::History {
                game,
                from,
                to,
                lines,
                exclude,
            } => self.history(
                tx,
                line,
                game.as_deref(),
                crate::judge::commands::info::Span {
                    from: from.as_ref(),
                    to: to.as_ref(),
                    lines: *lines,
                    exclude: exclude.as_ref(),
                },
            )?,
            CommandKind::Summary { game } => self.summary(tx, line, game.as_deref())?,
            CommandKind::Whois { who } => self.whois(tx, who)?,
            CommandKind::WhoGame { game, full } => {
                self.who_game(tx, line, game.as_deref(), *full)?
            }
            CommandKind::Version => self.version(),
            CommandKind::IAmAlso { address } => self.i_am_also(line, address),
            CommandKind::Unsupported { phrase, what } => {
                self.unsupported(line, phrase, *what, false)
            }
            CommandKind::Set(crate::text::command::Setting::Unsupported {
                phrase,
                what,
                already,
            }) => self.unsupported(line, phrase, *what, *already),
            CommandKind::Phase(phase) => self.phase(tx, line, phase)?,
            CommandKind::Clear => self.clear(tx, line)?,
            CommandKind::Diary(action) => self.diary(tx, line, action)?,
            CommandKind::Unstart => self.unstart(tx, line)?,
            CommandKind::BecomeMaster => self.become_master(tx, line)?,
            CommandKind::SignonAny { password } => self.join_any(tx, line, password)?,
            CommandKind::Set(setting) if setting.is_for_players() => {
                self.player_setting(tx, line, setting)?
            }
            CommandKind::Set(setting) => self.master_setting(tx, line, setting)?,
            CommandKind::Process { phase } => self.process_now(tx, line, phase.as_deref())?,
            CommandKind::Predict => self.predict(tx, line)?,
            CommandKind::Pause => self.pause(tx, line, true)?,
            CommandKind::Resume => self.pause(tx, line, false)?,
            CommandKind::Terminate => {
                self.terminate(tx, line)?;
                if let Some(row) = self.master_of.clone()
                    && row.kind() == GameKind::HereIStand
                    && tx.game(row.id)?.state == GameState::Finished
                {
                    let row = tx.game(row.id)?;
                    self.his_reveal(tx, &row)?;
                }
            }
            CommandKind::Extend { hours } => self.extend(tx, line, *hours)?,
            CommandKind::Become { power } => self.become_power(tx, line, power)?,
            CommandKind::Eject { who } => self.eject(tx, line, who)?,
            CommandKind::Promote { who } => self.promote(tx, line, who)?,
            CommandKind::ForceBegin => self.force_begin(tx, line)?,
            CommandKind::Rollback { phase } => self.rollback(tx, line, *phase)?,
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
}
