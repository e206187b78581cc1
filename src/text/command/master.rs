//! The words after the master's commands (judge-conventions.md §1.4: PROCESS, PREDICT, PAUSE,
//! RESUME, TERMINATE, EXTEND, BECOME, EJECT, PROMOTE, FORCE BEGIN, ROLLBACK) and the
//! information commands SUMMARY, WHOIS and HISTORY (§1.2). Who may use them is the judge's
//! business, not the reader's.

use super::super::Severity;
use super::CommandKind;
use super::args::Args;
use super::line::Word;

/// A command of this module, as its keyword names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Master {
    Process,
    Predict,
    Pause,
    Resume,
    Terminate,
    Extend,
    Become,
    Eject,
    Promote,
    ForceBegin,
    Rollback,
    Summary,
    Whois,
    History,
}

impl Args<'_> {
    /// The command `which`, from the words after its keyword.
    pub(super) fn master(&mut self, which: Master, args: &[Word]) -> Option<CommandKind> {
        match which {
            Master::Process => self.process(args),
            Master::Predict => self.bare(args, "PREDICT", CommandKind::Predict),
            Master::Pause => self.bare(args, "PAUSE", CommandKind::Pause),
            Master::Resume => self.bare(args, "RESUME", CommandKind::Resume),
            Master::Terminate => self.bare(args, "TERMINATE", CommandKind::Terminate),
            Master::ForceBegin => self.bare(args, "FORCE BEGIN", CommandKind::ForceBegin),
            Master::Extend => self.extend(args),
            Master::Become => match args {
                [power] => Some(CommandKind::Become {
                    power: self.power(power)?,
                }),
                _ => self.usage("BECOME takes one power, like: BECOME france"),
            },
            Master::Eject => match args {
                [who] if who.text.contains('@') => Some(CommandKind::Eject {
                    who: self.address(who)?,
                }),
                [who] => Some(CommandKind::Eject {
                    who: self.power(who)?,
                }),
                _ => self.usage("EJECT takes a power or an address, like: EJECT france"),
            },
            Master::Promote => match args {
                [who] => Some(CommandKind::Promote {
                    who: self.address(who)?,
                }),
                _ => {
                    self.usage("PROMOTE takes an observer's address, like: PROMOTE ann@example.org")
                }
            },
            Master::Rollback => match args {
                [] => Some(CommandKind::Rollback { phase: None }),
                [number] => {
                    let message = "ROLLBACK takes the number of a phase, 0 for the first";
                    let phase = self.number(number, 0..=9999, message)?;
                    Some(CommandKind::Rollback { phase: Some(phase) })
                }
                _ => self.usage("ROLLBACK takes at most the number of a phase, like: ROLLBACK 3"),
            },
            Master::Summary => match args {
                [] => Some(CommandKind::Summary { game: None }),
                [game] => Some(CommandKind::Summary {
                    game: Some(self.game(game, game.text)?),
                }),
                _ => self.usage("SUMMARY takes at most a game name, like: SUMMARY mygame"),
            },
            Master::Whois => match self.name(args)? {
                Some(who) => Some(CommandKind::Whois { who }),
                None => self.usage("WHOIS takes an address or a name, like: WHOIS ann@example.org"),
            },
            Master::History => self.history(args),
        }
    }

    /// A command that takes nothing after it: with words after it, it is not done, as the
    /// writer may have meant something else.
    fn bare(&mut self, args: &[Word], name: &str, kind: CommandKind) -> Option<CommandKind> {
        if let Some(word) = args.first() {
            let message = format!("{name} takes nothing after it, so it was not done");
            self.report(Severity::Error, word.column, message);
            return None;
        }
        Some(kind)
    }

    /// `PROCESS [phase]`: the phase as written, its words joined by single spaces.
    fn process(&mut self, args: &[Word]) -> Option<CommandKind> {
        let Some(first) = args.first() else {
            return Some(CommandKind::Process { phase: None });
        };
        let phase = args.iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
        if phase.chars().count() > 60 || phase.chars().any(char::is_control) {
            let message = "that is not a phase: write it like PROCESS Spring 1901 movement";
            self.report(Severity::Error, first.column, message);
            return None;
        }
        Some(CommandKind::Process { phase: Some(phase) })
    }

    /// `EXTEND [hours]`: 24 hours by default; `48`, `48 hours`, `48h`.
    fn extend(&mut self, args: &[Word]) -> Option<CommandKind> {
        const RANGE: &str = "EXTEND takes a number of hours from 1 to 720, like: EXTEND 24";
        let hours_word = |w: &Word| {
            ["h", "hour", "hours"]
                .iter()
                .any(|unit| w.text.eq_ignore_ascii_case(unit))
        };
        let number = match args {
            [] => return Some(CommandKind::Extend { hours: 24 }),
            [number] => *number,
            [number, unit] if hours_word(unit) => *number,
            [_, second, ..] => {
                self.report(Severity::Error, second.column, RANGE);
                return None;
            }
        };
        let digits = number.text.strip_suffix(['h', 'H']).unwrap_or(number.text);
        let word = Word {
            text: digits,
            column: number.column,
        };
        let hours = self.number(&word, 1..=720, RANGE)?;
        Some(CommandKind::Extend { hours })
    }

    /// `HISTORY game [FROM yyyy-mm-dd] [TO yyyy-mm-dd]`, FROM and TO in either order.
    pub(super) fn history(&mut self, args: &[Word]) -> Option<CommandKind> {
        const USAGE: &str = "HISTORY takes a game name and maybe dates, like: HISTORY mygame FROM 2027-01-01 TO \
             2027-02-01";
        let Some((game_word, mut rest)) = args.split_first() else {
            return self.usage(USAGE);
        };
        let game = self.game(game_word, game_word.text);
        let mut from: Option<(String, &Word)> = None;
        let mut to: Option<(String, &Word)> = None;
        let mut valid = true;
        while let [bound, after @ ..] = rest {
            let slot = if bound.text.eq_ignore_ascii_case("from") {
                &mut from
            } else if bound.text.eq_ignore_ascii_case("to") {
                &mut to
            } else {
                self.report(Severity::Error, bound.column, USAGE);
                return None;
            };
            let Some((date_word, after)) = after.split_first() else {
                let message = "FROM and TO need a date after them, like: FROM 2027-01-01";
                self.report(Severity::Error, bound.column, message);
                return None;
            };
            if slot.is_some() {
                let message = "FROM and TO are each given at most once";
                self.report(Severity::Error, bound.column, message);
                return None;
            }
            match self.date(date_word) {
                Some(date) => *slot = Some((date, date_word)),
                None => valid = false,
            }
            rest = after;
        }
        if let (Some((from, _)), Some((to, word))) = (&from, &to)
            && to < from
        {
            let message = "the dates are the wrong way round: TO is before FROM";
            self.report(Severity::Error, word.column, message);
            return None;
        }
        if !valid {
            return None;
        }
        Some(CommandKind::History {
            game: game?,
            from: from.map(|(date, _)| date),
            to: to.map(|(date, _)| date),
        })
    }
}
