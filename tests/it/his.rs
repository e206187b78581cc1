//! The Here I Stand referee's rules core through data: the map file's facts and problems, and
//! the movement procedure played from scripts (`tests/data/his/*.txt`): each statement of the
//! project's rule documents quoted with its case (`seeds.txt`, `movement.txt`), the
//! specification's worked examples with fixed dice, every restriction of interception and
//! avoiding battle refusing, and the rulings of `templates/en/help/his.txt`. Also: the core's
//! modules import only the layers below their own, and `docs/dice.md` and `docs/variants.md`
//! say what the referee and its tests do.
//!
//! A script holds cases, each opened by `=== <name>`. Its lines:
//! `set <adjustment>` changes the board; `standing <power>: <instruction>` files a standing
//! instruction; `move <power>: MOVE ...` declares a move (on the board the last move left);
//! `answer <power>: <text>` answers the open window; `refuse <power>: <text> => <reason>` must
//! be refused with that reason; `deadline` passes the window's deadline; `dice <values>` gives
//! the dice asked for; `bad dice <values>` must be refused. Expectations: `status: <line>`,
//! `asked: <powers>`, `event: <words>` (some entry of the record contains them), `no event:
//! <words>`, `event ru: <words>` (the same in Russian), `space: <line>` (the space's line as
//! `describe_space` writes it), `space ru: <line>` (in Russian), `leader: <line>`, `cp: <n>`.

use std::fs;
use std::path::Path;

use strategos::his::adjust::{apply, parse_adjustment};
use strategos::his::board::Board;
use strategos::his::map::{Crossing, Map, SpaceKind};
use strategos::his::procedure::{Procedure, Status};
use strategos::his::standing::Standing;
use strategos::his::text::{
    describe_leader, describe_space, describe_status, parse_answer, parse_instruction, parse_move,
};
use strategos::his::{Lang, Power, Question};
use strategos::report::{Message, Messages};
use strategos::variant::his::{embedded_map, load_map};

fn map() -> Map {
    match embedded_map() {
        Ok(m) => m,
        Err(e) => panic!("the shipped map does not load: {e:?}"),
    }
}

#[test]
fn map_file_holds_the_specified_map() {
    let map = map();
    let land = map.spaces.iter().filter(|s| !s.is_sea()).count();
    let sea = map.spaces.iter().filter(|s| s.is_sea()).count();
    assert_eq!((land, sea), (134, 14));
    let count = |k: SpaceKind| map.spaces.iter().filter(|s| s.kind == k).count();
    assert_eq!(count(SpaceKind::Unfortified), 86);
    assert_eq!(count(SpaceKind::Key), 27);
    assert_eq!(count(SpaceKind::Capital), 6);
    assert_eq!(count(SpaceKind::Electorate), 6);
    assert_eq!(count(SpaceKind::Fortress), 9);
    let mut normal = 0;
    let mut passes = Vec::new();
    for a in map.space_ids() {
        for (b, c) in &map.space(a).land {
            if a < *b {
                match c {
                    Crossing::Normal => normal += 1,
                    Crossing::Pass => {
                        let mut pair = [map.space(a).name.clone(), map.space(*b).name.clone()];
                        pair.sort();
                        passes.push(pair.join("-"));
                    }
                }
            }
        }
    }
    passes.sort();
    assert_eq!(normal, 204);
    // The 16 passes of the specification, §1.3.
    assert_eq!(
        passes,
        [
            "Agram-Zara",
            "Augsburg-Innsbruck",
            "Avignon-Barcelona",
            "Barcelona-Toulouse",
            "Belgrade-Ragusa",
            "Bordeaux-Navarre",
            "Durazzo-Larissa",
            "Geneva-Turin",
            "Genoa-Nice",
            "Graz-Salzburg",
            "Grenoble-Turin",
            "Innsbruck-Trent",
            "Nezh-Scutari",
            "Nicopolis-Sofia",
            "Nicopolis-Szegedin",
            "Salonika-Sofia",
        ]
    );
    // Vienna's neighbours (example C), names as players write them, the leaders.
    let vienna = map.find_space("vienna").unwrap();
    let mut around: Vec<&str> = map
        .space(vienna)
        .land
        .iter()
        .map(|(s, _)| map.space(*s).name.as_str())
        .collect();
    around.sort();
    assert_eq!(around, ["Brunn", "Graz", "Linz", "Pressburg"]);
    assert_eq!(map.find_space("St Quentin"), map.find_space("st-quentin"));
    assert_eq!(map.find_space("Orleans"), map.find_space("Orléans"));
    let suleiman = map.find_leader("Suleiman").unwrap();
    assert_eq!(
        (map.leader(suleiman).battle, map.leader(suleiman).command),
        (2, 12)
    );
    assert_eq!(map.find_leader("ibrahim"), map.find_leader("Ibrahim Pasha"));
    let brandon = map.find_leader("brandon").unwrap();
    assert_eq!(map.leader(brandon).battle, 1);
}

