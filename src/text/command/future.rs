//! A power's commands beyond the orders of the phase (NJ:syntax, NJ:index): `PHASE season
//! year phase` (the orders after it are kept for that phase), `CLEAR` (orders withdrawn) and
//! `DIARY` (a private diary, published when the game ends).

use std::fmt;

use super::super::Severity;
use super::CommandKind;
use super::args::Args;
use super::block;
use super::line::Word;

/// A phase as `PHASE` names it: `Fall 1902 Movement`, `F1902M`, `Winter 1902`. The season is
/// its first letter (`S`pring, s`U`mmer, `F`all or `A`utumn, `W`inter), the kind too
/// (`M`ovement, `R`etreat, `B`uild or `A`djustment; none for a winter); which phase of a game
/// it is the judge decides with the game's calendar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseName {
    pub season: char,
    pub year: i32,
    /// `M`, `R` or `B`; `None` when not written.
    pub kind: Option<char>,
    /// The words as written, joined by single spaces.
    pub text: String,
}

impl fmt::Display for PhaseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// What `DIARY` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiaryAction {
    /// `DIARY` or `DIARY RECORD`, then the entry's lines up to `ENDPRESS` (as press).
    Record { text: String },
    /// `DIARY LIST`: the entries, numbered, with when each was written.
    List,
    /// `DIARY READ n`.
    Read(u32),
    /// `DIARY DELETE n [n...]`.
    Delete(Vec<u32>),
}

/// The season letter a word stands for.
fn season(word: &str) -> Option<char> {
    if word.len() > 1 && word[..2].eq_ignore_ascii_case("su") {
        return Some('U');
    }
    match word.chars().next()?.to_ascii_uppercase() {
        'S' => Some('S'),
        'U' => Some('U'),
        'F' | 'A' => Some('F'),
        'W' => Some('W'),
        _ => None,
    }
}

/// The phase kind letter a word stands for.
fn kind(word: &str) -> Option<char> {
    match word.chars().next()?.to_ascii_uppercase() {
        'M' => Some('M'),
        'R' => Some('R'),
        'B' | 'A' => Some('B'),
        _ => None,
    }
}

/// A year: digits, maybe followed by an era word the caller skips.
fn year(word: &str) -> Option<i32> {
    (word.len() <= 5 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
}

impl Args<'_> {
    /// `PHASE season year [phase]`, `PHASE S1902M`, or the phase as letters name it (`PHASE
    /// Movement for Fall of 1902`); an era word (`BC`, `AD`) after the year is allowed.
    pub(super) fn phase(&mut self, args: &[Word]) -> Option<CommandKind> {
        const USAGE: &str = "PHASE takes a season, a year and a phase, like: PHASE Fall 1902 \
                             Movement, or PHASE F1902M";
        let text = args.iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
        let is_era =
            |w: &Word| ["bc", "ad", "b.c.", "a.d."].contains(&w.text.to_lowercase().as_str());
        // `of` and `for` as letters print a phase: `Movement for Fall of 1902`.
        let is_joint = |w: &Word| ["of", "for"].contains(&w.text.to_lowercase().as_str());
        let words: Vec<&Word> = args.iter().filter(|w| !is_era(w) && !is_joint(w)).collect();
        let read = match words.as_slice() {
            // S1902M: season, year, kind glued.
            [token] if token.text.len() >= 3 => {
                let t = token.text;
                let (first, rest) = t.split_at(1);
                let (digits, last) = rest.split_at(rest.len() - 1);
                match (season(first), year(digits), kind(last)) {
                    (Some(s), Some(y), Some(k))
                        if first.chars().all(|c| c.is_ascii_alphabetic()) =>
                    {
                        Some((s, y, Some(k)))
                    }
                    _ => None,
                }
            }
            [s, y] => season(s.text).zip(year(y.text)).map(|(s, y)| (s, y, None)),
            [s, y, k] if year(y.text).is_some() => {
                match (season(s.text), year(y.text), kind(k.text)) {
                    (Some(s), Some(y), Some(k)) => Some((s, y, Some(k))),
                    _ => None,
                }
            }
            // The kind first, as letters name a phase: `Movement for Fall of 1902`.
            [k, s, y] => match (season(s.text), year(y.text), kind(k.text)) {
                (Some(s), Some(y), Some(k)) => Some((s, y, Some(k))),
                _ => None,
            },
            _ => None,
        };
        let Some((season, year, kind)) = read else {
            let column = args.first().map_or(self.keyword.column, |w| w.column);
            self.report(Severity::Error, column, USAGE);
            return None;
        };
        if kind.is_none() && season != 'W' {
            return self.usage(USAGE);
        }
        Some(CommandKind::Phase(PhaseName {
            season,
            year,
            kind,
            text,
        }))
    }

    /// `CLEAR`, with nothing after it.
    pub(super) fn clear(&mut self, args: &[Word]) -> Option<CommandKind> {
        match args.first() {
            None => Some(CommandKind::Clear),
            Some(word) => {
                let message = "CLEAR takes nothing after it, so nothing was cleared";
                self.report(Severity::Error, word.column, message);
                None
            }
        }
    }
}

/// `DIARY [RECORD|LIST|READ n|DELETE n...]` on `lines[next - 1]`; RECORD (or nothing) takes
/// the lines after it up to `ENDPRESS` as the entry. Also the index of the first line not read.
pub(super) fn diary(
    args: &mut Args,
    rest: &[Word],
    lines: &[&str],
    next: usize,
) -> (Option<CommandKind>, usize) {
    const USAGE: &str = "DIARY takes RECORD (then the entry, up to ENDPRESS), LIST, READ n or \
                         DELETE n, like: DIARY READ 2";
    let option = rest.first().map(|w| w.text.to_ascii_uppercase());
    let numbers = |args: &mut Args, words: &[Word]| -> Option<Vec<u32>> {
        if words.is_empty() {
            args.usage::<()>(USAGE);
            return None;
        }
        let mut numbers = Vec::new();
        for word in words {
            numbers.push(args.number(word, 1..=9999, "a diary entry is a number, like 2")?);
        }
        Some(numbers)
    };
    let action = match option.as_deref() {
        None | Some("RECORD") => {
            if rest.len() > 1 {
                args.report(Severity::Error, rest[1].column, USAGE);
                return (None, next);
            }
            let (text, after) = block::press(lines, next);
            return (
                Some(CommandKind::Diary(DiaryAction::Record { text })),
                after,
            );
        }
        Some("LIST") if rest.len() == 1 => Some(DiaryAction::List),
        Some("READ") => match numbers(args, &rest[1..]).as_deref() {
            Some([n]) => Some(DiaryAction::Read(*n)),
            Some(_) => {
                args.usage::<()>(USAGE);
                None
            }
            None => None,
        },
        Some("DELETE") => numbers(args, &rest[1..]).map(DiaryAction::Delete),
        Some(_) => {
            args.report(Severity::Error, rest[0].column, USAGE);
            None
        }
    };
    (action.map(CommandKind::Diary), next)
}

/// A DIARY command as the judge echoes it.
pub(super) fn render_diary(action: &DiaryAction) -> String {
    match action {
        DiaryAction::Record { text } if text.is_empty() => "DIARY RECORD\nENDPRESS".into(),
        DiaryAction::Record { text } => format!("DIARY RECORD\n{text}\nENDPRESS"),
        DiaryAction::List => "DIARY LIST".into(),
        DiaryAction::Read(n) => format!("DIARY READ {n}"),
        DiaryAction::Delete(numbers) => format!(
            "DIARY DELETE {}",
            numbers
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}
