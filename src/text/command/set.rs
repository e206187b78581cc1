//! `SET` lines other than `SET PASSWORD`: a player's or a master's settings
//! (judge-conventions.md §1.3, §1.4, §1.8-1.10), read into a typed `Setting` and echoed back.
//!
//! Each setting is a phrase after `SET`, with the spaces between its words optional like every
//! keyword (`SET NOWAIT`, `SET NO WAIT`, `SETNOWAIT`). A `SET` line whose setting is unknown is
//! an error, never order text. Settings that take nothing refuse words after them (an error,
//! not a warning: `SET PARTIAL FAKES` is not `SET PARTIAL`). The settings themselves, and how
//! each is echoed, are `setting.rs`.

use super::super::Severity;
use super::super::date::{WrittenDate, read_date};
use super::CommandKind;
use super::args::{Args, shown};
use super::line::Word;
use super::phrases::{Name, Name::Flag, SETTING_WORDS, find};
use super::setting::{ObserverPress, PhaseSetting, Setting, phase_word, render};
use super::unsupported::{self};
use crate::lang::Lang;

/// Whether a line starts with a setting's phrase (see `phrases`).
pub(super) use super::phrases::starts_setting;

impl Args<'_> {
    /// A `SET` line, its words from `SET` on.
    pub(super) fn set(&mut self, words: &[Word]) -> Option<CommandKind> {
        let Some((name, used)) = find(words) else {
            if let Some((phrase, what, already, _)) = unsupported::setting(words) {
                return Some(CommandKind::Set(Setting::Unsupported {
                    phrase,
                    what,
                    already,
                }));
            }
            return self.unknown_setting(words);
        };
        let args = &words[used..];
        let setting = match name {
            Flag(setting) => {
                if let Some(first) = args.first() {
                    let message = format!(
                        "{} takes nothing after it; the setting was not changed",
                        render(&setting)
                    );
                    self.report(Severity::Error, first.column, message);
                    return None;
                }
                setting
            }
            Name::Address => match args {
                [] => Setting::Address {
                    address: None,
                    password: None,
                },
                [word, rest @ ..] => {
                    let address = Some(self.address(word)?);
                    match rest {
                        [] => Setting::Address {
                            address,
                            password: None,
                        },
                        [password] => Setting::Address {
                            address,
                            password: Some(self.password(password)?),
                        },
                        [_, extra, ..] => {
                            let message = "SET ADDRESS takes one address and, unless you \
                                           signed on, your password";
                            self.report(Severity::Error, extra.column, message);
                            return None;
                        }
                    }
                }
            },
            Name::Absence => self.absence(args)?,
            Name::Draw => self.draw(args)?,
            Name::Concede => match args {
                [power] => Setting::Concede(self.power(power)?),
                _ => {
                    return self.usage(
                        "SET CONCEDE takes the power you concede to, like: SET CONCEDE france",
                    );
                }
            },
            Name::Preference => self.preference(args)?,
            Name::Language => Setting::Language(
                self.language(args, "SET LANGUAGE takes en (English) or ru (русский)")?,
            ),
            Name::GameLanguage => Setting::GameLanguage(
                self.language(args, "SET GAME LANGUAGE takes en (English) or ru (русский)")?,
            ),
            Name::Map => Setting::Map(self.on_off(args, "SET MAP takes ON or OFF")?),
            Name::GameMap => Setting::GameMap(self.on_off(args, "SET GAME MAP takes ON or OFF")?),
            Name::ShowAddress => self.show_address(args)?,
            Name::Deadline(kind) => self.deadline(kind, args)?,
            Name::Zone => self.zone(args)?,
            Name::Observer => self.observer(args)?,
            Name::Allow => Setting::Allow(self.player(args, "ALLOW")?),
            Name::Deny => Setting::Deny(self.player(args, "DENY")?),
            Name::DeadlineAt => Setting::DeadlineAt(self.written_date(args, "SET DEADLINE")?),
            Name::GraceAt => Setting::GraceAt(self.written_date(args, "SET GRACE")?),
            Name::StartAt => Setting::StartAt(self.written_date(args, "SET START")?),
            Name::Delay => match args {
                [hours] => Setting::Delay(self.delay(hours)?),
                _ => {
                    return self.usage(
                        "SET DELAY takes the hours from the last orders to processing, like: SET DELAY 0.5",
                    );
                }
            },
            Name::Centres => {
                match args {
                    [n] => {
                        let message =
                            "SET CENTERS takes the number of centers that wins, from 1 to 999";
                        Setting::Centres(self.number(n, 1..=999, message)?)
                    }
                    _ => {
                        return self.usage("SET CENTERS takes the number of centers that wins, like: SET CENTERS 18");
                    }
                }
            }
            Name::Variant => match args {
                [variant] => Setting::Variant(self.variant(variant)?),
                [_, extra, ..] => {
                    let message =
                        "SET VARIANT takes one variant; this judge has no variant options";
                    self.report(Severity::Error, extra.column, message);
                    return None;
                }
                [] => {
                    return self.usage("SET VARIANT takes the variant, like: SET VARIANT standard");
                }
            },
            Name::MaxAbsence => match args {
                [days] => {
                    let message = "SET MAX ABSENCE takes a number of days from 0 to 31";
                    Setting::MaxAbsence(self.number(days, 0..=31, message)?)
                }
                _ => {
                    return self
                        .usage("SET MAX ABSENCE takes a number of days, like: SET MAX ABSENCE 15");
                }
            },
        };
        Some(CommandKind::Set(setting))
    }

    /// `SET` and a word that is no setting. The word is quoted only if it is letters alone,
    /// so that a password written in the wrong place is never echoed.
    fn unknown_setting<T>(&mut self, words: &[Word]) -> Option<T> {
        let Some(word) = words.get(1) else {
            return self.usage("SET needs a setting, like: SET WAIT; send HELP SET for the list");
        };
        let message =
            if word.text.chars().all(|c| c.is_alphabetic()) {
                // The setting as written: its first word, then the words that follow while they
                // are words of the classic judges' settings (SET NO MINOR PRESS is named whole);
                // never a word that could be a password.
                let phrase: Vec<String> =
                    std::iter::once(word)
                        .chain(words[2..].iter().take(3).take_while(|w| {
                            SETTING_WORDS.contains(&w.text.to_uppercase().as_str())
                        }))
                        .map(|w| shown(w.text))
                        .collect();
                format!(
                    "I do not know the setting 'SET {}'; send HELP SET",
                    phrase.join(" ")
                )
            } else {
                "I do not know that setting; send HELP SET".to_string()
            };
        self.report(Severity::Error, word.column, message);
        None
    }

    /// `SET ABSENCE from [TO to]`, each a date in any form the judge reads (`3 Feb`,
    /// `Feb 3 2027`, `2027-02-03`, a date it printed); whether it ends before it starts the judge sees, once it knows the days.
    fn absence(&mut self, args: &[Word]) -> Option<Setting> {
        const USAGE: &str = "SET ABSENCE takes its first day and maybe its last, like: SET ABSENCE 3 Feb \
             TO 7 Feb, or SET ABSENCE 2027-02-03 TO 2027-02-07";
        if args.is_empty() {
            return self.usage(USAGE);
        }
        let split = args.iter().position(|w| w.text.eq_ignore_ascii_case("to"));
        let (from_words, to_words) = match split {
            Some(at) => (&args[..at], Some(&args[at + 1..])),
            None => (args, None),
        };
        if from_words.is_empty() || to_words.is_some_and(<[Word]>::is_empty) {
            return self.usage(USAGE);
        }
        let from = self.date_words(from_words);
        let to = match to_words {
            Some(words) => Some(self.date_words(words)?),
            None => None,
        };
        // A time, as in a date the judge printed, is read and the day it falls on kept.
        let from = from?;
        Some(Setting::Absence {
            from: Box::new(from),
            to: to.map(Box::new),
        })
    }

    /// A date of njudge's forms for `what` (`SET DEADLINE`): it must be there.
    fn written_date(&mut self, args: &[Word], what: &str) -> Option<WrittenDate> {
        if args.is_empty() {
            let message = format!(
                "{what} takes a date, like: {what} 15 Jun 23:30, {what} Tue 18:00 or {what} 2027-06-15 23:30"
            );
            return self.usage(&message);
        }
        self.date_words(args)
    }

    /// The words of a date read, or an error at the first of them.
    fn date_words(&mut self, words: &[Word]) -> Option<WrittenDate> {
        let texts: Vec<&str> = words.iter().map(|w| w.text).collect();
        match read_date(&texts) {
            Ok(date) => Some(date),
            Err(why) => {
                self.report(Severity::Error, words[0].column, why.to_string());
                None
            }
        }
    }

    /// Hours with or without decimals (`0.5`, `1`, `1.25`) as whole minutes, at most 720 hours.
    fn delay(&mut self, word: &Word) -> Option<u32> {
        let minutes = decimal_minutes(word.text).filter(|m| *m <= 720 * 60);
        if minutes.is_none() {
            let message = "DELAY is a number of hours from 0 to 720, like 0.5";
            self.report(Severity::Error, word.column, message);
        }
        minutes
    }

    /// `SET DRAW [powers...]`, the powers split at spaces and commas.
    fn draw(&mut self, args: &[Word]) -> Option<Setting> {
        let mut powers = Vec::new();
        let mut valid = true;
        for word in args {
            let mut column = word.column;
            for part in word.text.split(',') {
                if !part.is_empty() {
                    let part_word = Word { text: part, column };
                    match self.power(&part_word) {
                        Some(power) => powers.push(power),
                        None => valid = false,
                    }
                }
                column += part.chars().count() + 1;
            }
        }
        valid.then_some(Setting::Draw(powers))
    }

    /// `SET PREFERENCE EFG`, `SET PREFERENCE E[FGR][TAI]` (powers in brackets wanted
    /// equally) or `SET PREFERENCE *` (any power); kept upper-case, as written.
    fn preference(&mut self, args: &[Word]) -> Option<Setting> {
        const USAGE: &str = "SET PREFERENCE takes power letters in the order you want them, like: SET \
             PREFERENCE EFG, with powers you want equally in brackets, like E[FGR][TAI], or * for \
             any power";
        let [word] = args else {
            return self.usage(USAGE);
        };
        let mut open = false;
        let mut letters = 0;
        let mut valid = (1..=60).contains(&word.text.chars().count());
        for c in word.text.chars() {
            match c {
                '[' if !open => open = true,
                ']' if open => open = false,
                c if c.is_ascii_alphabetic() => letters += 1,
                _ => valid = false,
            }
        }
        let valid = word.text == "*" || (valid && !open && letters > 0);
        if !valid {
            self.report(Severity::Error, word.column, USAGE);
            return None;
        }
        Some(Setting::Preference(word.text.to_ascii_uppercase()))
    }

    /// `ON` or `OFF` (`YES`, `NO` too).
    fn on_off(&mut self, args: &[Word], usage: &str) -> Option<bool> {
        let [word] = args else {
            return self.usage(usage);
        };
        match word.text.to_ascii_uppercase().as_str() {
            "ON" | "YES" => Some(true),
            "OFF" | "NO" => Some(false),
            _ => {
                self.report(Severity::Error, word.column, usage);
                None
            }
        }
    }

    /// The language of `SET LANGUAGE en|ru` and `SET GAME LANGUAGE en|ru`: `en` or `ru`.
    fn language(&mut self, args: &[Word], usage: &str) -> Option<Lang> {
        let [word] = args else {
            return self.usage(usage);
        };
        let code = match word.text.to_lowercase().as_str() {
            "en" | "eng" | "english" | "английский" => Lang::En,
            "ru" | "rus" | "russian" | "русский" => Lang::Ru,
            _ => {
                self.report(Severity::Error, word.column, usage);
                return None;
            }
        };
        Some(code)
    }

    /// `SET SHOW ADDRESS [code]`.
    fn show_address(&mut self, args: &[Word]) -> Option<Setting> {
        const USAGE: &str = "SET SHOW ADDRESS takes nothing, or the code the judge mailed you, like: SET SHOW ADDRESS 3f9a0c71d2";
        match args {
            [] => Some(Setting::ShowAddress(None)),
            [code]
                if (1..=32).contains(&code.text.len())
                    && code.text.chars().all(|c| c.is_ascii_alphanumeric()) =>
            {
                Some(Setting::ShowAddress(Some(code.text.to_ascii_lowercase())))
            }
            [word] | [_, word, ..] => {
                self.report(Severity::Error, word.column, USAGE);
                None
            }
        }
    }

    /// `SET MOVE|RETREAT|ADJUST` and its options.
    fn deadline(&mut self, kind: PhaseSetting, args: &[Word]) -> Option<Setting> {
        let name = phase_word(kind);
        if args.is_empty() {
            let message = format!(
                "SET {name} needs at least one of CLOCK hh:mm, MIN h, NEXT h, GRACE h, DELAY h, \
                 DAYS -MTWTF-, like: SET {name} CLOCK 12:00 NEXT 48"
            );
            return self.usage(&message);
        }
        let mut clock = None;
        let mut min_hours = None;
        let mut hours = None;
        let mut grace_hours = None;
        let mut delay_minutes = None;
        let mut days = None;
        let mut seen: Vec<String> = Vec::new();
        let mut valid = true;
        let mut rest = args;
        while let [option, after @ ..] = rest {
            let upper = option.text.to_ascii_uppercase();
            if !matches!(
                upper.as_str(),
                "CLOCK" | "MIN" | "NEXT" | "GRACE" | "DELAY" | "DAYS"
            ) {
                let message = format!(
                    "SET {name} takes CLOCK hh:mm, MIN h, NEXT h, GRACE h, DELAY h and DAYS -MTWTF-"
                );
                self.report(Severity::Error, option.column, message);
                return None;
            }
            let Some((value, after)) = after.split_first() else {
                let message = format!("{upper} needs a value after it");
                self.report(Severity::Error, option.column, message);
                return None;
            };
            if seen.contains(&upper) {
                let message = format!("{upper} is given twice");
                self.report(Severity::Error, option.column, message);
                return None;
            }
            let read = match upper.as_str() {
                "CLOCK" => self.clock(value).map(|c| clock = Some(c)),
                "MIN" => {
                    let message = "MIN is a number of hours from 0 to 720";
                    let number = self.hours(value, 0..=720, message);
                    number.map(|n| min_hours = Some(n))
                }
                "NEXT" => {
                    let message = "NEXT is a number of hours from 1 to 720";
                    let number = self.hours(value, 1..=720, message);
                    number.map(|n| hours = Some(n))
                }
                "GRACE" => {
                    let message = "GRACE is a number of hours from 0 to 720";
                    let number = self.hours(value, 0..=720, message);
                    number.map(|n| grace_hours = Some(n))
                }
                "DELAY" => self.delay(value).map(|m| delay_minutes = Some(m)),
                _ => self.days(value).map(|d| days = Some(d)),
            };
            valid &= read.is_some();
            seen.push(upper);
            rest = after;
        }
        valid.then_some(Setting::Deadline {
            kind,
            clock,
            min_hours,
            hours,
            grace_hours,
            delay_minutes,
            days,
        })
    }

    /// A number of hours in `range`, decimals allowed as njudge writes them (`48.0`, `71.5`):
    /// whole hours are read as they are, others rounded to the nearest, with a warning.
    fn hours(
        &mut self,
        word: &Word,
        range: std::ops::RangeInclusive<u32>,
        message: &str,
    ) -> Option<u32> {
        let minutes = decimal_minutes(word.text);
        let hours = minutes.map(|m| (m + 30) / 60).filter(|h| range.contains(h));
        match (minutes, hours) {
            (Some(m), Some(h)) if m % 60 != 0 => {
                let note = format!("hours are whole here: read as {h}");
                self.report(Severity::Warning, word.column, note);
            }
            (_, None) => self.report(Severity::Error, word.column, message),
            _ => {}
        }
        hours
    }

    /// A time of day, `h:mm` or `hh:mm`, as `hh:mm`; njudge's minutes past midnight (`1410`)
    /// too, and `-1` (any time) as empty.
    fn clock(&mut self, word: &Word) -> Option<String> {
        if word.text == "-1" {
            return Some(String::new());
        }
        if let Ok(minutes) = word.text.parse::<u32>()
            && minutes < 24 * 60
        {
            return Some(format!("{:02}:{:02}", minutes / 60, minutes % 60));
        }
        let time = word.text.split_once(':').and_then(|(h, m)| {
            let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
            let ok = (1..=2).contains(&h.len()) && m.len() == 2 && digits(h) && digits(m);
            let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
            (ok && h < 24 && m < 60).then(|| format!("{h:02}:{m:02}"))
        });
        if time.is_none() {
            let message = "CLOCK is a time of day, hh:mm, like 12:00, or -1 for any time";
            self.report(Severity::Error, word.column, message);
        }
        time
    }

    /// Seven places, Sunday first, each `-` or the day's letter, at least one day; upper-case.
    /// njudge's lower-case letters (only after noon) are read as upper-case, with a warning.
    fn days(&mut self, word: &Word) -> Option<String> {
        const LETTERS: [char; 7] = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];
        let chars: Vec<char> = word.text.chars().collect();
        let valid = chars.len() == 7
            && chars
                .iter()
                .zip(LETTERS)
                .all(|(c, day)| *c == '-' || c.to_ascii_uppercase() == day)
            && chars.iter().any(|c| *c != '-');
        if !valid {
            let message = "DAYS is seven places from Sunday, each the day's letter or '-', \
                           with at least one day, like -MTWTF-";
            self.report(Severity::Error, word.column, message);
            return None;
        }
        let days = word.text.to_ascii_uppercase();
        if days != word.text {
            let message =
                format!("lower-case days (only after noon) are not supported; read as {days}");
            self.report(Severity::Warning, word.column, message);
        }
        Some(days)
    }

    /// `SET ZONE name`: one word of letters, digits, `/`, `_`, `-`, `+`.
    fn zone(&mut self, args: &[Word]) -> Option<Setting> {
        const USAGE: &str = "SET ZONE takes the name of a time zone, like: SET ZONE Europe/Moscow";
        let [word] = args else {
            return self.usage(USAGE);
        };
        let valid = (1..=64).contains(&word.text.chars().count())
            && word
                .text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '+'));
        if !valid {
            self.report(Severity::Error, word.column, USAGE);
            return None;
        }
        Some(Setting::Zone(word.text.to_string()))
    }

    /// `SET OBSERVER ANY|WHITE|NO`.
    fn observer(&mut self, args: &[Word]) -> Option<Setting> {
        const USAGE: &str = "SET OBSERVER takes ANY, WHITE or NO, like: SET OBSERVER WHITE";
        let (word, rest) = match args {
            [word] => (word, None),
            [word, press] => (word, Some(press)),
            _ => return self.usage(USAGE),
        };
        if let Some(press) = rest
            && !press.text.eq_ignore_ascii_case("press")
        {
            self.report(Severity::Error, press.column, USAGE);
            return None;
        }
        let press = match word.text.to_ascii_uppercase().as_str() {
            "ANY" => ObserverPress::Any,
            "WHITE" => ObserverPress::White,
            "NO" | "NONE" => ObserverPress::None,
            _ => {
                self.report(Severity::Error, word.column, USAGE);
                return None;
            }
        };
        Some(Setting::ObserverPress(press))
    }

    /// The address of `SET ALLOW|DENY [PLAYER] a@b.c`.
    fn player(&mut self, args: &[Word], verb: &str) -> Option<String> {
        let args = match args {
            [player, rest @ ..] if player.text.eq_ignore_ascii_case("player") => rest,
            _ => args,
        };
        match args {
            [word] => self.address(word),
            _ => {
                let message = format!(
                    "SET {verb} takes one address, like: SET {verb} PLAYER ann@example.org"
                );
                self.usage(&message)
            }
        }
    }
}

/// Hours written with or without decimals (`0.5`, `48`, `71.00`) as whole minutes (rounded).
fn decimal_minutes(text: &str) -> Option<u32> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || whole.len() > 4
        || fraction.len() > 4
    {
        return None;
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let scale = 10u32.pow(fraction.len() as u32);
    let fraction: u32 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    Some(whole * 60 + (fraction * 60 + scale / 2) / scale)
}
