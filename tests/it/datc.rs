//! Every DATC v3.0 case as its own named test, under both rules editions.
//!
//! `rules_2023` expects DATC v3.0's preferred answers (`tests/data/datc/cases.json`);
//! `rules_2000` expects the same except where `tests/data/datc/rules-2000.json` gives the
//! 2000 rulebook's answer; `switch_*` set single switches (`tests/data/datc/switches.json`).

use serde_json::Value;

use crate::case::{data, differences};

fn case(id: &str) -> Value {
    let cases = data("datc/cases.json");
    cases
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no DATC case {id}"))
}

#[track_caller]
fn check_2023(id: &str) {
    let mut case = case(id);
    case["rules"] = Value::from("2023");
    let diffs = differences(&case, &case["expect"]);
    assert!(
        diffs.is_empty(),
        "{id} {} (rules 2023):\n  {}",
        case["title"],
        diffs.join("\n  ")
    );
}

/// The case's expectation with the parts named in `answer` replaced.
fn replaced(expect: &Value, answer: &serde_json::Map<String, Value>) -> Value {
    let mut expect = expect.clone();
    for (key, value) in answer {
        match key.as_str() {
            "why" | "switch" | "case" | "rules" => {}
            "orders" => {
                for entry in expect["orders"].as_array_mut().unwrap() {
                    if let Some(result) = value.get(entry["order"].as_str().unwrap()) {
                        entry["result"] = result.clone();
                    }
                }
            }
            _ => expect[key] = value.clone(),
        }
    }
    expect
}

#[track_caller]
fn check_2000(id: &str) {
    let mut case = case(id);
    case["rules"] = Value::from("2000");
    let answers = data("datc/rules-2000.json");
    let expect = match answers["cases"].get(id) {
        Some(Value::Object(answer)) => replaced(&case["expect"], answer),
        _ => case["expect"].clone(),
    };
    let diffs = differences(&case, &expect);
    assert!(
        diffs.is_empty(),
        "{id} {} (rules 2000):\n  {}",
        case["title"],
        diffs.join("\n  ")
    );
}

macro_rules! datc_cases {
    ($($name:ident => $id:literal,)*) => {
        /// DATC v3.0's preferred answers.
        mod rules_2023 {
            $(
                #[test]
                fn $name() {
                    super::check_2023($id);
                }
            )*
        }

        /// The 2000 rulebook's answers.
        mod rules_2000 {
            $(
                #[test]
                fn $name() {
                    super::check_2000($id);
                }
            )*
        }

        /// Every object of the DATC file has a test above, and no test names a missing one.
        #[test]
        fn every_case_has_a_test() {
            let listed: Vec<&str> = vec![$($id),*];
            let cases = crate::case::data("datc/cases.json");
            let ids: Vec<&str> = cases.as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
            assert_eq!(listed, ids);
        }
    };
}