#[test]
fn a_bad_map_file_gives_every_problem_with_its_line() {
    let text = r#"name = "bad"
[spaces]
a = { name = "A", kind = "castle", home = "hapsburg" }
b = { name = "B", kind = "key", home = "atlantis" }
s = { name = "S", kind = "sea" }
[connections]
normal = [
  ["a", "b"],
  ["a", "nowhere"],
  ["a", "s"],
]
pass = [
  ["b", "a"],
]
[leaders]
x = { name = "X", power = "venice", battle = 5, command = 0 }
"#;
    let errors = load_map("bad.toml", text).unwrap_err();
    let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let expect = [
        "bad.toml:3: spaces.a.kind: unknown kind `castle`",
        "bad.toml:4: spaces.b.home: unknown power `atlantis`",
        "bad.toml:9: connections.normal[1]: unknown space `nowhere`",
        "bad.toml:10: connections.normal[2]: a land connection between `a` and `s` touches a sea zone",
        "bad.toml:13: connections.pass[0]: `b` and `a` are joined more than once",
        "bad.toml:16: leaders.x.power: `venice` is not a major power",
        "bad.toml:16: leaders.x.battle: battle rating 5 is above 3",
        "bad.toml:16: leaders.x.command: a command rating is at least 1",
    ];
    for e in expect {
        assert!(
            lines.iter().any(|l| l.starts_with(e)),
            "missing `{e}` in {lines:#?}"
        );
    }
    let syntax = load_map("broken.toml", "name = \"x\"\n[spaces\n").unwrap_err();
    assert_eq!(syntax.len(), 1);
    assert_eq!(syntax[0].line, Some(2));
}

/// One case of a script, run line by line; failures are collected, not thrown.
struct Case<'m> {
    map: &'m Map,
    name: String,
    board: Board,
    standing: Standing,
    procedure: Option<Procedure>,
}

