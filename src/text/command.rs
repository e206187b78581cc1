//! The body of a letter read into judge commands (`parse_commands`) and echoed back (`render`).
//!
//! Reading never fails. The vocabulary is the classic judge's (judge-conventions.md §1.1-1.3);
//! keywords are in any case, with the spaces between a keyword's words optional (`SIGN ON`):
//!
//! - `HELP [topic]`; `GET file`, `SEND [ME] file`: `Help`; `GET MAP [game]`, njudge's `MAP [game]`: `GetMap`.
//! - `REGISTER`, then optional form lines `Name: ...`, `Password: ...` (the other fields of
//!   njudge's form, NJ:form, are read and dropped) up to `END`, a blank line or any line that
//!   is not `Field: value`; or on one line `REGISTER password [name...]` (form lines may
//!   follow it too): `Register`.
//! - `SET PASSWORD new`: `SetPassword`.
//! - `SET setting...`: `Set`, a typed `Setting` (see `set.rs` for every phrase and synonym:
//!   ADDRESS, [NO]WAIT, [NO]ABSENCE (HOLIDAY, VACATION), [NO]DRAW, [NO]CONC[EDE], PREFERENCE,
//!   LANGUAGE, MOVE|RETREAT|ADJUST deadlines, ZONE, WHITE|GREY|NO PRESS, [NO] PARTIAL,
//!   OBSERVER, ALL|NORMAL PRESS, [NO] NMR|CD, PUBLIC|PRIVATE|[NO] LIST, ALLOW|DENY [PLAYER],
//!   [NO] DIAS, [UN]MODERATED, MAX ABSENCE, GAME LANGUAGE, SHOW|HIDE ADDRESS, [NOT]
//!   ANONYMOUS). `SET` with a setting we do not know is an error, not order text.
//! - `CREATE ?game password [variant] [MODERATED] [PRIVATE] [ANONYMOUS]`, the `?` optional,
//!   the options anywhere after the password: `Create`.
//! - `SIGNON Fgame password` (power letter glued to the game), `SIGNON F game password` (a
//!   lone letter first), `SIGNON ?game password` (join a forming game); words after the
//!   password are not read (warning); HELLO and LOGIN are synonyms: `Signon`.
//!   `SIGNON Ogame` and `SIGNON Mgame` are read as they are, power `O` or `M`.
//! - `OBSERVE game password`, `WATCH game password`: `Observe`.
//! - `SIGNOFF`: nothing after it is read.
//! - `LIST`, `LIST game`: `List`.
//! - `HISTORY game [FROM yyyy-mm-dd] [TO yyyy-mm-dd]`: `History` (njudge's `LINES` and
//!   `EXCLSTART` are not read). `SUMMARY [game]` (STATUS, NJ:mail.c): `Summary`.
//!   `WHOIS who` (`WHO IS`): `Whois`.
//! - The master's commands (§1.4), one a line: `PROCESS [phase]`, `PREDICT` (PREVIEW),
//!   `PAUSE` (SUSPEND), `RESUME`, `TERMINATE`, `EXTEND [hours]` (24 by default, 1 to 720),
//!   `BECOME power`, `EJECT power|address`, `PROMOTE address`, `FORCE BEGIN`,
//!   `ROLLBACK [n]`. Those that take nothing refuse words after them (an error).
//! - `CREDIT n TO power`, `CREDIT PASS n TO power`, `CREDIT END power`, `CREDIT ASK n FROM
//!   power`: `Credit` (Diadochi V's supply credit).
//! - `RESIGN`, `WITHDRAW`: `Resign`, with nothing after it on the line.
//! - `CONFIRM token`: `Confirm`, the token the judge mailed to an address.
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
mod future;
mod line;
mod master;
mod phrases;
mod reply;
mod set;
mod setting;
mod unsupported;

