//! The words after a command's keyword read into the command, with a diagnostic for each
//! problem. Messages never hold a password, nor any word of a line that carries one (a
//! password written in the game's place would otherwise be echoed).

use super::super::{Diagnostic, Severity};
use super::line::Word;
use super::{CommandKind, CreditAction};

/// Where the words of one command are read: its line, its keyword, what was found wrong.
pub(super) struct Args<'a> {
    pub line: usize,
    /// The keyword as written (its first word), for the column of "needs" errors.
    pub keyword: Word<'a>,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

impl Args<'_> {
    pub(super) fn report(&mut self, severity: Severity, column: usize, message: impl Into<String>) {
        // Command diagnostics are written in English only for now.
        self.diagnostics.push(Diagnostic::english(
            self.line,
            column,
            severity,
            message.into(),
        ));
    }

    /// An error at the keyword; the command is not read.
    pub(super) fn usage<T>(&mut self, message: &str) -> Option<T> {
        self.report(Severity::Error, self.keyword.column, message);
        None
    }

    /// Words after the last one a command reads are ignored, with a warning.
    pub(super) fn extra(&mut self, rest: &[Word], what: &str) {
        if let Some(first) = rest.first() {
            let message = format!("the words after {what} are not read");
            self.report(Severity::Warning, first.column, message);
        }
    }

    /// A game name: letters, digits, `-` and `_`, at most 20, stored lower-case.
    pub(super) fn game(&mut self, word: &Word, text: &str) -> Option<String> {
        let valid = (1..=20).contains(&text.chars().count())
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            let message = "that is not a game name: a game name is up to 20 letters, digits, \
                           '-' or '_'";
            self.report(Severity::Error, word.column, message);
            return None;
        }
        Some(text.to_ascii_lowercase())
    }

    /// A password: one word of at most 64 chars, no control chars. Never echoed.
    pub(super) fn password(&mut self, word: &Word) -> Option<String> {
        let problem = if word.text.chars().count() > 64 {
            "a password is at most 64 characters long"
        } else if word.text.chars().any(char::is_control) {
            "a password cannot hold control characters"
        } else {
            return Some(word.text.to_string());
        };
        self.report(Severity::Error, word.column, problem);
        None
    }

    /// `HELP [topic]`.
    pub(super) fn help(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args {
            [] => Some(CommandKind::Help { topic: None }),
            [topic] => self.file(topic),
            _ => self.usage("HELP takes at most one topic, like: HELP signon"),
        }
    }

    /// `GET file`, `SEND [ME] file`; `GET info <variant>` is the variant's file, topic
    /// `info-<variant>` (echoed back as written); `GET MAP [game]` the picture of a board.
    pub(super) fn get(&mut self, args: &[Word]) -> Option<CommandKind> {
        // `GET ics <game>`: the game's deadlines as an iCalendar file.
        if let [ics, game] = args
            && ics.text.eq_ignore_ascii_case("ics")
        {
            let game = self.game(game, game.text)?;
            return Some(CommandKind::Help {
                topic: Some(format!("ics.{game}")),
            });
        }
        // `GET MAP [game]`: the picture of a game's board (or, for a variant's name, the
        // variant's provinces and its starting board).
        if let [map, rest @ ..] = args
            && map.text.eq_ignore_ascii_case("map")
            && rest.len() <= 1
        {
            let game = rest.first().map(|g| g.text.to_lowercase());
            return Some(CommandKind::GetMap { game });
        }
        if let [info, variant] = args
            && info.text.eq_ignore_ascii_case("info")
        {
            return match self.file(variant)? {
                CommandKind::Help { topic: Some(name) } => Some(CommandKind::Help {
                    topic: Some(format!("info-{name}")),
                }),
                other => Some(other),
            };
        }
        let Some(file) = args.first() else {
            return self.usage("GET needs the name of a file, like: GET info");
        };
        self.extra(&args[1..], "the file name");
        self.file(file)
    }

    /// A help file's name: letters, digits, `.`, `-`, `_`, not starting with a dot, so never a
    /// dot-file nor `..` (judge-conventions.md §1.2, GET). Stored lower-case.
    fn file(&mut self, word: &Word) -> Option<CommandKind> {
        let name = word.text;
        let valid = (1..=40).contains(&name.chars().count())
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if !valid {
            let shown: String = name.chars().take(20).collect();
            let message =
                format!("'{shown}' is not the name of a help file: try GET index for the list");
            self.report(Severity::Error, word.column, message);
            return None;
        }
        let topic = Some(name.to_ascii_lowercase());
        Some(CommandKind::Help { topic })
    }

    /// njudge's `MAP game [n]`: the picture of the game's board (njudge's `n`, a PostScript
    /// option, has no meaning for a picture and is read and dropped).
    pub(super) fn map(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args {
            [] => Some(CommandKind::GetMap { game: None }),
            [game] | [game, _] => Some(CommandKind::GetMap {
                game: Some(game.text.to_lowercase()),
            }),
            _ => self.usage("MAP takes a game's name, like: MAP mygame"),
        }
    }

    /// `SET PASSWORD new`.
    pub(super) fn set_password(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args {
            [] => self.usage("SET PASSWORD needs the new password, like: SET PASSWORD n3wsecret"),
            [word] => self
                .password(word)
                .map(|password| CommandKind::SetPassword { password }),
            [_, second, ..] => {
                let message = "a password is one word; the password was not changed";
                self.report(Severity::Error, second.column, message);
                None
            }
        }
    }

    /// `CREATE ?game password [variant] [MODERATED] [PRIVATE] [ANONYMOUS]`; the `?` may be
    /// left out, or written apart; the options may stand anywhere after the password.
    pub(super) fn create(&mut self, args: &[Word]) -> Option<CommandKind> {
        const USAGE: &str =
            "CREATE needs a game name and a password, like: CREATE ?mygame secret standard";
        const OPTIONS: [&str; 3] = ["moderated", "private", "anonymous"];
        let (game_word, game_text, rest) = match args {
            [mark, game, rest @ ..] if mark.text == "?" => (game, game.text, rest),
            [game, rest @ ..] => (game, game.text.strip_prefix('?').unwrap_or(game.text), rest),
            [] => return self.usage(USAGE),
        };
        let Some((password_word, after)) = rest.split_first() else {
            return self.usage(USAGE);
        };
        let game = self.game(game_word, game_text);
        let password = self.password(password_word);
        let option = |name: &str| after.iter().any(|w| w.text.eq_ignore_ascii_case(name));
        let (moderated, private, anonymous) =
            (option("moderated"), option("private"), option("anonymous"));
        let after: Vec<Word> = after
            .iter()
            .filter(|w| !OPTIONS.iter().any(|o| w.text.eq_ignore_ascii_case(o)))
            .copied()
            .collect();
        let variant = match after.first() {
            Some(word) => Some(self.variant(word)?),
            None => None,
        };
        self.extra(after.get(1..).unwrap_or_default(), "the variant");
        Some(CommandKind::Create {
            game: game?,
            password: password?,
            variant,
            moderated,
            private,
            anonymous,
        })
    }

    pub(super) fn variant(&mut self, word: &Word) -> Option<String> {
        let valid = (1..=40).contains(&word.text.chars().count())
            && word
                .text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            let message =
                "that is not a variant name: a variant name is letters, digits, '-' or '_'";
            self.report(Severity::Error, word.column, message);
            return None;
        }
        Some(word.text.to_ascii_lowercase())
    }

    /// `SIGNON ?game pw` (join a forming game), `SIGNON Fgame pw` (power letter glued to the
    /// game, judge-conventions.md §1.2), `SIGNON F game pw` (the first word a single
    /// letter, which a glued power and game cannot be). Words after the password (the variant
    /// njudge wants restated) are not read.
    pub(super) fn signon(&mut self, args: &[Word]) -> Option<CommandKind> {
        const USAGE: &str = "SIGNON needs a power letter with the game and a password, like: \
                             SIGNON Fmygame secret, or SIGNON ?mygame secret to join a game";
        let (power, game_word, game_text, rest) = match args {
            // `SIGNON ? password`: any game that is forming.
            [mark, password] if mark.text == "?" => {
                return Some(CommandKind::SignonAny {
                    password: self.password(password)?,
                });
            }
            [mark, game, rest @ ..] if mark.text == "?" => (None, game, game.text, rest),
            [game, rest @ ..] if game.text.starts_with('?') => (None, game, &game.text[1..], rest),
            [letter, game, rest @ ..] if !rest.is_empty() && letter.text.chars().count() == 1 => {
                (letter.text.chars().next(), game, game.text, rest)
            }
            [glued, rest @ ..] => {
                let mut chars = glued.text.chars();
                let first = chars.next();
                (first, glued, chars.as_str(), rest)
            }
            [] => return self.usage(USAGE),
        };
        let Some(password_word) = rest.first() else {
            return self.usage(USAGE);
        };
        // A power's letter, or a digit (Chaos has 34 powers: A-Z less M and O, then 0-9).
        if power.is_some_and(|c| !c.is_ascii_alphanumeric()) {
            let message = "that does not start with a power letter: write the power's initial \
                           before the game, like: SIGNON Fmygame secret";
            self.report(Severity::Error, game_word.column, message);
            return None;
        }
        if power.is_some() && game_text.is_empty() {
            return self.usage(USAGE);
        }
        let game = self.game(game_word, game_text);
        let password = self.password(password_word);
        self.extra(&rest[1..], "the password");
        Some(CommandKind::Signon {
            power: power.map(|c| c.to_ascii_uppercase()),
            game: game?,
            password: password?,
        })
    }

    /// DPjudge's `JOIN game pw`: `SIGNON ?game pw`.
    pub(super) fn join(&mut self, args: &[Word]) -> Option<CommandKind> {
        let [game_word, password_word, rest @ ..] = args else {
            return self.usage("JOIN needs a game name and a password, like: JOIN mygame secret");
        };
        let text = game_word.text.strip_prefix('?').unwrap_or(game_word.text);
        let game = self.game(game_word, text);
        let password = self.password(password_word);
        self.extra(rest, "the password");
        Some(CommandKind::Signon {
            power: None,
            game: game?,
            password: password?,
        })
    }

    /// `OBSERVE game pw`, `WATCH game pw`.
    pub(super) fn observe(&mut self, args: &[Word]) -> Option<CommandKind> {
        let [game_word, password_word, rest @ ..] = args else {
            return self
                .usage("OBSERVE needs a game name and a password, like: OBSERVE mygame secret");
        };
        let game = self.game(game_word, game_word.text);
        let password = self.password(password_word);
        self.extra(rest, "the password");
        Some(CommandKind::Observe {
            game: game?,
            password: password?,
        })
    }

    /// `LIST`, `LIST FULL`, `LIST game`.
    pub(super) fn list(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args {
            [] => Some(CommandKind::List {
                game: None,
                full: false,
            }),
            [full] if full.text.eq_ignore_ascii_case("full") => Some(CommandKind::List {
                game: None,
                full: true,
            }),
            [game] => {
                let game = Some(self.game(game, game.text)?);
                Some(CommandKind::List { game, full: false })
            }
            _ => self.usage("LIST takes at most a game name, like: LIST mygame"),
        }
    }

    /// `CREDIT n TO power`, `CREDIT PASS n TO power`, `CREDIT END power`, `CREDIT ASK n FROM power`.
    pub(super) fn credit(&mut self, args: &[Word]) -> Option<CommandKind> {
        let lower: Vec<String> = args.iter().map(|w| w.text.to_ascii_lowercase()).collect();
        let words: Vec<&str> = lower.iter().map(String::as_str).collect();
        let amount = |w: &str| w.parse::<u32>().ok().filter(|n| (1..=99).contains(n));
        let (action, amount, power) = match words.as_slice() {
            [n, "to", power] => (CreditAction::Grant, amount(n), power),
            ["pass", n, "to", power] => (CreditAction::Pass, amount(n), power),
            ["end", power] => (CreditAction::End, Some(0), power),
            ["ask", n, "from", power] => (CreditAction::Ask, amount(n), power),
            _ => {
                return self.usage(
                    "CREDIT is written CREDIT 2 TO egypt, CREDIT PASS 1 TO syria, CREDIT END egypt or CREDIT ASK 2 FROM rome",
                );
            }
        };
        let Some(amount) = amount else {
            return self.usage("a credit is a number of supply from 1 to 99");
        };
        Some(CommandKind::Credit {
            action,
            amount,
            power: power.to_string(),
        })
    }

    /// `RESIGN`, `WITHDRAW`: nothing may follow, as the command cannot be undone.
    pub(super) fn resign(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args.first() {
            None => Some(CommandKind::Resign),
            Some(word) => {
                let message = "RESIGN takes nothing after it, so you were not resigned";
                self.report(Severity::Error, word.column, message);
                None
            }
        }
    }

    /// `CONFIRM token`: one word of letters and digits, read lower-case.
    pub(super) fn confirm(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args {
            [word]
                if (1..=64).contains(&word.text.len())
                    && word.text.chars().all(|c| c.is_ascii_alphanumeric()) =>
            {
                Some(CommandKind::Confirm {
                    token: word.text.to_ascii_lowercase(),
                })
            }
            [] => self.usage(
                "CONFIRM takes the token the judge mailed you, like: CONFIRM k3jd8s2mq7vx4npa",
            ),
            [word, ..] => {
                let message =
                    "CONFIRM takes one token of letters and digits, as the judge mailed it";
                self.report(Severity::Error, word.column, message);
                None
            }
        }
    }

    /// `REGISTER [password [name...]]`: the one-line form.
    pub(super) fn register(&mut self, args: &[Word]) -> Option<CommandKind> {
        if let Some(field) = args.first().filter(|w| w.text.ends_with(':')) {
            let message = "write the form's fields on the lines after REGISTER, one a line, \
                           like: Name: Ann Smith";
            self.report(Severity::Error, field.column, message);
            return None;
        }
        let password = match args.first() {
            Some(word) => Some(self.password(word)?),
            None => None,
        };
        let name = self.name(args.get(1..).unwrap_or_default())?;
        Some(CommandKind::Register {
            name,
            password,
            form: false,
        })
    }

    /// A person's name: its words joined by single spaces, at most 100 chars.
    pub(super) fn name(&mut self, words: &[Word]) -> Option<Option<String>> {
        let Some(first) = words.first() else {
            return Some(None);
        };
        let name = words.iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
        let problem = if name.chars().count() > 100 {
            "a name is at most 100 characters long".to_string()
        } else if name.chars().any(char::is_control) {
            "a name cannot hold control characters".to_string()
        } else if let Some(c) = crate::text::invisible::first_invisible(&name) {
            format!(
                "a name cannot hold invisible characters or characters that change the \
                 direction of the text ({} here): write it with letters, digits, spaces and \
                 punctuation others can see",
                crate::text::invisible::code_point(c)
            )
        } else {
            return Some(Some(name));
        };
        self.report(Severity::Error, first.column, &problem);
        None
    }

    /// One e-mail address as `letter::usable_address` takes it (no spaces, commas, angle
    /// brackets or control characters, not beginning with `-`), lower-cased.
    pub(super) fn address(&mut self, word: &Word) -> Option<String> {
        // Checked and written as the judge keeps addresses (lower-cased, no option-like or
        // broken addresses), the same way as the senders' own.
        let address = crate::letter::usable_address(word.text);
        if address.is_none() {
            let message = "that is not an e-mail address: write one address, like ann@example.org";
            self.report(Severity::Error, word.column, message);
        }
        address
    }

    /// A power as a player names it: its name or its letters (`france`, `F`, `AEF`): letters,
    /// digits, `-` and `_`, at most 30, stored lower-case. Which power it is, the judge decides
    /// with the game's variant.
    pub(super) fn power(&mut self, word: &Word) -> Option<String> {
        let valid = (1..=30).contains(&word.text.chars().count())
            && word
                .text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
        if !valid {
            let message = "that is not a power: write its name or its letter, like france or F";
            self.report(Severity::Error, word.column, message);
            return None;
        }
        Some(word.text.to_lowercase())
    }

    /// A whole number in `range`; otherwise `message` at the word.
    pub(super) fn number(
        &mut self,
        word: &Word,
        range: std::ops::RangeInclusive<u32>,
        message: &str,
    ) -> Option<u32> {
        let number = word.text.parse::<u32>().ok().filter(|n| range.contains(n));
        if number.is_none() {
            self.report(Severity::Error, word.column, message);
        }
        number
    }
}

/// At most the first 20 chars of a word, to quote it in a message.
pub(super) fn shown(text: &str) -> String {
    text.chars().take(20).collect()
}