impl Case<'_> {
    fn current_board(&self) -> &Board {
        match &self.procedure {
            Some(p) => p.board(),
            None => &self.board,
        }
    }

    fn run_line(&mut self, line: &str) -> Result<(), String> {
        let map = self.map;
        let english = Messages::built_in().words(Lang::En);
        let russian = Messages::built_in().words(Lang::Ru);
        let (head, rest) = match line.split_once(':') {
            Some((h, r))
                if !h.contains(' ')
                    || h.starts_with("move ")
                    || h.starts_with("answer ")
                    || h.starts_with("refuse ")
                    || h.starts_with("standing ")
                    || h == "no event"
                    || h == "event ru"
                    || h == "space ru" =>
            {
                (h.trim(), r.trim())
            }
            _ => (line.trim(), ""),
        };
        if let Some(adj) = head.strip_prefix("set ") {
            // Later adjustments change the board the last move left.
            if let Some(p) = self.procedure.take() {
                self.board = if p.is_finished() {
                    p.board().clone()
                } else {
                    p.board_before().clone()
                };
            }
            let a = parse_adjustment(map, adj).map_err(|m| english.message(&m))?;
            apply(map, &mut self.board, &a).map_err(|m| english.message(&m))?;
            return Ok(());
        }
        if head == "deadline" {
            return self
                .procedure()?
                .deadline_passed(map)
                .map_err(|m| english.message(&m));
        }
        if let Some(values) = head.strip_prefix("bad dice") {
            let v = dice(values)?;
            return match self.procedure()?.give_dice(map, &v) {
                Ok(()) => Err(format!("dice {v:?} were accepted")),
                Err(_) => Ok(()),
            };
        }
        if let Some(values) = head.strip_prefix("dice") {
            let v = dice(values)?;
            return self
                .procedure()?
                .give_dice(map, &v)
                .map_err(|m| english.message(&m));
        }
        if let Some(who) = head.strip_prefix("standing ") {
            let power = power(who)?;
            let i = parse_instruction(map, rest).map_err(|m| english.message(&m))?;
            self.standing.file(power, i);
            return Ok(());
        }
        if let Some(who) = head.strip_prefix("move ") {
            let power = power(who)?;
            // A new move starts on the board the last one left (or, if that one is not
            // finished, on the board before it: the unfinished move is dropped).
            if let Some(p) = self.procedure.take() {
                self.board = if p.is_finished() {
                    p.board().clone()
                } else {
                    p.board_before().clone()
                };
            }
            let request = parse_move(map, power, rest).map_err(|m| english.message(&m))?;
            self.procedure = Some(Procedure::start(
                map,
                &self.board,
                request,
                self.standing.clone(),
            ));
            return Ok(());
        }
        if let Some(who) = head.strip_prefix("answer ") {
            let power = power(who)?;
            let question = self.question()?;
            let answer =
                parse_answer(map, power, &question, rest).map_err(|m| english.message(&m))?;
            return self
                .procedure()?
                .answer(map, power, answer)
                .map_err(|m| english.message(&m));
        }
        if let Some(who) = head.strip_prefix("refuse ") {
            let power = power(who)?;
            let (text, reason) = rest.split_once("=>").ok_or("refuse needs `=> <reason>`")?;
            let question = self.question()?;
            let refused = match parse_answer(map, power, &question, text.trim()) {
                Err(e) => english.message(&e),
                Ok(answer) => match self.procedure()?.answer(map, power, answer) {
                    Ok(()) => return Err(format!("`{}` was accepted", text.trim())),
                    Err(e) => english.message(&e),
                },
            };
            if !refused.contains(reason.trim()) {
                return Err(format!("refused with `{refused}`, not `{}`", reason.trim()));
            }
            return Ok(());
        }
        let p = self.procedure.as_ref();
        match head {
            "status" => {
                let got = english.message(&describe_status(map, p.ok_or("no move yet")?.status()));
                if got != rest {
                    return Err(format!("status is `{got}`"));
                }
            }
            "asked" => {
                let Status::Waiting(w) = p.ok_or("no move yet")?.status() else {
                    return Err("no window is open".into());
                };
                let got: Vec<&str> = w.waiting_for().iter().map(|p| p.id()).collect();
                if got.join(" ") != rest {
                    return Err(format!("asked are `{}`", got.join(" ")));
                }
            }
            "event" | "no event" => {
                let events: Vec<String> = p
                    .ok_or("no move yet")?
                    .events()
                    .iter()
                    .map(|e| english.message(&e.describe(map)))
                    .collect();
                let found = events.iter().any(|e| e.contains(rest));
                if found != (head == "event") {
                    return Err(format!(
                        "`{rest}` {} in the record:\n    {}",
                        if found { "found" } else { "not found" },
                        events.join("\n    ")
                    ));
                }
            }
            "event ru" => {
                let events: Vec<String> = p
                    .ok_or("no move yet")?
                    .events()
                    .iter()
                    .map(|e| russian.message(&e.describe(map)))
                    .collect();
                if !events.iter().any(|e| e.contains(rest)) {
                    return Err(format!(
                        "`{rest}` not found in the record in Russian:\n    {}",
                        events.join("\n    ")
                    ));
                }
            }
            "space ru" => {
                let name = rest.split(" (").next().unwrap_or("");
                let space = map.find_space(name).ok_or(format!("no space `{name}`"))?;
                let got = russian.message(&describe_space(map, self.current_board(), space));
                if got != rest {
                    return Err(format!("space in Russian is `{got}`"));
                }
            }
            "space" => {
                let name = rest.split(" (").next().unwrap_or("");
                let space = map.find_space(name).ok_or(format!("no space `{name}`"))?;
                let got = english.message(&describe_space(map, self.current_board(), space));
                if got != rest {
                    return Err(format!("space is `{got}`"));
                }
            }
            "leader" => {
                let name = rest.split(" (").next().unwrap_or("");
                let l = map.find_leader(name).ok_or(format!("no leader `{name}`"))?;
                let got = english.message(&describe_leader(map, self.current_board(), l));
                if got != rest {
                    return Err(format!("leader is `{got}`"));
                }
            }
            "record" => {
                let events: Vec<String> = p
                    .ok_or("no move yet")?
                    .events()
                    .iter()
                    .map(|e| english.message(&e.describe(map)))
                    .collect();
                return Err(format!("the record:\n    {}", events.join("\n    ")));
            }
            "cp" => {
                let got = self.current_board().cp.to_string();
                if got != rest {
                    return Err(format!("cp is {got}"));
                }
            }
            _ => return Err(format!("unknown line `{line}`")),
        }
        Ok(())
    }

    fn procedure(&mut self) -> Result<&mut Procedure, String> {
        self.procedure
            .as_mut()
            .ok_or_else(|| "no move yet".to_string())
    }

    fn question(&self) -> Result<Question, String> {
        match self.procedure.as_ref().map(|p| p.status()) {
            Some(Status::Waiting(w)) => Ok(w.question.clone()),
            Some(other) => Err(format!(
                "no window is open: {}",
                in_english(&describe_status(self.map, other))
            )),
            None => Err("no move yet".into()),
        }
    }
}