use super::Diagnostic;
use super::date::WrittenDate;
use args::Args;
pub use future::{DiaryAction, PhaseName};
use line::Word;
use master::Master;
pub use reply::own_text;
pub use setting::{ObserverPress, PhaseSetting, PressMode, Setting, render as render_setting};
pub use unsupported::Unsupported;

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
    /// `GET MAP [game]`: the picture of the game's board, mailed as `map.png` (the game
    /// signed on to when none is named).
    GetMap { game: Option<String> },
    /// `REGISTER` with its form, or `REGISTER password [name...]`.
    Register {
        name: Option<String>,
        password: Option<String>,
        /// Written as njudge's form (`Name:` and `Password:` lines after it), so it is
        /// echoed as a form; else on one line, and echoed so.
        form: bool,
    },
    /// `SET PASSWORD new`.
    SetPassword { password: String },
    /// `CREATE ?game password [variant] [MODERATED] [PRIVATE] [ANONYMOUS]`.
    Create {
        game: String,
        password: String,
        variant: Option<String>,
        moderated: bool,
        /// `PRIVATE`: the game is private from the start (`SET PRIVATE`).
        private: bool,
        /// `ANONYMOUS`: the players' identities stay hidden until the game ends.
        anonymous: bool,
    },
    /// `SIGNON Fgame password` (power `F`), `SIGNON ?game password` (no power yet).
    Signon {
        power: Option<char>,
        game: String,
        password: String,
    },
    /// `SIGNON ? password`: join whichever game is forming (njudge: the next one).
    SignonAny { password: String },
    /// `OBSERVE game password`, `WATCH game password`.
    Observe { game: String, password: String },
    /// `SIGNOFF`: the end of what is read.
    Signoff,
    /// `LIST`, `LIST FULL` (with each game's settings and players), `LIST game`.
    List { game: Option<String>, full: bool },
    /// `HISTORY [game] [FROM date] [TO date] [LINES n]` or `HISTORY [game] EXCLSTART phase
    /// [EXCLEND phase] [BROAD]`: the game's archive of reports (the signed-on game when none
    /// is named); dates in njudge's forms, phases as njudge names them (`S1903M`).
    History {
        game: Option<String>,
        from: Option<WrittenDate>,
        to: Option<WrittenDate>,
        lines: Option<u32>,
        /// `EXCLSTART a [EXCLEND b]`: leave out the phases from `a` (to `b`, both included).
        exclude: Option<(String, Option<String>)>,
    },
    /// `SUMMARY [game]`, `STATUS [game]`: who held which power, and the centres by year.
    Summary { game: Option<String> },
    /// `WHOIS who`, `WHO IS who`, `WHO who`: an address, the start of addresses, or a name,
    /// as written (words joined by a space).
    Whois { who: String },
    /// `WHO GAME [game] [FULL]`: WHOIS for every player of the game (and its observers with
    /// FULL).
    WhoGame { game: Option<String>, full: bool },
    /// `VERSION`: the judge's software and version.
    Version,
    /// `I AM ALSO address [password]`, `IAMALSO address`: the address is the sender's account's
    /// too (njudge's way round also: from the new address, naming one the account has).
    IAmAlso {
        address: String,
        password: Option<String>,
    },
    /// `I AM NOT address [password]`: the address is no longer one of the account's.
    IAmNot {
        address: String,
        password: Option<String>,
    },
    /// `PHASE season year phase`: the order lines after it, up to the next PHASE, are for that
    /// phase, kept until it comes (`PHASE Fall 1902 Movement`, `PHASE F1902M`).
    Phase(PhaseName),
    /// `CLEAR`: the power's orders are withdrawn (after PHASE, those kept for that phase).
    Clear,
    /// `DIARY [RECORD|LIST|READ n|DELETE n...]`: a player's diary in the game.
    Diary(DiaryAction),
    /// `UNSTART`: a game whose first phase is not yet processed forms again.
    Unstart,
    /// `BECOME MASTER`: the only player of a forming game becomes its master.
    BecomeMaster,
    /// A command of the classic judges this judge does not offer (`INFO PLAYER`, `MAP`, the
    /// keeper's `ADJUST`...), as written: answered with why and what to use instead.
    Unsupported { phrase: String, what: Unsupported },
    /// `SET ...` (other than `SET PASSWORD`): one setting.
    Set(Setting),
    /// `PROCESS [phase]`: process now; the phase, if given, as written (`Spring 1901
    /// movement`), guards against processing the wrong one.
    Process { phase: Option<String> },
    /// `PREDICT`, `PREVIEW`: a preview of the adjudication for the master.
    Predict,
    /// `PAUSE`, `SUSPEND`: stop the deadlines.
    Pause,
    /// `RESUME`.
    Resume,
    /// `TERMINATE`: end the game.
    Terminate,
    /// `EXTEND [hours]`: push the deadline back, 24 hours by default, 1 to 720.
    Extend { hours: u32 },
    /// `BECOME power`: the power lower-case as written (`france`, `f`, `master`).
    Become { power: String },
    /// `EJECT power` (lower-case) or `EJECT address` (as written).
    Eject { who: String },
    /// `PROMOTE address`: an observer becomes a master.
    Promote { who: String },
    /// `FORCE BEGIN`: start the game short of players.
    ForceBegin,
    /// `ROLLBACK [n]`: back to the start of phase `n` (0 is the game's first phase), or to
    /// the start of the phase before this one.
    Rollback { phase: Option<u32> },
    /// Supply credit between powers (Diadochi V rule 8): `CREDIT 2 TO egypt`,
    /// `CREDIT PASS 1 TO syria`, `CREDIT END egypt`, `CREDIT ASK 2 FROM rome`.
    Credit {
        action: CreditAction,
        amount: u32,
        power: String,
    },
    /// `RESIGN`, `WITHDRAW`.
    Resign,
    /// `CONFIRM token`: the token the judge mailed to an address, sent back from it.
    Confirm { token: String },
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
const KEYWORDS: &[(&[&str], Keyword)] = &[
    (&["HELP"], Keyword::Help),
    (&["GET"], Keyword::Get),
    (&["SEND", "ME"], Keyword::Get),
    (&["SEND"], Keyword::Get),
    (&["REGISTER"], Keyword::Register),
    (&["SET", "PASSWORD"], Keyword::SetPassword),
    (&["SET"], Keyword::Set),
    (&["CREATE"], Keyword::Create),
    (&["SIGN", "ON"], Keyword::Signon),
    (&["HELLO"], Keyword::Signon),
    (&["LOGIN"], Keyword::Signon),
    (&["OBSERVE"], Keyword::Observe),
    (&["WATCH"], Keyword::Observe),
    (&["SIGN", "OFF"], Keyword::Signoff),
    (&["LIST"], Keyword::List),
    (&["HISTORY"], Keyword::Master(Master::History)),
    (&["SUMMARY"], Keyword::Master(Master::Summary)),
    (&["STATUS"], Keyword::Master(Master::Summary)),
    (&["WHO", "GAME"], Keyword::Master(Master::WhoGame)),
    (&["WHO", "IS"], Keyword::Master(Master::Whois)),
    (&["WHO"], Keyword::Master(Master::Whois)),
    (&["PROCESS"], Keyword::Master(Master::Process)),
    (&["PREDICT"], Keyword::Master(Master::Predict)),
    (&["PREVIEW"], Keyword::Master(Master::Predict)),
    (&["PAUSE"], Keyword::Master(Master::Pause)),
    (&["SUSPEND"], Keyword::Master(Master::Pause)),
    (&["RESUME"], Keyword::Master(Master::Resume)),
    (&["TERMINATE"], Keyword::Master(Master::Terminate)),
    (&["EXTEND"], Keyword::Master(Master::Extend)),
    (&["BECOME", "MASTER"], Keyword::Master(Master::Mastery)),
    (&["BECOME"], Keyword::Master(Master::Become)),
    (&["EJECT"], Keyword::Master(Master::Eject)),
    (&["PROMOTE"], Keyword::Master(Master::Promote)),
    (&["FORCE", "BEGIN"], Keyword::Master(Master::ForceBegin)),
    (&["ROLLBACK"], Keyword::Master(Master::Rollback)),
    (&["UNSTART"], Keyword::Master(Master::Unstart)),
    (&["VERSION"], Keyword::Master(Master::Version)),
    (&["I", "AM", "ALSO"], Keyword::Master(Master::IAmAlso)),
    (&["I", "AM", "NOT"], Keyword::Master(Master::IAmNot)),
    (&["PHASE"], Keyword::Phase),
    (&["CLEAR"], Keyword::Clear),
    (&["DIARY"], Keyword::Diary),
    (&["CREDIT"], Keyword::Credit),
    (&["RESIGN"], Keyword::Resign),
    (&["CONFIRM"], Keyword::Confirm),
    (&["WITHDRAW"], Keyword::Resign),
    (&["POSTAL", "PRESS"], Keyword::Press(PressKind::Postal)),
    (&["PRESS"], Keyword::Press(PressKind::Press)),
    (&["BROADCAST"], Keyword::Press(PressKind::Broadcast)),
    (
        &["INFO", "PLAYER"],
        Keyword::Unsupported(Unsupported::PlayerInfo),
    ),
    (&["MAP"], Keyword::Map),
    (&["ADJUST"], Keyword::Unsupported(Unsupported::Keeper)),
    (&["RECORD"], Keyword::Unsupported(Unsupported::Keeper)),
    (&["FIXID"], Keyword::Unsupported(Unsupported::Keeper)),
    (&["NOCONTROL"], Keyword::Unsupported(Unsupported::Keeper)),
    // DPjudge's commands (judge-conventions.md §1.5): JOIN is SIGNON ?, the rest answered.
    (&["JOIN"], Keyword::Join),
    (&["TAKEOVER"], Keyword::Unsupported(Unsupported::Takeover)),
    (
        &["TAKE", "OVER"],
        Keyword::Unsupported(Unsupported::Takeover),
    ),
    (&["VOTE"], Keyword::Unsupported(Unsupported::Vote)),
    (&["PROPOSE"], Keyword::Unsupported(Unsupported::Vote)),
    (&["MONITOR"], Keyword::Unsupported(Unsupported::Monitor)),
    (&["RENAME"], Keyword::Unsupported(Unsupported::DpMaster)),
    (&["FORM"], Keyword::Unsupported(Unsupported::DpMaster)),
    (&["ACTIVATE"], Keyword::Unsupported(Unsupported::DpMaster)),
    (&["DUMMY"], Keyword::Unsupported(Unsupported::DpMaster)),
    (&["PURGE"], Keyword::Unsupported(Unsupported::DpMaster)),
    (&["REVIVE"], Keyword::Unsupported(Unsupported::DpMaster)),
    (
        &["ROLLFORWARD"],
        Keyword::Unsupported(Unsupported::DpMaster),
    ),
    (&["OFFICIAL"], Keyword::Unsupported(Unsupported::DpMaster)),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Help,
    Get,
    /// njudge's `MAP game [n]`: the picture of the board, as `GET MAP game`.
    Map,
    Register,
    SetPassword,
    /// Any other `SET`; its handler reads the line's words from `SET` on.
    Set,
    Create,
    Signon,
    Observe,
    Signoff,
    List,
    Master(Master),
    Credit,
    Resign,
    Confirm,
    Press(PressKind),
    Phase,
    Clear,
    Diary,
    Join,
    Unsupported(Unsupported),
}

