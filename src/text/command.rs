//! The body of a letter read into judge commands (`parse_commands`) and echoed back (`render`).
//!
//! Reading never fails. The vocabulary is the classic judge's (judge-conventions.md §1.1-1.3);
//! keywords are in any case, with the spaces between a keyword's words optional (`SIGN ON`):
//!
//! - `HELP [topic]`; `GET file`, `SEND [ME] file`: `Help`.
//! - `REGISTER`, then optional form lines `Name: ...`, `Password: ...` (the other fields of
//!   njudge's form, NJ:form, are read and dropped) up to `END`, a blank line or any line that
//!   is not `Field: value`; or on one line `REGISTER password [name...]` (form lines may
//!   follow it too): `Register`.
//! - `SET PASSWORD new`: `SetPassword`.
//! - `CREATE ?game password [variant]`, the `?` optional: `Create`.
//! - `SIGNON Fgame password` (power letter glued to the game), `SIGNON F game password` (a
//!   lone letter first), `SIGNON ?game password` (join a forming game); words after the
//!   password are not read (warning); HELLO and LOGIN are synonyms: `Signon`.
//!   `SIGNON Ogame` and `SIGNON Mgame` are read as they are, power `O` or `M`.
//! - `OBSERVE game password`, `WATCH game password`: `Observe`.
//! - `SIGNOFF`: nothing after it is read.
//! - `LIST`, `LIST game`: `List`.
//! - `HISTORY game`: `History` (njudge's date range is not read).
//! - `CREDIT n TO power`, `CREDIT PASS n TO power`, `CREDIT END power`, `CREDIT ASK n FROM
//!   power`: `Credit` (Diadochi V's supply credit).
//! - `RESIGN`, `WITHDRAW`: `Resign`, with nothing after it on the line.
//! - `PRESS [options]`, `BROADCAST [options]`, `POSTAL PRESS [options]`, then the message up
//!   to a line `ENDPRESS` or `ENDBROADCAST`, `SIGNOFF`, the signature or the end: `Press`,
//!   options kept as written (reading them needs the variant's power letters). Lines inside
//!   press are never commands (NJ:press).
//! - Any other line is order text: consecutive such lines make one `Orders`, for the order
//!   parser. A word we do not know is not an error here: the order parser reports it.
//!
//! Skipped: blank lines, quoted lines (`>`), the attribution line just before a quote
//! (`On ..., X wrote:`), `//` comments. Reading stops at the signature delimiter (`-- ` or
//! `--`) and at `-----Original Message-----`. Only a known command written wrongly gives a
//! diagnostic, and no diagnostic holds a password.

mod args;
mod block;
mod line;

use super::Diagnostic;
use args::Args;
use line::Word;

/// One command read from a letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// 1-based line of the body where the command starts.
    pub line: usize,
    pub kind: CommandKind,
}

/// What a command asks for. Game names, variants and help topics are lower-case; power
/// letters upper-case; passwords as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandKind {
    /// `HELP`, `HELP topic`, `GET file`, `SEND [ME] file`.
    Help { topic: Option<String> },
    /// `REGISTER` with its form, or `REGISTER password [name...]`.
    Register {
        name: Option<String>,
        password: Option<String>,
    },
    /// `SET PASSWORD new`.
    SetPassword { password: String },
    /// `CREATE ?game password [variant]`.
    Create {
        game: String,
        password: String,
        variant: Option<String>,
    },
    /// `SIGNON Fgame password` (power `F`), `SIGNON ?game password` (no power yet).
    Signon {
        power: Option<char>,
        game: String,
        password: String,
    },
    /// `OBSERVE game password`, `WATCH game password`.
    Observe { game: String, password: String },
    /// `SIGNOFF`: the end of what is read.
    Signoff,
    /// `LIST`, `LIST game`.
    List { game: Option<String> },
    /// `HISTORY game`: the game's archive of reports.
    History { game: String },
    /// Supply credit between powers (Diadochi V rule 8): `CREDIT 2 TO egypt`,
    /// `CREDIT PASS 1 TO syria`, `CREDIT END egypt`, `CREDIT ASK 2 FROM rome`.
    Credit {
        action: CreditAction,
        amount: u32,
        power: String,
    },
    /// `RESIGN`, `WITHDRAW`.
    Resign,
    /// Lines that are not commands, as written, joined with `\n`. Blank lines inside are kept,
    /// so line `i` (1-based) of `text` is line `Command::line + i - 1` of the body.
    Orders { text: String },
    /// A press message: `options` as written after the keyword (`TO frg`, `grey`), `text` the
    /// message's lines.
    Press {
        kind: PressKind,
        options: String,
        text: String,
    },
}