/// A sentence of the referee in English.
fn in_english(message: &Message) -> String {
    Messages::built_in().words(Lang::En).message(message)
}

fn power(word: &str) -> Result<Power, String> {
    Power::from_word(word.trim()).ok_or(format!("no power `{word}`"))
}

fn dice(text: &str) -> Result<Vec<u8>, String> {
    text.split_whitespace()
        .map(|d| d.parse::<u8>().map_err(|_| format!("`{d}` is no die")))
        .collect()
}

/// Runs every case of a script; returns the failures as `file:line: case: problem`.
fn run_script(map: &Map, file: &str, text: &str) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut case: Option<Case<'_>> = None;
    let mut failed = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("===") {
            cases += 1;
            failed = false;
            case = Some(Case {
                map,
                name: name.trim().to_string(),
                board: Board::scenario_1517(map),
                standing: Standing::new(),
                procedure: None,
            });
            continue;
        }
        let Some(c) = case.as_mut() else {
            failures.push(format!("{file}:{}: a line before the first case", i + 1));
            continue;
        };
        if failed {
            continue;
        }
        if let Err(e) = c.run_line(line) {
            failed = true;
            let status = c
                .procedure
                .as_ref()
                .map(|p| in_english(&describe_status(map, p.status())))
                .unwrap_or_default();
            failures.push(format!(
                "{file}:{}: {}: `{line}`: {e}\n    (status: {status})",
                i + 1,
                c.name
            ));
        }
    }
    (cases, failures)
}

fn run_file(name: &str) {
    let map = map();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/his")
        .join(name);
    let text = fs::read_to_string(&path).unwrap();
    let (cases, failures) = run_script(&map, name, &text);
    assert!(cases > 0, "no cases in {name}");
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn worked_examples() {
    run_file("examples.txt");
}
#[test]
fn interception_restrictions() {
    run_file("interception.txt");
}
#[test]
fn avoid_battle_restrictions() {
    run_file("avoid.txt");
}
#[test]
fn rulings() {
    run_file("rulings.txt");
}
#[test]
fn seeds() {
    run_file("seeds.txt");
}
#[test]
fn movement_steps() {
    run_file("movement.txt");
}

/// The rules core reads top down: each module of `src/his/` imports only modules of the
/// layers below its own (ARCHITECTURE.md, "src/his/"), so the steps share what they share
/// through `course` and never import one another or the procedure that runs them.
#[test]
fn the_rules_core_imports_only_the_layers_below() {
    const LAYERS: [&[&str]; 11] = [
        &["adjust"],
        &["text"],
        &["procedure"],
        &["movement"],
        &["check", "interception", "avoid", "battle", "retreat"],
        &["course"],
        &["event", "standing"],
        &["question", "refusal"],
        &["board"],
        &["lang", "map"],
        &["power"],
    ];
    let layer = |name: &str| LAYERS.iter().position(|l| l.contains(&name));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/his");
    let mut problems = Vec::new();
    let mut files = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "mod" {
            continue;
        }
        files += 1;
        let Some(own) = layer(&name) else {
            problems.push(format!("{name}.rs has no layer in this test"));
            continue;
        };
        let text = fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("super::") {
                let used: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                match layer(&used) {
                    Some(l) if l > own => {}
                    Some(_) => problems.push(format!(
                        "src/his/{name}.rs:{}: imports `{used}`, not below it",
                        i + 1
                    )),
                    None => problems.push(format!(
                        "src/his/{name}.rs:{}: imports `{used}`, which has no layer",
                        i + 1
                    )),
                }
            }
        }
    }
    assert_eq!(files, LAYERS.iter().map(|l| l.len()).sum::<usize>());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `docs/dice.md` states the purposes the referee writes: each is one the scripts see the
