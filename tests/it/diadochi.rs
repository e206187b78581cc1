//! Diadochi V (`variants/diadochi-v.toml`, a reconstructed map), rule by rule as the
//! variant card numbers them: positions and orders in `tests/data/diadochi/rules.json`,
//! through the same adjudication the judge uses.

use serde_json::Value;
use strategos::diplomacy::position::Credit;
use strategos::diplomacy::progress::{VictoryCounting, standing};
use strategos::diplomacy::turn::{PhaseKind, Season, Turn};
use strategos::diplomacy::unit::UnitKind;
use strategos::variant::Variant;

use crate::case::{data, differences, variants};

fn diadochi() -> &'static Variant {
    variants()
        .iter()
        .find(|v| v.id == "diadochi-v")
        .expect("Diadochi V is built in")
}

/// Runs every case of `rules.json` for rule `n`; there must be at least one.
#[track_caller]
fn check_rule(n: u64) {
    let cases: Vec<&Value> = data("diadochi/rules.json")
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["rule"] == n)
        .collect();
    assert!(!cases.is_empty(), "no case for rule {n}");
    let mut failures = Vec::new();
    for case in cases {
        let diffs = differences(case, &case["expect"]);
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", case["id"], diffs.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rule_1_starting_positions() {
    let v = diadochi();
    let map = &v.map;
    let mut units: Vec<String> = v
        .start
        .units
        .iter()
        .map(|u| {
            format!(
                "{} {} {}",
                map.power(u.power).id,
                u.kind.letter(),
                map.region_id(u.region)
            )
        })
        .collect();
    units.sort();
    let expected = [
        "carthage A gad",
        "carthage A had",
        "carthage A nca",
        "carthage F car",
        "egypt A pto",
        "egypt F ale",
        "egypt F cyp",
        "macedonia A lar",
        "macedonia A pel",
        "macedonia F cor",
        "rome A bru",
        "rome A rav",
        "rome F nea",
        "rome F rom",
        "syria A arb",
        "syria A sel",
        "syria F ant",
    ];
    assert_eq!(units, expected);
    assert_eq!(map.powers.len(), 5);
}

#[test]
fn rule_2_years_count_down_from_240_bc() {
    let c = &diadochi().calendar;
    let mut turn = c.first_turn();
    assert_eq!(c.describe(turn), "Spring 240 BC");
    turn = c.next(c.next(turn));
    assert_eq!(c.describe(turn), "Autumn 240 BC");
    turn = c.next(c.next(turn));
    assert_eq!(
        turn,
        Turn {
            year: 240,
            season: Season::Winter,
            kind: PhaseKind::Adjustment
        }
    );
    assert_eq!(c.describe(c.next(turn)), "Spring 239 BC");
}

#[test]
fn rule_3_double_and_triple_centres() {
    let v = diadochi();
    let map = &v.map;
    let rome = map.power_by_id("rome").unwrap();
    assert_eq!(v.start.supply_of(map, rome), 4, "Rome 3 and Neapolis 1");
    let total: u32 = map
        .provinces
        .iter()
        .filter_map(|p| p.centre.as_ref())
        .map(|c| u32::from(c.value_to(rome)))
        .sum();
    assert_eq!(total, 49);
    check_rule(3);
}

#[test]
fn rule_4_build_only_cities() {
    check_rule(4);
}

#[test]
fn rule_5_rebellion_centres_and_impassable_lands() {
    let map = &diadochi().map;
    for id in ["arm", "bel", "ill", "scy"] {
        let p = map.province(map.province_by_id(id).unwrap());
        assert!(
            p.centre.as_ref().is_some_and(|c| c.needs_garrison),
            "{id} is a rebellion centre"
        );
    }
    check_rule(5);
}

#[test]
fn rule_6_destroying_a_centre() {
    check_rule(6);
}

#[test]
fn rule_7_restoring_a_centre() {
    check_rule(7);
}

#[test]
fn rule_8_credit() {
    check_rule(8);
    // Credit never counts toward victory: a power one supply short stays short with a loan.
    let v = diadochi();
    let map = &v.map;
    let rome = map.power_by_id("rome").unwrap();
    let egypt = map.power_by_id("egypt").unwrap();
    let mut position = v.start.clone();
    position.credits.push(Credit {
        lender: egypt,
        borrower: rome,
        amount: 3,
    });
    let s = standing(map, &position, &v.victory());
    assert_eq!(s.counted[rome.index()], 4);
}

