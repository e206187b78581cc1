//! The classic judge's layout (njudge's, as `docs/njudge-letters.md` sets it out): phase tokens
//! (`S1901M`, `F1901R`, `F1901B`), subjects (`STRA:game - S1901M Results`), the `::` header,
//! dates, and the padding and wrapping of its lines, so that tools that import judge mail
//! (jDip first) read our letters. Pure: times come in as values.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::diplomacy::turn::{PhaseKind, Season, Turn};

/// njudge's token for a phase: `S1901M`, `F1901R`, and `F1901B` for the winter adjustments
/// (njudge keeps the `F` of the fall and writes `B`; jDip reads it). Years are written with
/// four digits whatever the era (`S0240M` for 240 BC).
pub fn phase_token(turn: Turn) -> String {
    let season = match turn.season {
        Season::Spring => 'S',
        Season::Fall | Season::Winter => 'F',
    };
    let kind = match turn.kind {
        PhaseKind::Movement => 'M',
        PhaseKind::Retreat => 'R',
        PhaseKind::Adjustment => 'B',
    };
    format!("{season}{:04}{kind}", turn.year.unsigned_abs())
}

/// A subject for a letter about a game: `STRA:game - S1901M Results`.
pub fn subject(code: &str, game: &str, token: &str, what: &str) -> String {
    format!("{code}:{game} - {token} {what}")
}

/// A date in njudge's `:: Deadline:` line (`Fri Mar 07 2025 23:30:00 +0000`), in the game's
/// zone: only there, where tools read it; every other date a letter prints is
/// `Words::when`'s.
pub fn date(at: DateTime<Utc>, zone: &str) -> String {
    let tz: Tz = zone.parse().unwrap_or(chrono_tz::UTC);
    at.with_timezone(&tz)
        .format("%a %b %d %Y %H:%M:%S %z")
        .to_string()
}

