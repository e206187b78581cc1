//! `strategos adjudicate` run as a program, as outside tools run it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::case::{compare, data};

fn strategos(args: &[&str], stdin: Option<&str>) -> Output {
    strategos_in(args, stdin, &[])
}

/// `strategos` with variables set in its environment.
fn strategos_in(args: &[&str], stdin: Option<&str>, env: &[(&str, &Path)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_strategos"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(input) = stdin {
        // The command may refuse its arguments before reading its input.
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

/// The whole DATC file through the command: every expectation holds (under 2023).
#[test]
fn adjudicate_the_datc_file() {
    let out = strategos(
        &[
            "adjudicate",
            "--rules",
            "2023",
            "tests/data/datc/cases.json",
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = data("datc/cases.json").as_array().unwrap();
    assert_eq!(results.as_array().unwrap().len(), cases.len());
    let mut failures = Vec::new();
    for (case, result) in cases.iter().zip(results.as_array().unwrap()) {
        assert_eq!(case["id"], result["id"]);
        failures.extend(
            compare(result, &case["expect"])
                .into_iter()
                .map(|d| format!("{}: {d}", case["id"])),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_example_case_in_the_readme_runs() {
    let out = strategos(&["adjudicate", "examples/pandin.json"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        results[0]["result"]["orders"][3]["result"], "succeeds",
        "2000 rulebook: the convoy stands"
    );
    let out = strategos(
        &["adjudicate", "--rules", "2023", "examples/pandin.json"],
        None,
    );
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        results[0]["result"]["orders"][3]["result"], "fails",
        "Szykman: the convoy fails"
    );
}

#[test]
fn standard_input_and_a_single_case_object() {
    let case = r#"{"id": "x", "phase": {"season": "spring", "year": 1901, "kind": "movement"},
        "units": [{"power": "england", "type": "fleet", "at": "nth"}],
        "orders": {"england": ["F North Sea - Norwegian Sea"]}}"#;
    let out = strategos(&["adjudicate", "-"], Some(case));
    assert_eq!(out.status.code(), Some(0));
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results[0]["id"], "x");
    assert_eq!(results[0]["result"]["orders"][0]["result"], "succeeds");
    assert_eq!(results[0]["result"]["positions_after"][0]["at"], "nwg");
}

#[test]
fn a_bad_case_gives_an_error_and_the_others_still_run() {
    let cases = r#"[
        {"id": "bad variant", "variant": "nowhere", "phase": {"season": "spring", "kind": "movement"}, "units": [], "orders": {}},
        {"id": "bad unit", "phase": {"season": "spring", "kind": "movement"}, "units": [{"power": "england", "type": "fleet", "at": "xyz"}], "orders": {}},
        {"id": "bad power", "phase": {"season": "spring", "kind": "movement"}, "units": [], "orders": {"atlantis": ["A LON H"]}},
        {"id": "no phase", "units": [], "orders": {}},
        {"id": "good", "phase": {"season": "spring", "kind": "movement"},
         "units": [{"power": "england", "type": "army", "at": "lon"}], "orders": {"england": ["A LON - Lodnon", "A LON H"]}}
    ]"#;
    let out = strategos(&["adjudicate", "-"], Some(cases));
    assert_eq!(out.status.code(), Some(1));
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        results[0]["error"]
            .as_str()
            .unwrap()
            .contains("unknown variant 'nowhere'")
    );
    assert!(
        results[1]["error"]
            .as_str()
            .unwrap()
            .contains("unknown province 'xyz'")
    );
    assert!(
        results[2]["error"]
            .as_str()
            .unwrap()
            .contains("unknown power 'atlantis'")
    );
    assert!(results[3]["error"].as_str().unwrap().contains("phase"));
    let good = &results[4]["result"]["orders"];
    assert_eq!(good[0]["result"], "illegal");
    assert_eq!(good[0]["reason"], "unreadable");
    assert!(
        good[0]["message"].as_str().unwrap().contains("London"),
        "{}",
        good[0]
    );
    assert_eq!(good[1]["result"], "succeeds");
}

#[test]
fn input_that_is_not_json_exits_2() {
    let out = strategos(&["adjudicate", "-"], Some("this is not json"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not JSON"));
    let out = strategos(&["adjudicate", "--rules", "1066", "-"], Some("[]"));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn variants_command_checks_files() {
    let out = strategos(&["variants"], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("standard: Standard (76 provinces, 34 supply centres, 7 powers, rules 2000)")
    );
    let out = strategos(&["variants", "tests/data/variants/bad"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'swamp' is not one of land, coast, sea, impassable"),
        "{err}"
    );
    assert!(err.contains("problem(s) found"));
}

#[test]
fn variants_command_checks_each_map_and_map_draws_to_files() {
    let out = strategos(&["variants"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    // Every shipped variant, and Here I Stand.
    let shipped = strategos::variant::EMBEDDED.len() + 1;
    assert_eq!(
        text.matches("map: 0 mismatch(es)").count(),
        shipped,
        "{text}"
    );
    // A variant file whose picture lies is named with its mismatch, and fails.
    let dir = std::env::temp_dir().join(format!("strategos-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lying = std::fs::read_to_string("variants/standard.toml")
        .unwrap()
        .replace("\"boh-gal\", ", "");
    let file = dir.join("lying.toml");
    std::fs::write(&file, lying).unwrap();
    let out = strategos(&["variants", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("map: Bohemia and Galicia share a drawn land border"),
        "{text}"
    );
    // strategos map: a variant's board as SVG, an unknown variant refused, the cases of an
    // adjudicate file one picture each.
    let svg = dir.join("std.svg");
    let out = strategos(
        &[
            "map",
            "--variant",
            "standard",
            "--out",
            svg.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let out = strategos(
        &["map", "--variant", "nosuch", "--out", svg.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let out = strategos(&["map", "--out", svg.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let folder = dir.join("cases");
    let out = strategos(
        &[
            "map",
            "--cases",
            "tests/data/maps/cases.json",
            "--svg",
            "--out",
            folder.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let case = std::fs::read_to_string(folder.join("bounce-support-dislodge.svg")).unwrap();
    assert!(case.contains("class=\"order move\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_config_stops_the_program_naming_the_key() {
    let dir = std::env::temp_dir().join(format!("strategos-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config.toml");
    std::fs::write(&config, "variant_dir = \"x\"\n").unwrap();
    let out = strategos(
        &[
            "--config",
            config.to_str().unwrap(),
            "adjudicate",
            "examples/pandin.json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown field `variant_dir`"), "{err}");
    // A relative path is read from the configuration's own folder.
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/variants/tiny.toml"),
        dir.join("mine").join("tiny.toml"),
    )
    .unwrap();
    std::fs::write(&config, "[paths]\nvariants = \"mine\"\n").unwrap();
    let case = r#"{"variant": "tiny", "phase": {"season": "spring", "year": 240, "kind": "movement"},
        "units": [{"power": "north", "type": "fleet", "at": "nor"}], "orders": {"north": ["F Northland - Middle Sea"]}}"#;
    let out = strategos(
        &["--config", config.to_str().unwrap(), "adjudicate", "-"],
        Some(case),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results[0]["result"]["orders"][0]["result"], "succeeds");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `strategos deliver`: one message on standard input, as an MTA pipes it; the answer lands
/// in the sent Maildir of the configuration.
#[test]
fn deliver_reads_one_message_from_standard_input() {
    let dir = std::env::temp_dir().join(format!("strategos-deliver-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[paths]\ndatabase = \"{0}/judge.db\"\n[outbox]\nmaildir = \"{0}/sent\"\n[inbox]\nmaildir = \"{0}/inbox\"\n",
            dir.display()
        ),
    )
    .unwrap();
    let letter = "From: you@example.org\r\nSubject: hello\r\nMessage-ID: <deliver-1@example.org>\r\n\r\nHELP\r\n";
    let args = [
        "--config",
        config.to_str().unwrap(),
        "deliver",
        "--now",
        "2027-01-05T12:00:00Z",
    ];
    let out = strategos(&args, Some(letter));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent: Vec<_> = std::fs::read_dir(dir.join("sent/new")).unwrap().collect();
    assert_eq!(sent.len(), 1);
    let answer = std::fs::read_to_string(sent[0].as_ref().unwrap().path()).unwrap();
    assert!(answer.contains("Subject: Re: STRA hello"), "{answer}");
    assert!(answer.contains("To: you@example.org"), "{answer}");
    // The same message piped again is recognised and not answered twice.
    let out = strategos(&args, Some(letter));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_dir(dir.join("sent/new")).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `strategos game do`: an operator runs master commands on a game through the mail code.
#[test]
fn an_operator_pauses_a_game_from_the_command_line() {
    use crate::judge_harness::Harness;
    use crate::judge_harness::mail;
    let mut judge = Harness::new("operator");
    judge.set_time(
        chrono::DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
    );
    judge.deliver_confirmed(
        "alice@example.test",
        &mail("alice@example.test", "g", "op1@x", "CREATE ?opg apw tiny\n"),
    );
    judge.deliver_confirmed(
        "bob@example.test",
        &mail("bob@example.test", "g", "op2@x", "SIGNON ?opg bpw\n"),
    );
    let db = judge.dir.0.join("judge.db");
    let config = judge.dir.0.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@example.test\"\nkeeper = \"keeper@example.test\"\n[paths]\ndatabase = \"{}\"\n",
            db.display()
        ),
    )
    .unwrap();
    let out = strategos(
        &[
            "--config",
            config.to_str().unwrap(),
            "game",
            "do",
            "opg",
            "PAUSE",
            "EXTEND 12",
            "--now",
            "2027-01-05T13:00:00Z",
        ],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Game 'opg' is paused"), "{stdout}");
    // Logged as a letter from the keeper, kept as handled letters are: its commands.
    {
        let nanos = chrono::DateTime::parse_from_rfc3339("2027-01-05T13:00:00Z")
            .unwrap()
            .timestamp_nanos_opt()
            .unwrap();
        let mut store = strategos::store::Store::open(&db).unwrap();
        let tx = store.begin().unwrap();
        let logged = tx
            .stored_messages(&format!("operator.opg.{nanos}@strategos.invalid"))
            .unwrap();
        assert_eq!(logged.len(), 1);
        assert_eq!(
            (logged[0].state.as_str(), logged[0].raw_state.as_str()),
            ("handled", "redacted")
        );
        assert!(String::from_utf8_lossy(&logged[0].raw).ends_with("PAUSE\r\nEXTEND 12\r\n"));
    }
    let out = strategos(
        &[
            "--config",
            config.to_str().unwrap(),
            "game",
            "do",
            "nosuch",
            "PAUSE",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    // The players are told, by the judge's next round.
    judge.restart();
    judge.tick(
        chrono::DateTime::parse_from_rfc3339("2027-01-05T13:01:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
    );
    let sent = judge.take_sent();
    let to_bob: Vec<_> = sent
        .iter()
        .filter(|l| l.to[0].email == "bob@example.test")
        .collect();
    assert!(
        to_bob.iter().any(|l| l.body.contains("is paused")),
        "{sent:#?}"
    );
    assert!(
        sent.iter().any(|l| l.to[0].email == "keeper@example.test"),
        "the keeper gets the answer"
    );
}

/// `strategos backup FILE`: a consistent copy of the database while the judge has it open
/// (its store holds a connection, as a running judge does); never over an existing file.
#[test]
fn a_backup_is_a_whole_copy_taken_while_the_judge_runs() {
    use crate::judge_harness::Harness;
    use crate::judge_harness::mail;
    let mut judge = Harness::new("backup");
    judge.set_time(
        chrono::DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
    );
    judge.vouch(&["alice@example.test"]);
    judge.deliver(&mail(
        "alice@example.test",
        "g",
        "bk1@x",
        "CREATE ?kept apw tiny\n",
    ));
    let db = judge.dir.0.join("judge.db");
    let config = judge.dir.0.join("config.toml");
    std::fs::write(
        &config,
        format!("[paths]\ndatabase = \"{}\"\n", db.display()),
    )
    .unwrap();
    let copy = judge.dir.0.join("copy.db");
    let args = [
        "--config",
        config.to_str().unwrap(),
        "backup",
        copy.to_str().unwrap(),
    ];
    // A letter is handled while the judge's connection stays open.
    let out = strategos(&args, None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("checked intact"));
    let mut restored = strategos::store::Store::open(&copy).unwrap();
    let tx = restored.begin().unwrap();
    assert!(
        tx.game_by_name("kept").unwrap().is_some(),
        "the game is in the copy"
    );
    drop(tx);
    // The judge goes on with its own file.
    judge.deliver(&mail("alice@example.test", "g", "bk2@x", "LIST kept\n"));
    assert!(!judge.take_sent().is_empty());
    // A second backup over the first is refused.
    let out = strategos(&args, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));
}

/// The daemon logs one line per letter (sender, games, commands, outcome) and one per phase
/// processed, in plain text when its log is not a terminal (here a pipe).
#[test]
fn the_judge_logs_each_letter_and_phase_in_plain_text() {
    use crate::judge_harness::Harness;
    use crate::judge_harness::mail;
    let mut judge = Harness::new("log");
    let now = chrono::DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    judge.set_time(now);
    judge.vouch(&["alice@example.test", "bob@example.test"]);
    let letters = [
        (
            "alice@example.test",
            "CREATE ?logged apw tiny\nSET PREFERENCE N\n",
        ),
        ("bob@example.test", "SIGNON ?logged bpw\n"),
        ("alice@example.test", "SIGNON Nlogged apw\nF Nor - Mid\n"),
    ];
    for (i, (from, body)) in letters.iter().enumerate() {
        judge.deliver(&mail(from, "g", &format!("log{i}@x"), body));
    }
    let db = judge.dir.0.join("judge.db");
    let config = judge.dir.0.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@example.test\"\n[paths]\ndatabase = \"{}\"\nvariants = \"{}\"\n[outbox]\nmaildir = \"{}\"\n",
            db.display(),
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/variants"),
            judge.dir.0.join("out").display()
        ),
    )
    .unwrap();
    let letter = "From: bob@example.test\r\nSubject: orders\r\nMessage-ID: <log-bob@x>\r\n\r\nSIGNON Slogged bpw\r\nA Sou H\r\nSET FOO\r\n";
    let args = [
        "--config",
        config.to_str().unwrap(),
        "deliver",
        "--now",
        "2027-01-05T13:00:00Z",
    ];
    // `deliver` logs to the system log (here a socket of the test's), never on its output,
    // which a mail server would mail back to the letter's sender.
    let syslog = strategos::syslog::Listener::bind(&judge.dir.0.join("syslog")).unwrap();
    let out = strategos_in(
        &args,
        Some(letter),
        &[("STRATEGOS_SYSLOG_SOCKET", syslog.path.as_path())],
    );
    let log = syslog.lines().join("\n");
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a log that is no terminal:\n{log}"
    );
    assert!(
        log.contains(
            "from bob@example.test: games logged; commands SIGNON Slogged, orders; 1 error(s)"
        ),
        "{log}"
    );
    assert!(
        log.contains("game logged: Movement for Spring of 240 BC processed; Movement for Autumn of 240 BC next"),
        "{log}"
    );
    assert!(!log.contains("bpw"), "a password in the log:\n{log}");
}

/// `strategos deliver` exits 75 (the mail system keeps the letter) on every failure before the
/// letter is stored, writing nothing on its output (which a mail server mails back to the
/// sender) and saying why in the system log; 0 once it is stored.
#[test]
fn deliver_keeps_the_letter_on_every_failure_and_says_why_in_the_system_log() {
    let dir = std::env::temp_dir().join(format!("strategos-deliver-fail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let syslog = strategos::syslog::Listener::bind(&dir.join("syslog")).unwrap();
    let env = [("STRATEGOS_SYSLOG_SOCKET", syslog.path.as_path())];
    let config = dir.join("config.toml");
    let letter = "From: you@example.org\r\nSubject: hello\r\nMessage-ID: <keep-1@example.org>\r\n\r\nHELP\r\n";
    let cases: [(&str, &[&str], &str); 4] = [
        (
            "[paths]\ndatabse = \"judge.db\"\n",
            &["deliver"],
            "unknown field `databse`",
        ),
        ("", &["deliver", "--now", "yesterday"], "--now"),
        ("", &["deliver", "--later"], "--later"),
        // A database whose folder cannot be made (a file is in the way).
        (
            "[paths]\ndatabase = \"config.toml/judge.db\"\n",
            &["deliver"],
            "paths.database",
        ),
    ];
    for (text, args, why) in cases {
        std::fs::write(&config, text).unwrap();
        let mut all = vec!["--config", config.to_str().unwrap()];
        all.extend(args);
        let out = strategos_in(&all, Some(letter), &env);
        assert_eq!(out.status.code(), Some(75), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
        let log = syslog.lines().join("\n");
        assert!(
            log.contains(why) && log.contains("keeps the letter"),
            "{why}: {log}"
        );
    }
    // Mended, the letter is stored and answered.
    std::fs::write(
        &config,
        "[paths]\ndatabase = \"judge.db\"\n[outbox]\nmaildir = \"sent\"\n",
    )
    .unwrap();
    let out = strategos_in(
        &["--config", config.to_str().unwrap(), "deliver"],
        Some(letter),
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert_eq!(std::fs::read_dir(dir.join("sent/new")).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
