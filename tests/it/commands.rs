//! Letter bodies read into judge commands: the table in `tests/data/text/commands.txt`, and
//! property tests that the reader never panics and reports lines that exist.

use proptest::prelude::*;

use strategos::text::command::{Command, CommandKind, parse_commands, render};
use strategos::text::{Diagnostic, Severity};

#[test]
fn the_command_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/text/commands.txt");
    let table = std::fs::read_to_string(path).unwrap();
    let mut cases = 0;
    let mut failures = Vec::new();
    for (index, line) in table.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        cases += 1;
        if let Err(why) = check_case(line) {
            failures.push(format!(
                "commands table line {}: {line}\n    {why}",
                index + 1
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(cases, 451, "the number of cases in the table changed");
}

/// A diagnostic a case expects.
struct Expected {
    severity: Severity,
    line: usize,
    column: usize,
    /// Must occur in the message.
    text: String,
}

fn check_case(case: &str) -> Result<(), String> {
    let mut fields = case.split('|').map(str::trim);
    let input = unescape(fields.next().unwrap_or_default());
    let mut want_commands = Vec::new();
    let mut want_diagnostics = Vec::new();
    for item in fields.filter(|f| !f.is_empty()) {
        match expected_diagnostic(item)? {
            Some(d) => want_diagnostics.push(d),
            None => want_commands.push(expected_command(item)?),
        }
    }
    let (commands, diagnostics) = parse_commands(&input);
    let got: Vec<(usize, String)> = commands.iter().map(|c| (c.line, render(c))).collect();
    if got != want_commands {
        return Err(format!(
            "commands: got {got:?}, expected {want_commands:?}; diagnostics {:?}",
            show(&diagnostics)
        ));
    }
    let matches = diagnostics.len() == want_diagnostics.len()
        && diagnostics.iter().zip(&want_diagnostics).all(|(d, w)| {
            d.severity == w.severity
                && d.line == w.line
                && d.column == w.column
                && d.message.contains(&w.text)
        });
    if !matches {
        return Err(format!("diagnostics: got {:?}", show(&diagnostics)));
    }
    if let Some(d) = diagnostics.iter().find(|d| d.message.contains("pw")) {
        return Err(format!("a diagnostic shows a password: {}", d.message));
    }
    for command in &commands {
        reads_back(command)?;
    }
    Ok(())
}

/// A command's rendering reads back as the same command, its password masked.
fn reads_back(command: &Command) -> Result<(), String> {
    let text = render(command);
    let (again, diagnostics) = parse_commands(&text);
    let want = masked(&command.kind);
    let got: Vec<&CommandKind> = again.iter().map(|c| &c.kind).collect();
    if got != [&want] || !diagnostics.is_empty() {
        return Err(format!(
            "{text:?} reads back as {got:?}, {:?}",
            show(&diagnostics)
        ));
    }
    Ok(())
}

fn masked(kind: &CommandKind) -> CommandKind {
    let mask = || "******".to_string();
    let mut kind = kind.clone();
    match &mut kind {
        CommandKind::Register { password, .. }
        | CommandKind::IAmAlso { password, .. }
        | CommandKind::IAmNot { password, .. } => *password = password.as_ref().map(|_| mask()),
        CommandKind::SetPassword { password }
        | CommandKind::Create { password, .. }
        | CommandKind::Signon { password, .. }
        | CommandKind::SignonAny { password }
        | CommandKind::Observe { password, .. } => *password = mask(),
        CommandKind::Set(strategos::text::command::Setting::Address { password, .. }) => {
            *password = password.as_ref().map(|_| mask())
        }
        _ => {}
    }
    kind
}

/// `\n`, `\r`, `\t`, `\s` (space), `\0` and `\\` as the table's header describes.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('s') => out.push(' '),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// `3: TEXT`.
fn expected_command(item: &str) -> Result<(usize, String), String> {
    let (line, text) = item
        .split_once(": ")
        .ok_or_else(|| format!("'{item}': write 'LINE: command'"))?;
    let line = line
        .parse()
        .map_err(|_| format!("'{item}': write 'LINE: command'"))?;
    Ok((line, unescape(text)))
}

/// `ERROR@2:7: text`, `WARNING@1:3: text`; `None` for a command.
fn expected_diagnostic(item: &str) -> Result<Option<Expected>, String> {
    let (severity, rest) = if let Some(rest) = item.strip_prefix("ERROR@") {
        (Severity::Error, rest)
    } else if let Some(rest) = item.strip_prefix("WARNING@") {
        (Severity::Warning, rest)
    } else {
        return Ok(None);
    };
    let bad = || format!("'{item}': write 'ERROR@line:column: text'");
    let (line, rest) = rest.split_once(':').ok_or_else(bad)?;
    let (column, text) = rest.split_once(": ").ok_or_else(bad)?;
    Ok(Some(Expected {
        severity,
        line: line.parse().map_err(|_| bad())?,
        column: column.parse().map_err(|_| bad())?,
        text: text.trim().to_string(),
    }))
}

fn show(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{:?}@{}:{}: {}", d.severity, d.line, d.column, d.message))
        .collect()
}

#[test]
fn an_empty_body_holds_nothing() {
    assert_eq!(parse_commands(""), (vec![], vec![]));
    assert_eq!(parse_commands("\n \n\t\n"), (vec![], vec![]));
}

#[test]
fn a_long_letter_is_read_whole() {
    let block = "SIGNON Fmygame pw\nA Lon - Bel\n> quoted\nPRESS TO e\nhi\nENDPRESS\nLIST x y\n";
    let body = block.repeat(100_000 / 7);
    let (commands, diagnostics) = parse_commands(&body);
    assert_eq!(commands.len(), 3 * (100_000 / 7));
    assert_eq!(diagnostics.len(), 100_000 / 7);
    assert_eq!(
        diagnostics.last().map(|d| d.line),
        Some(body.lines().count())
    );
}

/// Words letters are made of, to build texts that look like letters.
const WORDS: &[&str] = &[
    "SIGNON",
    "SIGN",
    "ON",
    "OFF",
    "SIGNOFF",
    "HELLO",
    "Fmygame",
    "?mygame",
    "?",
    "F",
    "mygame",
    "pw",
    "CREATE",
    "standard",
    "OBSERVE",
    "WATCH",
    "LIST",
    "FULL",
    "HELP",
    "GET",
    "SEND",
    "ME",
    "info",
    "REGISTER",
    "Name:",
    "Password:",
    "END",
    "SET",
    "PASSWORD",
    "RESIGN",
    "WAIT",
    "NO",
    "ABSENCE",
    "2027-02-01",
    "DRAW",
    "MOVE",
    "CLOCK",
    "12:00",
    "NEXT",
    "48",
    "DAYS",
    "-MTWTF-",
    "ADDRESS",
    "a@b.c",
    "PROCESS",
    "EXTEND",
    "ROLLBACK",
    "BECOME",
    "WHOIS",
    "HISTORY",
    "FROM",
    "MODERATED",
    "PRESS",
    "BROADCAST",
    "ENDPRESS",
    "TO",
    "A",
    "Lon",
    "-",
    "Bel",
    ">",
    "--",
    "-- ",
    "wrote:",
    "On",
    "//",
    "Лондон",
    "🎲",
    "\0",
    "\t",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "",
];

/// Every line a command or diagnostic names is a line of the body.
fn lines_exist(body: &str) -> Result<(), TestCaseError> {
    let (commands, diagnostics) = parse_commands(body);
    let count = body.lines().count();
    let mut last = 0;
    for command in &commands {
        prop_assert!(command.line >= 1 && command.line <= count, "{command:?}");
        prop_assert!(command.line > last, "commands out of order: {commands:?}");
        last = command.line;
        let _ = render(command);
    }
    for d in &diagnostics {
        prop_assert!(d.line >= 1 && d.line <= count && d.column >= 1, "{d:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(body in "[\\PC\n\r\t\0]{0,200}") {
        lines_exist(&body)?;
    }

    #[test]
    fn letter_like_text_never_panics(words in prop::collection::vec(0..WORDS.len(), 0..40)) {
        let body: Vec<&str> = words.iter().map(|i| WORDS[*i]).collect();
        lines_exist(&body.join(" "))?;
    }
}
