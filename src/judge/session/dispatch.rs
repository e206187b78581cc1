//! The one place a letter's command is mapped to what does it (`run_command`), and the
//! commands a master's BECOME does for a power.

use super::Session;
use crate::game::{GameKind, GameState};
use crate::judge::access::secrecy;
use crate::judge::commands::{
    addresses, confirm, diary, forming, future, help, his, info, master, master_settings, play,
    press, roster, seats, unsupported, wishes,
};
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
            return his::his_lines(self, tx, row, power, "withdraw", line);
        }
        match &command.kind {
            CommandKind::Orders { text } => return play::orders(self, tx, text, line),
            CommandKind::Press {
                kind,
                options,
                text,
            } => return press::press(self, tx, line, *kind, options, text),
            _ => {}
        }
        self.say_text(format!("> {}", render(command)));
        match &command.kind {
            CommandKind::Help { topic } => help::help(self, tx, line, topic.as_deref())?,
            CommandKind::GetMap { game } => info::get_map(self, tx, line, game.as_deref())?,
            CommandKind::Register { name, password, .. } => {
                seats::register(self, tx, line, name.as_deref(), password.as_deref())?
            }
            CommandKind::SetPassword { password } => seats::set_password(self, tx, line, password)?,
            CommandKind::Confirm { token } => confirm::confirm(self, tx, line, token)?,
            CommandKind::Create {
                game,
                password,
                variant,
                moderated,
                private,
                anonymous,
            } => secrecy::creating(self, tx, game, *private, *anonymous, |cx| {
                seats::create(cx, tx, line, game, password, variant.as_deref(), *moderated)
            })?,
            CommandKind::Signon {
                power: None,
                game,
                password,
            } => seats::join(self, tx, line, game, password)?,
            CommandKind::Signon {
                power: Some(letter),
                game,
                password,
            } => match his::his_game(self, tx, game, Some((*letter, password)))? {
                Some(row) => his::his_signon(self, tx, line, *letter, row, password)?,
                None => seats::signon(self, tx, line, *letter, game, password)?,
            },
            CommandKind::Observe { game, password } => {
                seats::observe(self, tx, line, game, password)?
            }
            CommandKind::List {
                game: Some(name), ..
            } if his::his_game(self, tx, name, None)?.is_some() => {
                let row = his::his_game(self, tx, name, None)?.expect("checked");
                his::his_list(self, &row);
            }
            CommandKind::List {
                game: None,
                full: true,
            } => roster::list_full(self, tx)?,
            CommandKind::List { game, .. } => info::list(self, tx, line, game.as_deref())?,
            CommandKind::History {
                game,
                from,
                to,
                lines,
                exclude,
            } => info::history(
                self,
                tx,
                line,
                game.as_deref(),
                info::Span {
                    from: from.as_ref(),
                    to: to.as_ref(),
                    lines: *lines,
                    exclude: exclude.as_ref(),
                },
            )?,
            CommandKind::Summary { game } => info::summary(self, tx, line, game.as_deref())?,
            CommandKind::Whois { who } => info::whois(self, tx, who)?,
            CommandKind::WhoGame { game, full } => {
                roster::who_game(self, tx, line, game.as_deref(), *full)?
            }
            CommandKind::Version => roster::version(self),
            CommandKind::IAmAlso { address, password } => {
                addresses::i_am_also(self, tx, line, address, password.as_deref())?;
            }
            CommandKind::IAmNot { address, password } => {
                addresses::i_am_not(self, tx, line, address, password.as_deref())?;
            }
            CommandKind::Unsupported { phrase, what } => {
                unsupported::unsupported(self, line, phrase, *what, false)
            }
            CommandKind::Set(crate::text::command::Setting::Unsupported {
                phrase,
                what,
                already,
            }) => unsupported::unsupported(self, line, phrase, *what, *already),
            CommandKind::Phase(phase) => future::phase(self, tx, line, phase)?,
            CommandKind::Clear => future::clear(self, tx, line)?,
            CommandKind::Diary(action) => diary::diary(self, tx, line, action)?,
            CommandKind::Unstart => forming::unstart(self, tx, line)?,
            CommandKind::BecomeMaster => forming::become_master(self, tx, line)?,
            CommandKind::SignonAny { password } => forming::join_any(self, tx, line, password)?,
            CommandKind::Set(setting) if setting.is_for_players() => {
                wishes::player_setting(self, tx, line, setting)?
            }
            CommandKind::Set(setting) => master_settings::master_setting(self, tx, line, setting)?,
            CommandKind::Process { phase } => {
                master::process_now(self, tx, line, phase.as_deref())?
            }
            CommandKind::Predict => master::predict(self, tx, line)?,
            CommandKind::Pause => master::pause(self, tx, line, true)?,
            CommandKind::Resume => master::pause(self, tx, line, false)?,
            CommandKind::Terminate => {
                master::terminate(self, tx, line)?;
                if let Some(row) = self.master_of.clone()
                    && row.kind() == GameKind::HereIStand
                    && tx.game(row.id)?.state == GameState::Finished
                {
                    let row = tx.game(row.id)?;
                    his::his_reveal(self, tx, &row)?;
                }
            }
            CommandKind::Extend { hours } => master::extend(self, tx, line, *hours)?,
            CommandKind::Become { power } => master::become_power(self, tx, line, power)?,
            CommandKind::Eject { who } => master::eject(self, tx, line, who)?,
            CommandKind::Promote { who } => master::promote(self, tx, line, who)?,
            CommandKind::ForceBegin => master::force_begin(self, tx, line)?,
            CommandKind::Rollback { phase } => master::rollback(self, tx, line, *phase)?,
            CommandKind::Credit {
                action,
                amount,
                power,
            } => play::credit(self, tx, line, *action, *amount, power)?,
            CommandKind::Resign => seats::resign(self, tx, line)?,
            CommandKind::Signoff | CommandKind::Orders { .. } | CommandKind::Press { .. } => {}
        }
        Ok(())
    }
}