/// The command nearest to `word` (an unknown line's first word), for "did you mean": a
/// keyword within two letters' edits of it (one, for a word of four letters or fewer, so
/// `foo` is not taken for `WHO`), if `word` is a word of three letters or more.
pub fn nearest_command(word: &str) -> Option<String> {
    // Two edits cannot bridge a longer difference in length: a long word costs nothing.
    if !(3..=24).contains(&word.len()) || !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let word = word.to_uppercase();
    let most = if word.len() <= 4 { 1 } else { 2 };
    KEYWORDS
        .iter()
        .map(|(phrase, _)| phrase.concat())
        .filter(|keyword| keyword != &word && keyword.len().abs_diff(word.len()) <= most)
        .map(|keyword| (edits(&word, &keyword), keyword))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, keyword)| keyword)
}

/// The edit distance between two words, a swap of two neighbouring letters counting as one
/// edit (optimal string alignment), as typing slips are.
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The keyword the line starts with, and how many words it takes; a setting glued to `SET`
/// (`SETNOWAIT`) is `Set` too.
fn keyword(words: &[Word]) -> Option<(Keyword, usize)> {
    KEYWORDS
        .iter()
        .find_map(|(phrase, keyword)| Some((*keyword, line::spells(words, phrase)?)))
        .or_else(|| set::starts_setting(words).then_some((Keyword::Set, 1)))
}