datc_cases! {
    t6_a_1 => "6.A.1",
    t6_a_2 => "6.A.2",
    t6_a_3 => "6.A.3",
    t6_a_4 => "6.A.4",
    t6_a_5 => "6.A.5",
    t6_a_6 => "6.A.6",
    t6_a_7 => "6.A.7",
    t6_a_8 => "6.A.8",
    t6_a_9 => "6.A.9",
    t6_a_10 => "6.A.10",
    t6_a_11 => "6.A.11",
    t6_a_12 => "6.A.12",
    t6_b_1 => "6.B.1",
    t6_b_2 => "6.B.2",
    t6_b_3 => "6.B.3",
    t6_b_4 => "6.B.4",
    t6_b_5 => "6.B.5",
    t6_b_6 => "6.B.6",
    t6_b_7 => "6.B.7",
    t6_b_8 => "6.B.8",
    t6_b_9 => "6.B.9",
    t6_b_10 => "6.B.10",
    t6_b_11 => "6.B.11",
    t6_b_12 => "6.B.12",
    t6_b_13 => "6.B.13",
    t6_b_14 => "6.B.14",
    t6_b_15 => "6.B.15",
    t6_c_1 => "6.C.1",
    t6_c_2 => "6.C.2",
    t6_c_3 => "6.C.3",
    t6_c_4 => "6.C.4",
    t6_c_5 => "6.C.5",
    t6_c_6 => "6.C.6",
    t6_c_7 => "6.C.7",
    t6_c_8 => "6.C.8",
    t6_c_9 => "6.C.9",
    t6_d_1 => "6.D.1",
    t6_d_2 => "6.D.2",
    t6_d_3 => "6.D.3",
    t6_d_4 => "6.D.4",
    t6_d_5 => "6.D.5",
    t6_d_6 => "6.D.6",
    t6_d_7 => "6.D.7",
    t6_d_8 => "6.D.8",
    t6_d_9 => "6.D.9",
    t6_d_10 => "6.D.10",
    t6_d_11 => "6.D.11",
    t6_d_12 => "6.D.12",
    t6_d_13 => "6.D.13",
    t6_d_14 => "6.D.14",
    t6_d_15 => "6.D.15",
    t6_d_16 => "6.D.16",
    t6_d_17 => "6.D.17",
    t6_d_18 => "6.D.18",
    t6_d_19 => "6.D.19",
    t6_d_20 => "6.D.20",
    t6_d_21 => "6.D.21",
    t6_d_22 => "6.D.22",
    t6_d_23 => "6.D.23",
    t6_d_24 => "6.D.24",
    t6_d_25 => "6.D.25",
    t6_d_26 => "6.D.26",
    t6_d_27 => "6.D.27",
    t6_d_28 => "6.D.28",
    t6_d_29 => "6.D.29",
    t6_d_30 => "6.D.30",
    t6_d_31 => "6.D.31",
    t6_d_32 => "6.D.32",
    t6_d_33 => "6.D.33",
    t6_d_34 => "6.D.34",
    t6_e_1 => "6.E.1",
    t6_e_2 => "6.E.2",
    t6_e_3 => "6.E.3",
    t6_e_4 => "6.E.4",
    t6_e_5 => "6.E.5",
    t6_e_6 => "6.E.6",
    t6_e_7 => "6.E.7",
    t6_e_8 => "6.E.8",
    t6_e_9 => "6.E.9",
    t6_e_10 => "6.E.10",
    t6_e_11 => "6.E.11",
    t6_e_12 => "6.E.12",
    t6_e_13 => "6.E.13",
    t6_e_14 => "6.E.14",
    t6_e_15 => "6.E.15",
    t6_f_1 => "6.F.1",
    t6_f_2 => "6.F.2",
    t6_f_3 => "6.F.3",
    t6_f_4 => "6.F.4",
    t6_f_5 => "6.F.5",
    t6_f_6 => "6.F.6",
    t6_f_7 => "6.F.7",
    t6_f_8 => "6.F.8",
    t6_f_9 => "6.F.9",
    t6_f_10 => "6.F.10",
    t6_f_11 => "6.F.11",
    t6_f_12 => "6.F.12",
    t6_f_13 => "6.F.13",
    t6_f_14 => "6.F.14",
    t6_f_15 => "6.F.15",
    t6_f_16 => "6.F.16",
    t6_f_17 => "6.F.17",
    t6_f_18 => "6.F.18",
    t6_f_19 => "6.F.19",
    t6_f_20 => "6.F.20",
    t6_f_21 => "6.F.21",
    t6_f_22 => "6.F.22",
    t6_f_23 => "6.F.23",
    t6_f_24 => "6.F.24",
    t6_f_25 => "6.F.25",
    t6_g_1 => "6.G.1",
    t6_g_2 => "6.G.2",
    t6_g_3 => "6.G.3",
    t6_g_4 => "6.G.4",
    t6_g_5 => "6.G.5",
    t6_g_6 => "6.G.6",
    t6_g_7 => "6.G.7",
    t6_g_8 => "6.G.8",
    t6_g_9 => "6.G.9",
    t6_g_10 => "6.G.10",
    t6_g_11 => "6.G.11",
    t6_g_12 => "6.G.12",
    t6_g_13 => "6.G.13",
    t6_g_14 => "6.G.14",
    t6_g_15 => "6.G.15",
    t6_g_16 => "6.G.16",
    t6_g_17 => "6.G.17",
    t6_g_18 => "6.G.18",
    t6_g_19 => "6.G.19",
    t6_g_20 => "6.G.20",
    t6_h_1 => "6.H.1",
    t6_h_2 => "6.H.2",
    t6_h_3 => "6.H.3",
    t6_h_4 => "6.H.4",
    t6_h_5 => "6.H.5",
    t6_h_6 => "6.H.6",
    t6_h_7 => "6.H.7",
    t6_h_8 => "6.H.8",
    t6_h_9 => "6.H.9",
    t6_h_10 => "6.H.10",
    t6_h_11 => "6.H.11",
    t6_h_12 => "6.H.12",
    t6_h_13 => "6.H.13",
    t6_h_14 => "6.H.14",
    t6_h_15 => "6.H.15",
    t6_h_16 => "6.H.16",
    t6_i_1 => "6.I.1",
    t6_i_2 => "6.I.2",
    t6_i_3 => "6.I.3",
    t6_i_4 => "6.I.4",
    t6_i_5 => "6.I.5",
    t6_i_6 => "6.I.6",
    t6_i_7 => "6.I.7",
    t6_j_1 => "6.J.1",
    t6_j_2 => "6.J.2",
    t6_j_3 => "6.J.3",
    t6_j_4 => "6.J.4",
    t6_j_5 => "6.J.5",
    t6_j_6 => "6.J.6",
    t6_j_7 => "6.J.7",
    t6_j_8 => "6.J.8",
    t6_j_9a => "6.J.9a",
    t6_j_9b => "6.J.9b",
    t6_j_10 => "6.J.10",
    t6_j_11 => "6.J.11",
}

