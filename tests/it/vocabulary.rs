//! The classic judges' vocabulary by mail (`docs/commands.md`): every row of the command
//! table tried by mail against a running game, understood, and answered as the table says;
//! HELP lists every command and every variant; every njudge file name GET is asked for has
//! an answer; GET deadlines states the judge's configured defaults.

use chrono::{DateTime, Utc};

use crate::judge_harness::Harness;

use crate::judge_harness::mail;

use crate::judge_harness::test_config_with_defaults;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// A running two-power game `g` (tiny): master gina, bob South, carol North.
fn game() -> Harness {
    let mut judge = Harness::new("vocabulary");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    judge.vouch(&[
        "gina@example.test",
        "bob@example.test",
        "carol@example.test",
    ]);
    judge.deliver(&mail(
        "gina@example.test",
        "new",
        "v1",
        "CREATE ?g ginapw tiny MODERATED\n",
    ));
    judge.deliver(&mail(
        "bob@example.test",
        "join",
        "v2",
        "SIGNON ?g bobpw\nSET PREFERENCE S\n",
    ));
    judge.deliver(&mail(
        "carol@example.test",
        "join",
        "v3",
        "SIGNON ?g carolpw\n",
    ));
    let started = judge.take_sent();
    assert!(
        started.iter().any(|l| l.subject.contains("Game Starting")),
        "the game starts"
    );
    judge
}

/// What the judge's answers to commands it does not offer say (`unsupported.*` in the
/// catalog), one of them in each.
const NOT_OFFERED: [&str; 8] = [
    "is not offered",
    "nothing to change",
    "is a rule of Machiavelli",
    "is an option of njudge's map files",
    "is a command of the judge's keeper",
    "is SIGNON here",
    "is OBSERVE here",
    "is a DPjudge master's command",
];

/// One row of docs/commands.md: who sends it, the example, whether it is offered.
struct Row {
    line: usize,
    section: String,
    example: String,
    offered: bool,
}

fn rows() -> Vec<Row> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md")).unwrap();
    let mut section = String::new();
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.to_string();
            continue;
        }
        if !line.starts_with("| ") || line.starts_with("| Classic") {
            continue;
        }
        // Cells split at `|` not escaped as `\|`.
        let cells: Vec<String> = line
            .replace("\\|", "\u{1}")
            .split('|')
            .map(|c| c.trim().replace('\u{1}', "|"))
            .collect();
        let (example, here) = (&cells[2], &cells[3]);
        let example = example.trim_matches('`').replace("\\n", "\n");
        assert!(
            ["supported", "differently", "not offered"].contains(&here.as_str()),
            "docs/commands.md line {}: '{here}' is not supported, differently or not offered",
            i + 1
        );
        rows.push(Row {
            line: i + 1,
            section: section.clone(),
            example,
            offered: here != "not offered",
        });
    }
    rows
}