/// referee ask for (a `status:` line of `tests/data/his/`) or a roll line of a game played by
/// mail (`tests/data/flow/`), so the document and the referee say the same words.
#[test]
fn docs_dice_gives_the_purposes_the_referee_states() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/dice.md")).unwrap();
    let table = doc
        .split("The Here I Stand\n  referee writes these purposes:")
        .nth(1)
        .expect("docs/dice.md lists the referee's purposes");
    let purposes: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.trim_start().starts_with('|'))
        .take_while(|l| l.trim_start().starts_with('|'))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    assert!(purposes.len() >= 6, "{purposes:?}");
    let mut seen = String::new();
    for dir in ["tests/data/his", "tests/data/flow/015-here-i-stand"] {
        for entry in fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "txt") {
                seen.push_str(&fs::read_to_string(&path).unwrap());
            }
        }
    }
    for purpose in purposes {
        let asked = seen
            .lines()
            .any(|l| l.starts_with("status: roll ") && l.ends_with(&format!(": {purpose}")));
        let rolled = crate::says(&seen, &format!(" ({purpose}): "));
        assert!(asked || rolled, "the referee never states `{purpose}`");
    }
}

/// `docs/variants.md` names the test of each rule as `file.txt: case`: every one it names is a
/// case of `tests/data/his/`, so the table cannot point at a test that is not there.
#[test]
fn docs_variants_names_cases_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/variants.md")).unwrap();
    let mut named = 0;
    let mut missing = Vec::new();
    for quoted in doc.split('`').skip(1).step_by(2) {
        let Some((file, case)) = quoted.split_once(".txt: ") else {
            continue;
        };
        if file.contains(' ') || file.contains('/') {
            continue;
        }
        named += 1;
        let text = fs::read_to_string(root.join("tests/data/his").join(format!("{file}.txt")))
            .unwrap_or_default();
        if !text
            .lines()
            .any(|l| l.strip_prefix("===").map(str::trim) == Some(case))
        {
            missing.push(format!("{file}.txt: {case}"));
        }
    }
    assert!(named > 50, "only {named} cases named");
    assert!(missing.is_empty(), "no such case:\n{}", missing.join("\n"));
}

