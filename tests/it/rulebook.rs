//! The 2000 rulebook's convoy diagrams 28 to 32 (`../shared/rules-sources/000_*.txt`),
//! with the orders written as the rulebook writes them.

use crate::case::{data, differences};

#[track_caller]
fn check(id: &str) {
    let cases = data("rulebook/diagrams.json");
    let case = cases
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"));
    let diffs = differences(case, &case["expect"]);
    assert!(diffs.is_empty(), "{id}:\n  {}", diffs.join("\n  "));
}

#[test]
fn diagram_28_swapping_places_by_convoy() {
    check("diagram 28");
}

#[test]
fn diagram_29_two_convoy_routes_one_survives() {
    check("diagram 29");
}

#[test]
fn diagram_30_convoyed_attack_does_not_cut_support_against_its_fleet() {
    check("diagram 30");
}

#[test]
fn diagram_31_convoy_with_another_route_cuts_support() {
    check("diagram 31");
}

#[test]
fn diagram_32_supported_convoyed_attack_dislodges_supporter() {
    check("diagram 32");
}

#[test]
fn diagram_32_with_italian_orders_reversed() {
    check("diagram 32, Italian orders reversed");
}

#[test]
fn every_diagram_has_a_test() {
    let cases = data("rulebook/diagrams.json");
    assert_eq!(cases.as_array().unwrap().len(), 6);
}

/// Our own cases beyond the DATC (`tests/data/cases/own.json`), in the same format.
#[test]
fn own_cases() {
    let cases = data("cases/own.json").as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let diffs = differences(case, &case["expect"]);
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", case["id"], diffs.join("\n  ")));
        }
    }
    assert!(cases.len() >= 7);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