/// Every 2000 answer names a real case and says why.
#[test]
fn every_2000_answer_is_explained() {
    let answers = data("datc/rules-2000.json");
    for (id, answer) in answers["cases"].as_object().unwrap() {
        case(id);
        assert!(
            answer["why"].as_str().is_some_and(|w| w.len() > 20),
            "{id} needs a why"
        );
    }
}

/// Each switch alone gives the DATC's alternative answer (`tests/data/datc/switches.json`).
#[track_caller]
fn check_switch(switch: &str) {
    let checks = data("datc/switches.json")["checks"].as_array().unwrap();
    let mine: Vec<&Value> = checks.iter().filter(|c| c["switch"] == switch).collect();
    assert!(!mine.is_empty(), "no check for {switch}");
    for check in mine {
        let id = check["case"].as_str().unwrap();
        let mut case = case(id);
        case["rules"] = check["rules"].clone();
        let expect = replaced(&case["expect"], check.as_object().unwrap());
        let diffs = differences(&case, &expect);
        assert!(
            diffs.is_empty(),
            "{id} with {}:\n  {}",
            check["rules"],
            diffs.join("\n  ")
        );
    }
}

#[test]
fn switch_multi_route_convoy() {
    check_switch("multi_route_convoy");
}

#[test]
fn switch_convoy_paradox() {
    check_switch("convoy_paradox");
}

#[test]
fn switch_convoyed_attack_cuts_support_against_itself() {
    check_switch("convoyed_attack_cuts_support_against_itself");
}

#[test]
fn switch_retreat_to_convoy_origin() {
    check_switch("retreat_to_convoy_origin");
}

#[test]
fn switch_dislodged_never_affects_attacker_origin() {
    check_switch("dislodged_never_affects_attacker_origin");
}

#[test]
fn switch_support_must_name_coast() {
    check_switch("support_must_name_coast");
}

#[test]
fn switch_civil_disorder_removal() {
    check_switch("civil_disorder_removal");
}

/// Every DATC switch of `Rules` has checks above, and an unknown switch is refused with the
/// list of switches.
#[test]
fn every_switch_is_checked() {
    use strategos::diplomacy::rules::SwitchError;
    use strategos::diplomacy::rules::{Rules, SwitchValue};
    let checks = data("datc/switches.json")["checks"].as_array().unwrap();
    for switch in Rules::SWITCHES {
        // The variant switches are tested with Diadochi V's rules (`diadochi` and `game`),
        // and `builds` with Chaos's and Hundred's (`classics`).
        if ![
            "max_fleet_builds",
            "destroy_and_restore",
            "supply_credit",
            "builds",
        ]
        .contains(&switch)
        {
            assert!(
                checks.iter().any(|c| c["switch"] == switch),
                "{switch} has no check"
            );
        }
    }
    let err = Rules::edition_2000()
        .set_switch("kidnapping", &SwitchValue::Bool(true))
        .unwrap_err();
    assert_eq!(err, SwitchError::Unknown("kidnapping".into()));
    assert!(err.to_string().contains("multi_route_convoy"), "{err}");
}