/// Which press command opened a message (judge-conventions.md §1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PressKind {
    /// `PRESS`: partial press, to the powers the options name.
    Press,
    /// `BROADCAST`: to everyone.
    Broadcast,
    /// `POSTAL PRESS`: to everyone, held until the next results.
    Postal,
}

/// What a CREDIT command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreditAction {
    /// Lend supply to a power.
    Grant,
    /// Pass supply lent to us on to a third power.
    Pass,
    /// End the credit given to a power.
    End,
    /// Ask a power for credit.
    Ask,
}

/// The keywords, each with the words it is spelt with (spaces between them optional), in the
/// order they are tried. Synonyms per judge-conventions.md §1.1 (NJ:mail.c).
const KEYWORDS: [(&[&str], Keyword); 21] = [
    (&["HELP"], Keyword::Help),
    (&["GET"], Keyword::Get),
    (&["SEND", "ME"], Keyword::Get),
    (&["SEND"], Keyword::Get),
    (&["REGISTER"], Keyword::Register),
    (&["SET", "PASSWORD"], Keyword::SetPassword),
    (&["CREATE"], Keyword::Create),
    (&["SIGN", "ON"], Keyword::Signon),
    (&["HELLO"], Keyword::Signon),
    (&["LOGIN"], Keyword::Signon),
    (&["OBSERVE"], Keyword::Observe),
    (&["WATCH"], Keyword::Observe),
    (&["SIGN", "OFF"], Keyword::Signoff),
    (&["LIST"], Keyword::List),
    (&["HISTORY"], Keyword::History),
    (&["CREDIT"], Keyword::Credit),
    (&["RESIGN"], Keyword::Resign),
    (&["WITHDRAW"], Keyword::Resign),
    (&["POSTAL", "PRESS"], Keyword::Press(PressKind::Postal)),
    (&["PRESS"], Keyword::Press(PressKind::Press)),
    (&["BROADCAST"], Keyword::Press(PressKind::Broadcast)),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Help,
    Get,
    Register,
    SetPassword,
    Create,
    Signon,
    Observe,
    Signoff,
    List,
    History,
    Credit,
    Resign,
    Press(PressKind),
}

/// The keyword the line starts with, and how many words it takes.
fn keyword(words: &[Word]) -> Option<(Keyword, usize)> {
    KEYWORDS
        .iter()
        .find_map(|(phrase, keyword)| Some((*keyword, line::spells(words, phrase)?)))
}

/// Read the commands in the body of a letter. Never fails; see the module documentation for
/// what is read. The diagnostics are in line order.
pub fn parse_commands(body: &str) -> (Vec<Command>, Vec<Diagnostic>) {
    let lines: Vec<&str> = body.lines().collect();
    let skipped = line::quoting(&lines);
    let mut reader = Reader {
        lines: &lines,
        commands: Vec::new(),
        diagnostics: Vec::new(),
        run: None,
    };
    let mut index = 0;
    while let Some(&text) = lines.get(index) {
        if line::ends_letter(text) {
            break;
        }
        index += 1;
        if text.trim().is_empty() {
            continue;
        }
        if skipped[index - 1] || line::is_comment(text) {
            reader.flush();
            continue;
        }
        let words = line::words(text);
        let Some((keyword, used)) = keyword(&words) else {
            reader.run = Some((reader.run.map_or(index - 1, |(first, _)| first), index - 1));
            continue;
        };
        reader.flush();
        let number = index;
        let mut args = Args {
            line: number,
            keyword: words[0],
            diagnostics: &mut reader.diagnostics,
        };
        let rest = &words[used..];
        let kind = match keyword {
            Keyword::Help => args.help(rest),
            Keyword::Get => args.get(rest),
            Keyword::SetPassword => args.set_password(rest),
            Keyword::Create => args.create(rest),
            Keyword::Signon => args.signon(rest),
            Keyword::Observe => args.observe(rest),
            Keyword::List => args.list(rest),
            Keyword::History => args.history(rest),
            Keyword::Credit => args.credit(rest),
            Keyword::Resign => args.resign(rest),
            Keyword::Signoff => Some(CommandKind::Signoff),
            Keyword::Register => {
                let (kind, next) = block::register(&mut args, rest, &lines, index);
                index = next;
                kind
            }
            Keyword::Press(kind) => {
                let (text, next) = block::press(&lines, index);
                index = next;
                let options = rest.iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
                Some(CommandKind::Press {
                    kind,
                    options,
                    text,
                })
            }
        };
        if let Some(kind) = kind {
            let stop = kind == CommandKind::Signoff;
            reader.commands.push(Command { line: number, kind });
            if stop {
                break;
            }
        }
    }
    reader.flush();
    (reader.commands, reader.diagnostics)
}