/// The mail layer stores only the inputs: replaying them gives the same record and board, and
/// a stored input that no longer fits is reported, never applied.
#[test]
fn a_procedure_is_rebuilt_from_its_inputs() {
    let map = map();
    let mut board = Board::scenario_1517(&map);
    for line in [
        "war ottoman hapsburg",
        "control pressburg ottoman",
        "impulse ottoman 3",
        "place pressburg ottoman 7 regulars 1 cavalry",
        "leader suleiman pressburg",
        "place graz hapsburg 8 regulars",
        "leader charles-v graz",
        "place vienna hapsburg 2 regulars",
    ] {
        apply(&map, &mut board, &parse_adjustment(&map, line).unwrap()).unwrap();
    }
    let request = parse_move(
        &map,
        Power::Ottoman,
        "MOVE 7 regulars 1 cavalry Suleiman FROM Pressburg TO Vienna",
    )
    .unwrap();
    let mut p = Procedure::start(&map, &board, request.clone(), Standing::new());
    p.deadline_passed(&map).unwrap();
    let Status::Waiting(w) = p.status().clone() else {
        panic!("no interception window")
    };
    let intercept = parse_answer(
        &map,
        Power::Hapsburg,
        &w.question,
        "intercept from graz with 8 regulars charles v",
    )
    .unwrap();
    p.answer(&map, Power::Hapsburg, intercept).unwrap();
    p.give_dice(&map, &[6, 6]).unwrap();
    p.give_dice(&map, &[1, 2, 3, 4, 5, 6, 1, 2, 3, 4]).unwrap();
    assert!(matches!(p.status(), Status::Rolling(r) if r.dice == 13));

    let again =
        Procedure::replay(&map, &board, request.clone(), Standing::new(), p.inputs()).unwrap();
    assert_eq!(again.events(), p.events());
    assert_eq!(again.board(), p.board());
    assert_eq!(again.status(), p.status());

    // A tampered die (a 7) is refused on replay, naming the input.
    let mut bad = p.inputs().to_vec();
    if let Some(strategos::his::Input::Dice { values, .. }) = bad.last_mut() {
        values[0] = 7;
    }
    let err = Procedure::replay(&map, &board, request.clone(), Standing::new(), &bad).unwrap_err();
    assert_eq!(err.input, 4, "{err:?}");
    let said = in_english(&err.describe());
    assert_eq!(said, "input 4: a die shows 1 to 6");
    // Dice where a window is open are refused too.
    let stray = [p.inputs()[2].clone()];
    let err = Procedure::replay(&map, &board, request, Standing::new(), &stray).unwrap_err();
    assert_eq!(err.input, 1, "{err:?}");
}