#[test]
fn rule_9_two_fleets_a_winter() {
    assert_eq!(diadochi().rules.max_fleet_builds, Some(2));
    check_rule(9);
}

#[test]
fn rule_10_two_coasts_and_canals() {
    let map = &diadochi().map;
    for id in ["aqu", "scy", "lar"] {
        assert_eq!(
            map.province(map.province_by_id(id).unwrap()).coasts.len(),
            2,
            "{id}"
        );
    }
    for id in ["ale", "ath"] {
        let p = map.province(map.province_by_id(id).unwrap());
        assert!(
            p.coasts.is_empty(),
            "a fleet in {id} lies in the canal, on neither coast"
        );
        assert!(
            map.regions_for(map.province_by_id(id).unwrap(), UnitKind::Fleet)
                .len()
                == 1
        );
    }
    check_rule(10);
}

#[test]
fn rule_11_links() {
    check_rule(11);
}

#[test]
fn rule_12_twenty_five_supply_wins() {
    let v = diadochi();
    let map = &v.map;
    assert_eq!(
        (v.victory_centres, v.victory_counting),
        (25, VictoryCounting::Supply)
    );
    let rome = map.power_by_id("rome").unwrap();
    let mut position = v.start.clone();
    position.owners = vec![None; map.n_provinces()];
    // Rome (3), the five doubles (10) and twelve single centres: 25 supply from 18 centres.
    let mut held = vec!["rom", "car", "ale", "ant", "syr", "bab"];
    let singles: Vec<&str> = map
        .provinces
        .iter()
        .filter(|p| {
            p.centre
                .as_ref()
                .is_some_and(|c| c.value == 1 && !c.needs_garrison && c.value_for.is_empty())
        })
        .map(|p| p.id.as_str())
        .take(12)
        .collect();
    held.extend(singles);
    for id in &held {
        position.owners[map.province_by_id(id).unwrap().index()] = Some(rome);
    }
    let s = standing(map, &position, &v.victory());
    assert_eq!(s.counted[rome.index()], 25);
    assert_eq!(s.winner, Some(rome));
    // One centre fewer is not enough.
    position.owners[map.province_by_id(held[held.len() - 1]).unwrap().index()] = None;
    let s = standing(map, &position, &v.victory());
    assert_eq!(s.winner, None);
}

#[test]
fn every_case_names_and_quotes_its_rule() {
    let mut quotes: std::collections::BTreeMap<u64, &Value> = Default::default();
    for case in data("diadochi/rules.json").as_array().unwrap() {
        let n = case["rule"].as_u64().unwrap();
        assert!((1..=12).contains(&n));
        assert!(
            case["id"]
                .as_str()
                .unwrap()
                .starts_with(&format!("rule {n}:"))
        );
        // The card's text, in Russian as printed and in English, opening with its number.
        let card = &case["card"];
        for language in ["ru", "en"] {
            assert!(
                card[language]
                    .as_str()
                    .is_some_and(|t| t.starts_with(&format!("{n}. ")) && t.len() > 20),
                "{}: card.{language}",
                case["id"]
            );
        }
        let first = quotes.entry(n).or_insert(card);
        assert_eq!(
            *first, card,
            "{}: every case of rule {n} quotes it alike",
            case["id"]
        );
    }
}

#[test]
fn the_info_file_gives_every_rule_of_the_card_in_both_languages() {
    let templates = strategos::report::Templates::built_in();
    for language in strategos::lang::Lang::ALL {
        let text = templates.render_in(language, "info-diadochi-v.txt", serde_json::json!({}));
        for n in 1..=12 {
            let number = format!("{n:>2}. ");
            assert!(
                text.lines().any(|l| l.starts_with(&number)),
                "{language}: no rule {n} in the info file"
            );
        }
        // Rome's value to another owner is a ruling, with its source.
        assert!(
            text.contains("ac03"),
            "{language}: the source of Rome's value"
        );
    }
}