#[test]
fn every_row_of_the_command_table_is_true_by_mail() {
    let rows = rows();
    assert!(rows.len() > 100, "only {} rows", rows.len());
    let game = game();
    let mut failures = Vec::new();
    for (n, row) in rows.iter().enumerate() {
        let (from, first) = match row.section.as_str() {
            "Anyone" => ("dora@example.test", ""),
            "Players" => ("bob@example.test", "SIGNON Sg bobpw\n"),
            _ => ("gina@example.test", "SIGNON ?g ginapw\n"),
        };
        let mut judge = game.copy("vocabulary-row");
        let body = format!("{first}{}\n", row.example);
        judge.deliver(&mail(from, "try", &format!("row{n}"), &body));
        let sent = judge.take_sent();
        let Some(answer) = sent.iter().find(|l| l.subject.starts_with("Re:")) else {
            failures.push(format!("line {}: no answer to {:?}", row.line, row.example));
            continue;
        };
        let body = &answer.body;
        let wrong = if crate::says(body, "is not a command") || crate::says(body, "I do not know") {
            Some("not understood")
        } else if !row.offered && !NOT_OFFERED.iter().any(|said| crate::says(body, said)) {
            Some("not answered as not offered")
        } else {
            None
        };
        if let Some(wrong) = wrong {
            failures.push(format!(
                "docs/commands.md line {}: {:?} {wrong}:\n{body}",
                row.line, row.example
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn help_lists_every_command_and_variant() {
    let mut judge = Harness::new("help");
    judge.deliver(&mail("dora@example.test", "help", "h1", "HELP\n"));
    let sent = judge.take_sent();
    let help = &sent[0].body;
    for command in [
        "REGISTER",
        "CREATE",
        "SIGNON ?",
        "OBSERVE",
        "CONFIRM",
        "LIST",
        "HISTORY",
        "SUMMARY",
        "WHOIS",
        "WHO GAME",
        "VERSION",
        "HELP",
        "GET",
        "SIGNOFF",
        "PHASE",
        "CLEAR",
        "PRESS TO",
        "BROADCAST",
        "SET",
        "DIARY",
        "RESIGN",
        "GET master",
    ] {
        assert!(
            help.contains(command),
            "HELP does not name {command}:\n{help}"
        );
    }
    let variants = &judge.daemon.judge.variants;
    for variant in variants
        .iter()
        .map(|v| v.id.as_str())
        .chain(["here-i-stand"])
    {
        assert!(
            help.contains(variant),
            "HELP does not name {variant}:\n{help}"
        );
    }
}

#[test]
fn every_classic_file_name_is_answered() {
    let mut judge = Harness::new("files");
    for (n, file) in [
        "info",
        "guide",
        "index",
        "flist",
        "syntax",
        "deadlines",
        "press",
        "rules",
        "house.rules",
        "master",
        "absence",
        "draws",
        "history",
        "form",
        "package",
        "map",
        "map.standard",
        "info.standard",
        "info diadochi-v",
        "set",
        "orders",
        "diary",
    ]
    .iter()
    .enumerate()
    {
        judge.deliver(&mail(
            "dora@example.test",
            "file",
            &format!("f{n}"),
            &format!("GET {file}\n"),
        ));
        let sent = judge.take_sent();
        let body = &sent[0].body;
        assert!(
            !crate::says(body, "There is no help file") && !sent[0].subject.contains("Error"),
            "GET {file}:\n{body}"
        );
    }
    // A name it does not know: the index, once, whatever the letter asks.
    judge.deliver(&mail(
        "dora@example.test",
        "file",
        "f-x",
        "GET nope\nGET nada\n",
    ));
    let body = &judge.take_sent()[0].body;
    assert_eq!(
        body.matches("INDEX: the judge's help files").count(),
        1,
        "{body}"
    );
}

#[test]
fn get_deadlines_states_the_configured_defaults() {
    let mut judge = Harness::with_config("deadlines", test_config_with_defaults());
    judge.deliver(&mail("dora@example.test", "d", "d1", "GET deadlines\n"));
    let body = &judge.take_sent()[0].body;
    for said in [
        "movement 48 hours, grace 168 hours",
        "retreats 24 hours, grace 72 hours",
        "delay 0.5 hours after the last orders",
    ] {
        assert!(crate::says(body, said), "{said}:\n{body}");
    }
    let config = test_config_with_defaults();
    assert_eq!(config.deadlines.movement_grace_hours, 168);
    assert_eq!(config.deadlines.delay_minutes, 30);
}

/// SET QUIET: who leaves a power or takes one over is told to the game's masters only (and
/// not kept in its archive); without it, to every member.
#[test]
fn a_quiet_game_tells_only_its_masters_who_comes_and_goes() {
    let mut judge = game();
    judge.deliver(&mail(
        "gina@example.test",
        "quiet",
        "q1",
        "SIGNON ?g ginapw\nSET QUIET\n",
    ));
    judge.take_sent();
    judge.deliver(&mail(
        "bob@example.test",
        "bye",
        "q2",
        "SIGNON Sg bobpw\nRESIGN\n",
    ));
    let sent = judge.take_sent();
    let to = |who: &str| sent.iter().filter(|l| l.to[0].email == who).count();
    assert_eq!(
        to("carol@example.test"),
        0,
        "the players are not told: {sent:?}"
    );
    assert_eq!(to("gina@example.test"), 1, "the master is told");
    assert!(crate::says(
        &sent
            .iter()
            .find(|l| l.to[0].email == "gina@example.test")
            .unwrap()
            .body,
        "South"
    ));
    judge.vouch(&["dora@example.test"]);
    judge.deliver(&mail(
        "dora@example.test",
        "mine",
        "q3",
        "SIGNON Sg dorapw\n",
    ));
    let sent = judge.take_sent();
    let to = |who: &str| sent.iter().filter(|l| l.to[0].email == who).count();
    assert_eq!(
        to("carol@example.test"),
        0,
        "the takeover is not told to players: {sent:?}"
    );
    assert_eq!(
        to("gina@example.test"),
        1,
        "the master hears of the takeover"
    );
    // Without SET QUIET, everyone is told.
    let mut loud = game();
    loud.deliver(&mail(
        "bob@example.test",
        "bye",
        "q4",
        "SIGNON Sg bobpw\nRESIGN\n",
    ));
    let sent = loud.take_sent();
    assert!(
        sent.iter().any(|l| l.to[0].email == "carol@example.test"),
        "{sent:?}"
    );
}
