//! Running a case in the JSON interface's format and comparing it with its expectation.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;
use strategos::interface::adjudicate::{Options, run};
use strategos::variant::{self, Variant};

/// The built-in variants, loaded once.
pub fn variants() -> &'static [Variant] {
    static VARIANTS: OnceLock<Vec<Variant>> = OnceLock::new();
    VARIANTS.get_or_init(|| variant::embedded().expect("the built-in variants load"))
}

/// Reads a JSON file under `tests/data/` (once per test binary).
pub fn data(path: &str) -> &'static Value {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static Value>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cache.entry(path.to_string()).or_insert_with(|| {
        let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
        Box::leak(Box::new(
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{full}: {e}")),
        ))
    })
}

/// Adjudicates `case` and returns every difference from `expect` (empty: it passed).
pub fn differences(case: &Value, expect: &Value) -> Vec<String> {
    let report = run(case, variants(), &Options::default());
    compare(&report.results[0], expect)
}

/// Every difference between one entry of the interface's output and `expect`.
pub fn compare(entry: &Value, expect: &Value) -> Vec<String> {
    let Some(result) = entry.get("result") else {
        return vec![format!("error: {}", entry["error"])];
    };
    let mut diffs = Vec::new();
    let got = result["orders"].as_array().cloned().unwrap_or_default();
    let want = expect["orders"].as_array().cloned().unwrap_or_default();
    if got.len() != want.len() {
        diffs.push(format!(
            "{} order results for {} orders",
            got.len(),
            want.len()
        ));
    }
    for (w, g) in want.iter().zip(&got) {
        if w["order"] != g["order"] || w["result"] != g["result"] {
            diffs.push(format!(
                "{}: expected {}, got {} ({})",
                w["order"],
                w["result"],
                g["result"],
                g.get("reason").unwrap_or(&Value::Null)
            ));
        }
    }
    if let Some(want) = expect.get("dislodged")
        && sorted(want) != sorted(&result["dislodged"])
    {
        diffs.push(format!(
            "dislodged: expected {want}, got {}",
            result["dislodged"]
        ));
    }
    if let Some(Value::Object(want)) = expect.get("retreats") {
        for (at, options) in want {
            let got = &result["retreats"][at];
            if sorted(options) != sorted(got) {
                diffs.push(format!("retreats of {at}: expected {options}, got {got}"));
            }
        }
    }
    if let Some(want) = expect.get("positions_after") {
        let key = |v: &Value| -> Vec<String> {
            let mut units: Vec<String> = v
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|u| format!("{} {} {}", u["power"], u["type"], u["at"]))
                        .collect()
                })
                .unwrap_or_default();
            units.sort();
            units
        };
        if key(want) != key(&result["positions_after"]) {
            diffs.push(format!(
                "positions after: expected {:?}, got {:?}",
                key(want),
                key(&result["positions_after"])
            ));
        }
    }
    if let Some(want) = expect.get("destroyed_after")
        && sorted(want) != sorted(&result["destroyed_after"])
    {
        diffs.push(format!(
            "destroyed after: expected {want}, got {}",
            result["destroyed_after"]
        ));
    }
    if let Some(want) = expect.get("year_end") {
        let got = &result["year_end"];
        match want.as_object() {
            None if *want != *got => diffs.push(format!("year end: expected {want}, got {got}")),
            None => {}
            Some(fields) => {
                // Each field named; of a field by power, each power named.
                for (key, value) in fields {
                    let pairs: Vec<(String, &Value, &Value)> = match value.as_object() {
                        Some(by_power) => by_power
                            .iter()
                            .map(|(p, v)| (format!("{key}.{p}"), v, &got[key][p]))
                            .collect(),
                        None => vec![(key.clone(), value, &got[key])],
                    };
                    for (name, want, got) in pairs {
                        if sorted_if_list(want) != sorted_if_list(got) {
                            diffs.push(format!("year end {name}: expected {want}, got {got}"));
                        }
                    }
                }
            }
        }
    }
    if let Some(want) = expect.get("credit_orders") {
        let got = result["credit_orders"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let want = want.as_array().cloned().unwrap_or_default();
        if got.len() != want.len() {
            diffs.push(format!(
                "{} credit results for {} expected",
                got.len(),
                want.len()
            ));
        }
        for (w, g) in want.iter().zip(&got) {
            if w["result"] != g["result"] || w.get("reason").is_some_and(|r| *r != g["reason"]) {
                diffs.push(format!(
                    "credit {} {} to {}: expected {} {}, got {} {}",
                    w["power"],
                    w["action"],
                    w["to"],
                    w["result"],
                    w["reason"],
                    g["result"],
                    g["reason"]
                ));
            }
        }
    }
    for key in ["credits", "credits_lapsed", "survivors"] {
        if let Some(want) = expect.get(key)
            && sorted(want) != sorted(&result[key])
        {
            diffs.push(format!("{key}: expected {want}, got {}", result[key]));
        }
    }
    if let Some(want) = expect.get("adjustments")
        && *want != result["adjustments"]
    {
        diffs.push(format!(
            "adjustments: expected {want}, got {}",
            result["adjustments"]
        ));
    }
    diffs
}

/// A list compared whatever its order; anything else as it is.
fn sorted_if_list(v: &Value) -> Value {
    match v {
        Value::Array(_) => Value::from(sorted(v)),
        other => other.clone(),
    }
}

fn sorted(v: &Value) -> Vec<String> {
    let mut items: Vec<String> = v
        .as_array()
        .map(|a| a.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default();
    items.sort();
    items
}