/// Read the commands in the body of a letter. Never fails; see the module documentation for
/// what is read. The diagnostics are in line order.
pub fn parse_commands(body: &str) -> (Vec<Command>, Vec<Diagnostic>) {
    let all: Vec<&str> = body.lines().collect();
    // Only the sender's own words are read: not quotes, nor a reproduced original below them.
    let own = reply::own_part(&all);
    let lines = &all[..own.end];
    let skipped = own.skipped;
    let mut reader = Reader {
        lines,
        commands: Vec::new(),
        diagnostics: Vec::new(),
        run: None,
    };
    let mut index = 0;
    while let Some(&text) = lines.get(index) {
        index += 1;
        if text.trim().is_empty() {
            continue;
        }
        if skipped[index - 1] || line::is_comment(text) {
            reader.flush();
            continue;
        }
        let words = line::words(text);
        // njudge's HELLO and LOGIN are SIGNON only as SIGNON is written (a game and a
        // password after them): "Hello there," opening a letter is no command.
        let greeting = |keyword: &Keyword, used: usize| {
            matches!(keyword, Keyword::Signon)
                && ["HELLO", "LOGIN"]
                    .iter()
                    .any(|w| words[0].text.eq_ignore_ascii_case(w))
                && !(2..=3).contains(&(words.len() - used))
        };
        let Some((keyword, used)) = keyword(&words).filter(|(k, used)| !greeting(k, *used)) else {
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
            Keyword::Set => args.set(&words),
            Keyword::Create => args.create(rest),
            Keyword::Signon => args.signon(rest),
            Keyword::Observe => args.observe(rest),
            Keyword::List => args.list(rest),
            Keyword::Master(which) => args.master(which, rest),
            Keyword::Credit => args.credit(rest),
            Keyword::Resign => args.resign(rest),
            Keyword::Confirm => args.confirm(rest),
            Keyword::Signoff => Some(CommandKind::Signoff),
            Keyword::Phase => args.phase(rest),
            Keyword::Join => args.join(rest),
            Keyword::Map => args.map(rest),
            Keyword::Clear => args.clear(rest),
            Keyword::Unsupported(what) => {
                let phrase = words[..used]
                    .iter()
                    .map(|w| w.text.to_uppercase())
                    .collect::<Vec<_>>()
                    .join(" ");
                Some(CommandKind::Unsupported { phrase, what })
            }
            Keyword::Diary => {
                let (kind, next) = future::diary(&mut args, rest, lines, index);
                index = next;
                kind
            }
            Keyword::Register => {
                let (kind, next) = block::register(&mut args, rest, lines, index);
                index = next;
                kind
            }
            Keyword::Press(kind) => {
                let (text, next) = block::press(lines, index);
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

/// ` ******` where a password was written, nothing where none was.
fn masked(password: Option<&str>) -> &'static str {
    if password.is_some() { " ******" } else { "" }
}

/// A command as the judge echoes it in replies, passwords masked: `SIGNON Fmygame ******`,
/// `SIGNON ?mygame ******`, `CREATE ?mygame ****** standard MODERATED`, `OBSERVE mygame
/// ******`, `SET PASSWORD ******`, `HELP`, `GET info`, `LIST`, `LIST mygame`, `RESIGN`,
/// `SIGNOFF`, `HISTORY mygame FROM 2027-01-01`, `SET ABSENCE 2027-02-01 TO 2027-02-10`,
/// `SET MOVE CLOCK 12:00 NEXT 48 GRACE 24 DAYS -MTWTF-`, `EXTEND 24`, `PROCESS`;
/// `REGISTER` alone or as a form (`REGISTER\nName: Ann Smith\nPassword: ******\nEND`); order
/// text as written; press as `PRESS TO frg\n...\nENDPRESS`. Reading a rendering back gives
/// the same command, with `******` for the password.
pub fn render(command: &Command) -> String {
    match &command.kind {
        CommandKind::Help { topic: None } => "HELP".into(),
        CommandKind::Help { topic: Some(topic) } => {
            match (topic.strip_prefix("info-"), topic.strip_prefix("ics.")) {
                (Some(variant), _) => format!("GET info {variant}"),
                (_, Some(game)) => format!("GET ics {game}"),
                _ => format!("GET {topic}"),
            }
        }
        CommandKind::GetMap { game: None } => "GET MAP".into(),
        CommandKind::GetMap { game: Some(game) } => format!("GET MAP {game}"),
        CommandKind::Register {
            name,
            password,
            form: true,
        } => {
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
        CommandKind::Register {
            name,
            password,
            form: false,
        } => {
            let mut line = "REGISTER".to_string();
            if password.is_some() {
                line.push(' ');
                line.push_str(MASK);
            }
            if let Some(name) = name {
                line.push(' ');
                line.push_str(name);
            }
            line
        }
        CommandKind::SetPassword { .. } => format!("SET PASSWORD {MASK}"),
        CommandKind::Create {
            game,
            variant,
            moderated,
            private,
            anonymous,
            ..
        } => {
            let mut text = format!("CREATE ?{game} {MASK}");
            if let Some(variant) = variant {
                text.push_str(&format!(" {variant}"));
            }
            for (on, word) in [
                (moderated, " MODERATED"),
                (private, " PRIVATE"),
                (anonymous, " ANONYMOUS"),
            ] {
                if *on {
                    text.push_str(word);
                }
            }
            text
        }
        CommandKind::Signon { power, game, .. } => {
            let power = power.unwrap_or('?');
            format!("SIGNON {power}{game} {MASK}")
        }
        CommandKind::SignonAny { .. } => format!("SIGNON ? {MASK}"),
        CommandKind::Observe { game, .. } => format!("OBSERVE {game} {MASK}"),
        CommandKind::Signoff => "SIGNOFF".into(),
        CommandKind::List {
            game: None,
            full: false,
        } => "LIST".into(),
        CommandKind::List {
            game: None,
            full: true,
        } => "LIST FULL".into(),
        CommandKind::List {
            game: Some(game), ..
        } => format!("LIST {game}"),
        CommandKind::History {
            game,
            from,
            to,
            lines,
            exclude,
        } => {
            let mut text = "HISTORY".to_string();
            if let Some(game) = game {
                text.push_str(&format!(" {game}"));
            }
            if let Some(from) = from {
                text.push_str(&format!(" FROM {from}"));
            }
            if let Some(to) = to {
                text.push_str(&format!(" TO {to}"));
            }
            if let Some(lines) = lines {
                text.push_str(&format!(" LINES {lines}"));
            }
            if let Some((start, end)) = exclude {
                text.push_str(&format!(" EXCLSTART {start}"));
                if let Some(end) = end {
                    text.push_str(&format!(" EXCLEND {end}"));
                }
            }
            text
        }
        CommandKind::Summary { game: None } => "SUMMARY".into(),
        CommandKind::Summary { game: Some(game) } => format!("SUMMARY {game}"),
        CommandKind::Whois { who } => format!("WHOIS {who}"),
        CommandKind::WhoGame { game, full } => {
            let mut text = "WHO GAME".to_string();
            if let Some(game) = game {
                text.push_str(&format!(" {game}"));
            }
            if *full {
                text.push_str(" FULL");
            }
            text
        }
        CommandKind::Version => "VERSION".into(),
        CommandKind::IAmAlso { address, password } => {
            format!("I AM ALSO {address}{}", masked(password.as_deref()))
        }
        CommandKind::IAmNot { address, password } => {
            format!("I AM NOT {address}{}", masked(password.as_deref()))
        }
        CommandKind::Phase(phase) => format!("PHASE {phase}"),
        CommandKind::Clear => "CLEAR".into(),
        CommandKind::Diary(action) => future::render_diary(action),
        CommandKind::Unstart => "UNSTART".into(),
        CommandKind::BecomeMaster => "BECOME MASTER".into(),
        CommandKind::Unsupported { phrase, .. } => phrase.clone(),
        CommandKind::Set(setting) => setting::render(setting),
        CommandKind::Process { phase: None } => "PROCESS".into(),
        CommandKind::Process { phase: Some(phase) } => format!("PROCESS {phase}"),
        CommandKind::Predict => "PREDICT".into(),
        CommandKind::Pause => "PAUSE".into(),
        CommandKind::Resume => "RESUME".into(),
        CommandKind::Terminate => "TERMINATE".into(),
        CommandKind::Extend { hours } => format!("EXTEND {hours}"),
        CommandKind::Become { power } => format!("BECOME {power}"),
        CommandKind::Eject { who } => format!("EJECT {who}"),
        CommandKind::Promote { who } => format!("PROMOTE {who}"),
        CommandKind::ForceBegin => "FORCE BEGIN".into(),
        CommandKind::Rollback { phase: None } => "ROLLBACK".into(),
        CommandKind::Rollback { phase: Some(phase) } => format!("ROLLBACK {phase}"),
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
        CommandKind::Confirm { token } => format!("CONFIRM {token}"),
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