/// What is read so far, and the run of order lines not yet made into a command.
struct Reader<'a> {
    lines: &'a [&'a str],
    commands: Vec<Command>,
    diagnostics: Vec<Diagnostic>,
    /// First and last (0-based) non-blank line of the current run of order lines.
    run: Option<(usize, usize)>,
}

impl Reader<'_> {
    /// Make the run of order lines, if any, into an `Orders` command.
    fn flush(&mut self) {
        if let Some((first, last)) = self.run.take() {
            let text = self.lines[first..=last].join("\n");
            let kind = CommandKind::Orders { text };
            self.commands.push(Command {
                line: first + 1,
                kind,
            });
        }
    }
}

/// What stands for a password in `render`: always six stars, whatever its length.
const MASK: &str = "******";

/// A command as the judge echoes it in replies, passwords masked: `SIGNON Fmygame ******`,
/// `SIGNON ?mygame ******`, `CREATE ?mygame ****** standard`, `OBSERVE mygame ******`,
/// `SET PASSWORD ******`, `HELP`, `GET info`, `LIST`, `LIST mygame`, `RESIGN`, `SIGNOFF`;
/// `REGISTER` alone or as a form (`REGISTER\nName: Ann Smith\nPassword: ******\nEND`); order
/// text as written; press as `PRESS TO frg\n...\nENDPRESS`. Reading a rendering back gives
/// the same command, with `******` for the password.
pub fn render(command: &Command) -> String {
    match &command.kind {
        CommandKind::Help { topic: None } => "HELP".into(),
        CommandKind::Help { topic: Some(topic) } => format!("GET {topic}"),
        CommandKind::Register { name, password } => {
            let mut form = vec!["REGISTER".to_string()];
            if let Some(name) = name {
                form.push(format!("Name: {name}"));
            }
            if password.is_some() {
                form.push(format!("Password: {MASK}"));
            }
            if form.len() > 1 {
                form.push("END".into());
            }
            form.join("\n")
        }
        CommandKind::SetPassword { .. } => format!("SET PASSWORD {MASK}"),
        CommandKind::Create { game, variant, .. } => match variant {
            Some(variant) => format!("CREATE ?{game} {MASK} {variant}"),
            None => format!("CREATE ?{game} {MASK}"),
        },
        CommandKind::Signon { power, game, .. } => {
            let power = power.unwrap_or('?');
            format!("SIGNON {power}{game} {MASK}")
        }
        CommandKind::Observe { game, .. } => format!("OBSERVE {game} {MASK}"),
        CommandKind::Signoff => "SIGNOFF".into(),
        CommandKind::List { game: None } => "LIST".into(),
        CommandKind::List { game: Some(game) } => format!("LIST {game}"),
        CommandKind::History { game } => format!("HISTORY {game}"),
        CommandKind::Credit {
            action: CreditAction::Grant,
            amount,
            power,
        } => format!("CREDIT {amount} TO {power}"),
        CommandKind::Credit {
            action: CreditAction::Pass,
            amount,
            power,
        } => format!("CREDIT PASS {amount} TO {power}"),
        CommandKind::Credit {
            action: CreditAction::End,
            power,
            ..
        } => format!("CREDIT END {power}"),
        CommandKind::Credit {
            action: CreditAction::Ask,
            amount,
            power,
        } => format!("CREDIT ASK {amount} FROM {power}"),
        CommandKind::Resign => "RESIGN".into(),
        CommandKind::Orders { text } => text.clone(),
        CommandKind::Press {
            kind,
            options,
            text,
        } => {
            let (open, close) = match kind {
                PressKind::Press => ("PRESS", "ENDPRESS"),
                PressKind::Broadcast => ("BROADCAST", "ENDBROADCAST"),
                PressKind::Postal => ("POSTAL PRESS", "ENDPRESS"),
            };
            let open = if options.is_empty() {
                open.to_string()
            } else {
                format!("{open} {options}")
            };
            if text.is_empty() {
                format!("{open}\n{close}")
            } else {
                format!("{open}\n{text}\n{close}")
            }
        }
    }
}
