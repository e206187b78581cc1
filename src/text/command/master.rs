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
    WhoGame,
    Mastery,
    Unstart,
    Version,
    IAmAlso,
    IAmNot,
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
            Master::WhoGame => {
                let full = args.last().is_some_and(|w| w.text.eq_ignore_ascii_case("full"));
                let named = &args[..args.len() - usize::from(full)];
                match named {
                    [] => Some(CommandKind::WhoGame { game: None, full }),
                    [game] => Some(CommandKind::WhoGame {
                        game: Some(self.game(game, game.text)?),
                        full,
                    }),
                    _ => self.usage("WHO GAME takes at most a game name and FULL, like: WHO GAME mygame FULL"),
                }
            }
            Master::Mastery => self.bare(args, "BECOME MASTER", CommandKind::BecomeMaster),
            Master::Unstart => self.bare(args, "UNSTART", CommandKind::Unstart),
            // njudge's VERSION takes a level it never used.
            Master::Version => Some(CommandKind::Version),
            Master::IAmAlso => match self.address_and_password(args) {
                Some(Some((address, password))) => {
                    Some(CommandKind::IAmAlso { address, password })
                }
                Some(None) => None,
                None => self.usage(
                    "I AM ALSO takes an address and, unless you signed on, your account's password, like: I AM ALSO ann@home.example.org secret",
                ),
            },
            Master::IAmNot => match self.address_and_password(args) {
                Some(Some((address, password))) => Some(CommandKind::IAmNot { address, password }),
                Some(None) => None,
                None => self.usage(
                    "I AM NOT takes one of your account's addresses and, unless you signed on, its password, like: I AM NOT ann@home.example.org secret",
                ),
            },
        }
    }

    /// `address [password]`: none when the words are not that shape, `Some(None)` when a
    /// word of it is wrong (and said).
    #[allow(clippy::type_complexity)]
    fn address_and_password(&mut self, args: &[Word]) -> Option<Option<(String, Option<String>)>> {
        match args {
            [address] => Some(self.address(address).map(|a| (a, None))),
            [address, password] => Some(
                self.address(address)
                    .and_then(|a| Some((a, Some(self.password(password)?)))),
            ),
            _ => None,
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
            let message =
                "that is not a phase: write it like PROCESS Spring 1901, or PROCESS S1901M";
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

    /// `HISTORY [game] [FROM date] [TO date] [LINES n]`, the parts in any order, each date
    /// in njudge's forms (`Jan 1, 2003`, `2027-01-05 12:00`); or `HISTORY [game] EXCLSTART
    /// phase [EXCLEND phase] [BROAD]`.
    pub(super) fn history(&mut self, args: &[Word]) -> Option<CommandKind> {
        const USAGE: &str = "HISTORY takes a game name and maybe FROM date, TO date, LINES n or \
             EXCLSTART phase, like: HISTORY mygame FROM Jan 1 2027 TO 1 Feb 2027";
        const KEYS: [&str; 6] = ["from", "to", "lines", "exclstart", "exclend", "broad"];
        let is_key = |w: &Word| KEYS.iter().any(|k| w.text.eq_ignore_ascii_case(k));
        let (game, mut rest) = match args.split_first() {
            Some((first, rest)) if !is_key(first) => (Some(self.game(first, first.text)), rest),
            _ => (None, args),
        };
        let mut from: Option<super::WrittenDate> = None;
        let mut to: Option<super::WrittenDate> = None;
        let mut lines = None;
        let mut start: Option<String> = None;
        let mut end: Option<String> = None;
        let mut seen: Vec<String> = Vec::new();
        let mut valid = true;
        while let [key, after @ ..] = rest {
            if !is_key(key) {
                self.report(Severity::Error, key.column, USAGE);
                return None;
            }
            let name = key.text.to_ascii_lowercase();
            if seen.contains(&name) {
                let message = "FROM, TO, LINES, EXCLSTART and EXCLEND are each given at most once";
                self.report(Severity::Error, key.column, message);
                return None;
            }
            seen.push(name.clone());
            let value_len = after.iter().position(is_key).unwrap_or(after.len());
            let (value, after) = after.split_at(value_len);
            rest = after;
            if name == "broad" {
                // Notices are always in our history: BROAD asks for nothing more.
                continue;
            }
            if value.is_empty() {
                let message = format!("{} needs a value after it", name.to_uppercase());
                self.report(Severity::Error, key.column, message);
                return None;
            }
            match name.as_str() {
                "from" | "to" => {
                    let texts: Vec<&str> = value.iter().map(|w| w.text).collect();
                    match super::super::date::read_date(&texts) {
                        Ok(date) if name == "from" => from = Some(date),
                        Ok(date) => to = Some(date),
                        Err(why) => {
                            self.report(Severity::Error, value[0].column, why.to_string());
                            valid = false;
                        }
                    }
                }
                "lines" => match value {
                    [n] => {
                        let message = "LINES is a number of lines from 1 to 100000";
                        lines = self.number(n, 1..=100_000, message);
                        valid &= lines.is_some();
                    }
                    _ => {
                        self.report(Severity::Error, value[1].column, USAGE);
                        return None;
                    }
                },
                _ => match value {
                    [phase] if phase_token(phase.text) => {
                        let token = phase.text.to_ascii_uppercase();
                        if name == "exclstart" {
                            start = Some(token);
                        } else {
                            end = Some(token);
                        }
                    }
                    _ => {
                        let message =
                            "a phase is written as njudge names it, like S1903M or F1905B";
                        self.report(Severity::Error, value[0].column, message);
                        return None;
                    }
                },
            }
        }
        if end.is_some() && start.is_none() {
            return self.usage("EXCLEND needs EXCLSTART before it, like: HISTORY mygame EXCLSTART S1901M EXCLEND F1905B");
        }
        let game = match game {
            Some(read) => Some(read?),
            None => None,
        };
        if !valid {
            return None;
        }
        Some(CommandKind::History {
            game,
            from,
            to,
            lines,
            exclude: start.map(|s| (s, end)),
        })
    }
}

/// A phase as njudge writes it in HISTORY: season letter, year digits, kind letter (`S1903M`).
fn phase_token(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 3
        && matches!(bytes[0].to_ascii_uppercase(), b'S' | b'U' | b'F' | b'W')
        && matches!(
            bytes[bytes.len() - 1].to_ascii_uppercase(),
            b'M' | b'R' | b'B' | b'A'
        )
        && bytes[1..bytes.len() - 1].iter().all(u8::is_ascii_digit)
}
