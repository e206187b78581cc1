//! Youngstown Redux against real games: godip keeps nine vDiplomacy games of it as its own
//! tests (each phase's positions and orders, checked by godip's adjudicator), and
//! `tests/data/godip/convert.py` made each phase a case of the adjudicate interface, kept in
//! `tests/data/godip/youngstown.json`. The judge must come to the next phase's board: the units
//! after each phase, and the units dislodged by each movement. The differences the DATC or the
//! 2000 rulebook asks for are named here by case, with why.

use serde_json::Value;
use strategos::interface::adjudicate::{Options, run};

use crate::case::{data, variants};

/// A list of units as comparable text, sorted.
fn units(list: &Value) -> Vec<String> {
    let mut out: Vec<String> = list
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| format!("{} {} {}", u["power"], u["type"], u["at"]))
        .collect();
    out.sort();
    out
}

/// Every difference between the judge's result of `case` and the game's next phase.
fn differences(case: &Value, ours: &Value) -> Vec<String> {
    let Some(result) = ours.get("result") else {
        return vec![format!("error: {}", ours["error"])];
    };
    let expect = &case["expect"];
    let mut diffs = Vec::new();
    for o in result["orders"].as_array().into_iter().flatten() {
        if o["result"] == "illegal" {
            diffs.push(format!(
                "{} {}: illegal ({})",
                o["power"], o["order"], o["reason"]
            ));
        }
    }
    let (want, got) = (
        units(&expect["positions_after"]),
        units(&result["positions_after"]),
    );
    if want != got {
        let missing: Vec<&String> = want.iter().filter(|u| !got.contains(u)).collect();
        let extra: Vec<&String> = got.iter().filter(|u| !want.contains(u)).collect();
        diffs.push(format!(
            "units after: the game has {missing:?}, ours {extra:?}"
        ));
    }
    // A unit dislodged with nowhere to go is gone at once in the game (no retreat phase
    // follows for it); the judge lists it with no retreat, and its retreat phase disbands it.
    if let Some(want) = expect.get("dislodged") {
        let mut got: Vec<String> = result["dislodged"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| d.as_str().unwrap_or_default().to_string())
            .filter(|at| {
                result["retreats"][at.as_str()]
                    .as_array()
                    .is_some_and(|options| !options.is_empty())
            })
            .collect();
        got.sort();
        let want: Vec<String> = want
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| d.as_str().unwrap_or_default().to_string())
            .collect();
        if want != got {
            diffs.push(format!("dislodged: the game {want:?}, ours {got:?}"));
        }
    }
    diffs
}

/// A unit written `power type at` (a dislodged one `power type at from`) as the adjudicate
/// interface reads it.
fn unit(text: &Value) -> Value {
    let words: Vec<&str> = text.as_str().unwrap_or_default().split(' ').collect();
    let mut out = serde_json::json!({ "power": words[0], "type": words[1], "at": words[2] });
    if let Some(from) = words.get(3) {
        out["attacker_from"] = Value::from(*from);
    }
    out
}

/// The kept cases, their units written out for the adjudicate interface.
fn cases() -> Vec<Value> {
    let expand =
        |list: &Value| Value::Array(list.as_array().into_iter().flatten().map(unit).collect());
    data("godip/youngstown.json")
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let mut case = case.clone();
            for key in ["units", "dislodged"] {
                if let Some(list) = case.get(key) {
                    case[key] = expand(list);
                }
            }
            case["expect"]["positions_after"] = expand(&case["expect"]["positions_after"]);
            case
        })
        .collect()
}

#[test]
fn youngstown_redux_agrees_with_vdiplomacy_games() {
    let cases = cases();
    assert_eq!(cases.len(), 365);
    let known: &[(&str, &str)] = &[];
    let report = run(
        &Value::Array(cases.clone()),
        variants(),
        &Options::default(),
    );
    let results = report.results.as_array().unwrap();
    let mut failures = Vec::new();
    for (case, ours) in cases.iter().zip(results) {
        let name = case["id"].as_str().unwrap_or_default();
        let diffs = differences(case, ours);
        let excused = known.iter().find(|(k, _)| *k == name);
        match (diffs.is_empty(), excused) {
            (true, None) | (false, Some(_)) => {}
            (false, None) => failures.push(format!("{name}:\n  {}", diffs.join("\n  "))),
            (true, Some(_)) => failures.push(format!("{name}: listed as differing, but agrees")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from the games:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