/// The word njudge capitalises a name with: its first letter upper-case (`dt` → `Dt`).
pub fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The two `::` lines that open every letter about a game (each letter starts with an empty
/// line before them and has one after): judge code, game, variant; the current phase and its
/// deadline (with njudge's two trailing spaces).
pub fn header(code: &str, game: &str, variant: &str, token: &str, deadline: &str) -> [String; 2] {
    [
        format!(
            ":: Judge: {code}  Game: {}  Variant: {variant}",
            capitalised(game)
        ),
        format!(":: Deadline: {token} {deadline}  "),
    ]
}

/// `name:` followed by spaces so that what follows starts at 1-based column `column + 1`
/// (at least one space).
pub fn padded(name: &str, column: usize) -> String {
    let label = format!("{name}:");
    let width = label.chars().count();
    format!("{label}{}", " ".repeat(column.saturating_sub(width).max(1)))
}

/// Breaks `text` as njudge breaks its long lines: at the last `at` character (`,` for the
/// ownership entries, ` ` for the dislodged units) that leaves a line of at most 78
/// characters, dropping the space after the break, with `indent` spaces before the next
/// line; a text of 78 characters or fewer stays whole.
pub fn wrapped(text: &str, at: char, indent: usize) -> Vec<String> {
    const WIDTH: usize = 78;
    let mut lines = Vec::new();
    let mut rest: String = text.to_string();
    let mut first = true;
    loop {
        let lead = if first { 0 } else { indent };
        let room = WIDTH.saturating_sub(lead);
        let chars: Vec<char> = rest.chars().collect();
        if chars.len() <= room {
            lines.push(format!("{}{rest}", " ".repeat(lead)));
            return lines;
        }
        // The last break character that leaves the line within the room: a comma is kept on
        // this line, so it must stand inside the room; a space is dropped, so it may stand
        // just after it.
        let end = if at == ' ' { room + 1 } else { room };
        let cut = chars[..end.min(chars.len())].iter().rposition(|c| *c == at);
        let Some(cut) = cut.filter(|c| *c > 0) else {
            lines.push(format!("{}{rest}", " ".repeat(lead)));
            return lines;
        };
        let (head, tail): (String, String) = if at == ' ' {
            (
                chars[..cut].iter().collect(),
                chars[cut + 1..].iter().collect(),
            )
        } else {
            (
                chars[..=cut].iter().collect(),
                chars[cut + 1..]
                    .iter()
                    .collect::<String>()
                    .trim_start()
                    .to_string(),
            )
        };
        lines.push(format!("{}{head}", " ".repeat(lead)));
        rest = tail;
        first = false;
    }
}

/// An adjustment count line: `Austria:   3 Supply centers,  3 Units:  Builds   0 units.`
/// (njudge's `%2d Supply center%s %2d Unit%s  %s %2d unit%s.`), with its suffix
/// (`(* VICTORY!! *)`, `(* CD *)`) when given.
pub fn count_line(power: &str, centres: u32, units: u32, suffix: Option<&str>) -> String {
    let label = format!("{power}:");
    let pad = 10usize.saturating_sub(label.chars().count());
    let (verb, difference) = if centres >= units {
        ("Builds ", centres - units)
    } else {
        ("Removes", units - centres)
    };
    let mut line = format!(
        "{label}{}{centres:>2} Supply center{} {units:>2} Unit{}  {verb} {difference:>2} unit{}.",
        " ".repeat(pad),
        if centres == 1 { ", " } else { "s," },
        if units == 1 { ": " } else { "s:" },
        if difference == 1 { "" } else { "s" },
    );
    if let Some(suffix) = suffix {
        line.push_str(if difference == 1 { "   " } else { "  " });
        line.push_str(suffix);
    }
    line
}

/// How long until a deadline, as njudge counts it down (`5 days, 23 hours, 30 minutes, and
/// 0 seconds`), in `words`' language.
pub fn time_left(words: super::Words, left: chrono::TimeDelta) -> String {
    let seconds = left.num_seconds().max(0);
    let (days, hours) = (seconds / 86_400, seconds / 3_600 % 24);
    let (minutes, seconds) = (seconds / 60 % 60, seconds % 60);
    crate::tr!(
        words,
        "classic.time_left",
        days = days,
        hours = hours,
        minutes = minutes,
        seconds = seconds
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(year: i32, season: Season, kind: PhaseKind) -> Turn {
        Turn { year, season, kind }
    }

    #[test]
    fn tokens_are_njudges() {
        assert_eq!(
            phase_token(turn(1901, Season::Spring, PhaseKind::Movement)),
            "S1901M"
        );
        assert_eq!(
            phase_token(turn(1901, Season::Fall, PhaseKind::Retreat)),
            "F1901R"
        );
        assert_eq!(
            phase_token(turn(1901, Season::Winter, PhaseKind::Adjustment)),
            "F1901B"
        );
        assert_eq!(
            phase_token(turn(240, Season::Spring, PhaseKind::Movement)),
            "S0240M"
        );
    }

    #[test]
    fn dates_and_headers_as_njudge_writes_them() {
        let at = DateTime::parse_from_rfc3339("2025-03-07T23:30:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(date(at, "UTC"), "Fri Mar 07 2025 23:30:00 +0000");
        assert_eq!(date(at, "Europe/Moscow"), "Sat Mar 08 2025 02:30:00 +0300");
        let [judge, deadline] = header("STRA", "example", "Standard", "S1901M", &date(at, "UTC"));
        assert_eq!(judge, ":: Judge: STRA  Game: Example  Variant: Standard");
        assert_eq!(
            deadline,
            ":: Deadline: S1901M Fri Mar 07 2025 23:30:00 +0000  "
        );
    }

    #[test]
    fn count_lines_are_spaced_as_njudges() {
        assert_eq!(
            count_line("Austria", 3, 3, None),
            "Austria:   3 Supply centers,  3 Units:  Builds   0 units."
        );
        assert_eq!(
            count_line("Turkey", 5, 4, None),
            "Turkey:    5 Supply centers,  4 Units:  Builds   1 unit."
        );
        assert_eq!(
            count_line("England", 1, 3, None),
            "England:   1 Supply center,   3 Units:  Removes  2 units."
        );
        assert_eq!(
            count_line("France", 10, 1, None),
            "France:   10 Supply centers,  1 Unit:   Builds   9 units."
        );
        assert_eq!(
            count_line("Austria", 2, 3, Some("(* CD *)")),
            "Austria:   2 Supply centers,  3 Units:  Removes  1 unit.   (* CD *)"
        );
    }

    #[test]
    fn long_lines_wrap_as_njudges() {
        // The 79-character Unowned entry of docs/njudge-letters.md §8.3.
        let entry =
            "Unowned:   Belgium, Denmark, Greece, Norway, Portugal, Rumania, Serbia, Sweden.";
        assert_eq!(entry.len(), 79);
        assert_eq!(
            wrapped(entry, ',', 11),
            [
                "Unowned:   Belgium, Denmark, Greece, Norway, Portugal, Rumania, Serbia,",
                "           Sweden."
            ]
        );
        let short = &entry[..78];
        assert_eq!(wrapped(short, ',', 11), [short]);
        // A dislodged line breaks at a space, with no indent (§8.2).
        let line = "The English Fleet in the North Sea can retreat to Edinburgh or Norwegian Sea \
                    or Norway or Skagerrak or Helgoland Bight or Belgium or London.";
        assert_eq!(
            wrapped(line, ' ', 0),
            [
                "The English Fleet in the North Sea can retreat to Edinburgh or Norwegian Sea",
                "or Norway or Skagerrak or Helgoland Bight or Belgium or London."
            ]
        );
        assert_eq!(padded("Austria", 11), "Austria:   ");
        assert_eq!(padded("Austria", 26), format!("Austria:{}", " ".repeat(18)));
    }
}