/// Random boards and moves, answered at random (or by letting deadlines pass) with random
/// dice, never panic and always come to an end; the board keeps its invariants.
#[test]
fn random_moves_end_without_panics() {
    let map = map();
    let land: Vec<_> = map
        .space_ids()
        .filter(|s| !map.space(*s).is_sea())
        .collect();
    let mut seed: u64 = 0x5eed;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let majors = Power::MAJOR;
    let kinds = ["regulars", "mercenaries", "cavalry"];
    for round in 0..1000 {
        let mut board = Board::scenario_1517(&map);
        let mut lines = Vec::new();
        for _ in 0..3 {
            let a = majors[next(6)];
            let b = majors[next(6)];
            lines.push(format!("war {} {}", a.id(), b.id()));
        }
        if next(3) == 0 {
            lines.push(format!(
                "ally {} {}",
                majors[next(6)].id(),
                majors[next(6)].id()
            ));
        }
        if next(2) == 0 {
            lines.push("minor hungary-bohemia hapsburg".into());
        }
        if next(2) == 0 {
            lines.push("league".into());
        }
        let active = majors[next(5)];
        let enemy = majors[next(6)];
        lines.push(format!("war {} {}", active.id(), enemy.id()));
        lines.push(format!("impulse {} {}", active.id(), 1 + next(4)));
        let from = land[next(land.len())];
        let neighbours = &map.space(from).land;
        let to = if neighbours.is_empty() || next(10) == 0 {
            land[next(land.len())]
        } else {
            neighbours[next(neighbours.len())].0
        };
        lines.push(format!("control {} {}", map.space(from).id, active.id()));
        let moving = 1 + next(6);
        let kind = if active == Power::Ottoman {
            ["regulars", "cavalry"][next(2)]
        } else {
            ["regulars", "mercenaries"][next(2)]
        };
        lines.push(format!(
            "place {} {} {moving} {kind}",
            map.space(from).id,
            active.id()
        ));
        let mut placed = vec![to];
        for (s, _) in &map.space(to).land {
            placed.push(*s);
        }
        for s in placed {
            if s == to && next(3) > 0 {
                lines.push(format!("control {} {}", map.space(s).id, enemy.id()));
            }
            if next(2) == 0 {
                let p = if next(3) > 0 {
                    enemy
                } else {
                    Power::ALL[next(11)]
                };
                let inside = if next(5) == 0 { " inside" } else { "" };
                lines.push(format!(
                    "place {} {} {} {}{inside}",
                    map.space(s).id,
                    p.id(),
                    1 + next(7),
                    kinds[next(3)]
                ));
                if inside.is_empty() && next(4) == 0 {
                    lines.push(format!(
                        "siege {} {}",
                        map.space(s).id,
                        majors[next(6)].id()
                    ));
                }
            }
            if next(4) == 0 {
                let l = map.leader_ids().nth(next(map.leaders.len())).unwrap();
                lines.push(format!("leader {} {}", map.leader(l).id, map.space(s).id));
            }
            if next(6) == 0 {
                lines.push(format!("unrest {} on", map.space(s).id));
            }
        }
        let mut leaders = String::new();
        for l in map.leader_ids() {
            if map.leader(l).power == Some(active) && next(3) == 0 {
                lines.push(format!(
                    "leader {} {}",
                    map.leader(l).id,
                    map.space(from).id
                ));
                leaders.push_str(&format!(" {}", map.leader(l).id));
            }
        }
        for line in &lines {
            if let Ok(a) = parse_adjustment(&map, line) {
                let _ = apply(&map, &mut board, &a);
            }
        }
        let text = format!(
            "MOVE {} {kind}{leaders} FROM {} TO {}",
            1 + next(moving),
            map.space(from).id,
            map.space(to).id
        );
        let request = parse_move(&map, active, &text).unwrap();
        let mut p = Procedure::start(&map, &board, request, Standing::new());
        let mut steps = 0;
        while !p.is_finished() {
            steps += 1;
            assert!(
                steps < 200,
                "round {round}: no end after 200 steps: {lines:?} {text}"
            );
            match p.status().clone() {
                Status::Rolling(r) => {
                    let values: Vec<u8> = (0..r.dice).map(|_| 1 + next(6) as u8).collect();
                    p.give_dice(&map, &values).unwrap();
                }
                Status::Waiting(w) => {
                    let who = w.waiting_for()[next(w.waiting_for().len())];
                    let answer = random_answer(&w.question, &mut next);
                    if next(3) == 0 || p.answer(&map, who, answer).is_err() {
                        p.deadline_passed(&map).unwrap();
                    }
                }
                Status::Finished(_) => {}
            }
        }
        let after = p.board();
        // Each leader is in one place; units are never in a sea zone; CP never rose.
        assert!(after.cp <= board.cp, "round {round}");
        for d in &after.detachments {
            assert!(!map.space(d.space).is_sea(), "round {round}");
            assert!(!d.units.is_empty(), "round {round}: an empty detachment");
        }
        // Units are moved or lost, never made.
        let total = |b: &Board| b.detachments.iter().map(|d| d.units.total()).sum::<u32>();
        assert!(total(after) <= total(&board), "round {round}: units made");
        if matches!(
            p.status(),
            Status::Finished(strategos::his::procedure::Finish::Refused)
        ) {
            assert_eq!(
                after, &board,
                "round {round}: a refused move changed the board"
            );
        }
    }
}

fn random_answer(
    question: &Question,
    next: &mut impl FnMut(usize) -> usize,
) -> strategos::his::Answer {
    use strategos::his::Answer;
    match question {
        Question::Response { leaders, .. } => match next(8) {
            0 => Answer::FoulWeather,
            1 if !leaders.is_empty() => Answer::Gout(leaders[next(leaders.len())]),
            _ => Answer::NoCard,
        },
        Question::Intercept { options, .. } => {
            let (from, force) = options[next(options.len())].clone();
            Answer::Intercept { from, force }
        }
        Question::AvoidBattle {
            destinations,
            available,
            ..
        } => Answer::Avoid {
            to: destinations[next(destinations.len())],
            force: available.clone(),
        },
        Question::Withdraw { .. } => [Answer::Withdraw, Answer::Stay][next(2)].clone(),
        Question::Janissaries { .. } => [Answer::PlayJanissaries, Answer::NoCard][next(2)].clone(),
        Question::Casualties { losses, .. } => {
            let c = &losses[next(losses.len())];
            Answer::Losses(c.available.clone())
        }
        Question::WithdrawAfterDefeat { available, .. } => {
            Answer::WithdrawInside(available.clone())
        }
        Question::Retreat { destinations, .. } => {
            Answer::RetreatTo(destinations[next(destinations.len())])
        }
        Question::MoveOn { .. } => [Answer::MoveOn, Answer::Retreat][next(2)].clone(),
    }
}
