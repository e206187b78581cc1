//! The classic variant library (issue 24), each variant from its own rules: the cases of
//! `tests/data/classics/<variant>.json` (positions and orders, each with the rule it tests
//! and where that rule comes from) through the judge's adjudication, and what the cases'
//! format cannot say (starting positions, calendars, victory) in Rust.

use serde_json::Value;
use strategos::diplomacy::turn::{PhaseKind, Season, Turn};
use strategos::variant::Variant;

use crate::case::{data, differences, variants};

fn variant(id: &str) -> &'static Variant {
    variants()
        .iter()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("{id} is built in"))
}

/// Runs every case of `classics/<id>.json`; there must be at least one.
#[track_caller]
fn check_cases(id: &str) {
    let cases = data(&format!("classics/{id}.json")).as_array().unwrap();
    assert!(!cases.is_empty(), "no case for {id}");
    let mut failures = Vec::new();
    for case in cases {
        assert_eq!(case["variant"], id, "{}", case["id"]);
        assert!(case["rule"].is_string(), "{}: no rule quoted", case["id"]);
        let diffs = differences(case, &case["expect"]);
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", case["id"], diffs.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A variant's starting units, sorted: `power K region`.
fn start_units(v: &Variant) -> Vec<String> {
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
    units
}

fn turn(year: i32, season: Season, kind: PhaseKind) -> Turn {
    Turn { year, season, kind }
}

#[test]
fn france_austria_is_the_standard_map_for_two() {
    let v = variant("france-austria");
    assert_eq!(v.map.powers.len(), 2);
    assert_eq!(
        start_units(v),
        [
            "austria A bud",
            "austria A vie",
            "austria F tri",
            "france A mar",
            "france A par",
            "france F bre"
        ]
    );
    let standard = variant("standard");
    assert_eq!(v.map.provinces.len(), standard.map.provinces.len());
    assert_eq!(v.victory_centres, 18);
    // Only the two powers' home centres are owned; the other 28 are neutral.
    assert_eq!(v.start.owners.iter().filter(|o| o.is_some()).count(), 6);
    // The absent powers' home centres are no one's home.
    let ber = v.map.province_by_id("ber").unwrap();
    assert_eq!(v.map.province(ber).home_of, None);
    check_cases("france-austria");
}

#[test]
fn germany_italy_is_the_standard_map_for_two() {
    let v = variant("germany-italy");
    assert_eq!(
        start_units(v),
        [
            "germany A ber",
            "germany A mun",
            "germany F kie",
            "italy A rom",
            "italy A ven",
            "italy F nap"
        ]
    );
    assert_eq!(v.start.owners.iter().filter(|o| o.is_some()).count(), 6);
    assert_eq!(v.victory_centres, 18);
    check_cases("germany-italy");
}

#[test]
fn fleet_rome_starts_italy_with_a_fleet_in_rome() {
    let v = variant("fleet-rome");
    let italy: Vec<String> = start_units(v)
        .into_iter()
        .filter(|u| u.starts_with("italy"))
        .collect();
    assert_eq!(italy, ["italy A ven", "italy F nap", "italy F rom"]);
    assert_eq!(v.start.units.len(), 22);
    check_cases("fleet-rome");
}

#[test]
fn chaos_starts_with_34_powers_building_in_winter_1900() {
    let v = variant("chaos");
    let map = &v.map;
    assert_eq!(map.powers.len(), 34);
    assert!(v.start.units.is_empty());
    assert_eq!(
        v.start.turn,
        turn(1900, Season::Winter, PhaseKind::Adjustment)
    );
    assert_eq!(
        v.calendar.next(v.start.turn),
        turn(1901, Season::Spring, PhaseKind::Movement)
    );
    assert_eq!(v.calendar.describe(v.start.turn), "Winter 1900");
    // Every power owns one centre, its own, and owes one build.
    let owed = strategos::diplomacy::adjudicate::adjustment::adjustments(map, &v.start);
    assert!(owed.iter().all(|n| *n == 1), "{owed:?}");
    // The letters are DPjudge's: A-Z less M and O, then 0-9.
    let letters: String = map.powers.iter().map(|p| p.letter).collect();
    let mut sorted: Vec<char> = letters.chars().collect();
    sorted.sort();
    let expected: Vec<char> = "0123456789ABCDEFGHIJKLNPQRSTUVWXYZ".chars().collect();
    assert_eq!(sorted, expected);
    let st = map.power_by_id("stpetersburg").unwrap();
    assert_eq!(map.power(st).letter, '3');
    assert_eq!(map.power(st).name, "St Petersburg");
    check_cases("chaos");
}

/// The cases' files quote their rules; a variant named there is shipped.
#[test]
fn every_case_file_names_a_shipped_variant() {
    for entry in
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/classics")).unwrap()
    {
        let path = entry.unwrap().path();
        let id = path.file_stem().unwrap().to_string_lossy().into_owned();
        let cases: &Value = data(&format!("classics/{id}.json"));
        assert!(cases.as_array().is_some_and(|c| !c.is_empty()), "{id}");
        variant(&id);
    }
}

#[test]
fn ancient_mediterranean_from_its_rules() {
    let v = variant("ancmed");
    assert_eq!(
        start_units(v),
        [
            "carthage A car",
            "carthage A cir",
            "carthage F tha",
            "egypt A mem",
            "egypt A thb",
            "egypt F ale",
            "greece A ath",
            "greece A mac",
            "greece F spa",
            "persia A ant",
            "persia A dam",
            "persia F sid",
            "rome A rav",
            "rome A rom",
            "rome F nea"
        ]
    );
    // The years are numbered from 1.
    assert_eq!(v.start.turn, turn(1, Season::Spring, PhaseKind::Movement));
    assert_eq!(
        v.calendar
            .next(v.calendar.next(turn(1, Season::Fall, PhaseKind::Retreat))),
        turn(2, Season::Spring, PhaseKind::Movement)
    );
    assert_eq!(v.calendar.describe(v.start.turn), "Spring 1");
    assert_eq!(
        v.map
            .provinces
            .iter()
            .filter(|p| p.centre.is_some())
            .count(),
        34
    );
    assert_eq!(v.victory_centres, 18);
    let bal = v.map.province_by_id("bal").unwrap();
    assert!(v.map.province(bal).convoys);
    check_cases("ancmed");
}

#[test]
fn pure_from_its_rules() {
    let v = variant("pure");
    let map = &v.map;
    assert_eq!(map.provinces.len(), 7);
    // Every space borders every other.
    for a in &map.army_neighbours {
        assert_eq!(a.len(), 6);
    }
    assert_eq!(v.start.units.len(), 7);
    assert_eq!(v.victory_centres, 4);
    check_cases("pure");
}

#[test]
fn modern_from_its_rules() {
    let v = variant("modern");
    assert_eq!(v.map.powers.len(), 10);
    assert_eq!(v.start.units.len(), 38);
    assert_eq!(
        v.start.turn,
        turn(1995, Season::Spring, PhaseKind::Movement)
    );
    // DPjudge and about_modern: an army in Murmansk (MILA has a fleet).
    assert!(start_units(v).contains(&"russia A mur".to_string()));
    assert_eq!(
        v.map
            .provinces
            .iter()
            .filter(|p| p.centre.is_some())
            .count(),
        64
    );
    assert_eq!(v.victory_centres, 33);
    // Modern's lyo is Lyon, the city.
    let lyo = v.map.province_by_id("lyo").unwrap();
    assert_eq!(v.map.province(lyo).name, "Lyon");
    check_cases("modern");
}

#[test]
fn nineteen_hundred_from_its_rules() {
    let v = variant("1900");
    let map = &v.map;
    assert_eq!(v.start.units.len(), 25);
    assert_eq!(
        map.provinces.iter().filter(|p| p.centre.is_some()).count(),
        39
    );
    // Britain owns Egypt and France Algeria, neither a home centre.
    let egy = map.province_by_id("egy").unwrap();
    assert_eq!(map.province(egy).home_of, None);
    assert_eq!(v.start.owners[egy.index()], map.power_by_id("britain"));
    // Spain has three coasts; Gibraltar is land and sea; the Cape borders go at half strength.
    let spa = map.province_by_id("spa").unwrap();
    assert_eq!(map.province(spa).coasts.len(), 3);
    assert!(map.province(map.province_by_id("gib").unwrap()).convoys);
    let mao = map.province_by_id("mao").unwrap();
    assert!(map.is_half_strength(egy, mao) && map.is_half_strength(mao, egy));
    assert_eq!(map.power(map.power_by_id("turkey").unwrap()).letter, 'O');
    check_cases("1900");
}

#[test]
fn hundred_moves_five_years_a_turn_and_adjusts_every_other_turn() {
    let v = variant("hundred");
    let c = &v.calendar;
    assert_eq!(
        v.start.turn,
        turn(1425, Season::Spring, PhaseKind::Movement)
    );
    let mut t = v.start.turn;
    let mut seen = Vec::new();
    for _ in 0..10 {
        seen.push(format!("{} {:?}", c.describe(t), t.kind));
        t = c.next(t);
    }
    assert_eq!(
        seen,
        [
            "Spring 1425 Movement",
            "Spring 1425 Retreat",
            "Fall 1430 Movement",
            "Fall 1430 Retreat",
            "Winter 1430 Adjustment",
            "Spring 1435 Movement",
            "Spring 1435 Retreat",
            "Fall 1440 Movement",
            "Fall 1440 Retreat",
            "Winter 1440 Adjustment",
        ]
    );
    assert_eq!(
        v.rules.builds,
        strategos::diplomacy::rules::BuildSites::Owned
    );
    assert_eq!(v.victory_centres, 9);
    assert_eq!(
        v.map
            .provinces
            .iter()
            .filter(|p| p.centre.is_some())
            .count(),
        17
    );
    // France starts with five units on four centres.
    let france = v.map.power_by_id("france").unwrap();
    assert_eq!(
        v.start.units.iter().filter(|u| u.power == france).count(),
        5
    );
    check_cases("hundred");
}

#[test]
fn colonial_from_its_rules() {
    let v = variant("colonial");
    let map = &v.map;
    assert_eq!(map.powers.len(), 7);
    assert_eq!(
        v.start.turn,
        turn(1870, Season::Spring, PhaseKind::Movement)
    );
    assert_eq!(
        map.provinces.iter().filter(|p| p.centre.is_some()).count(),
        58
    );
    assert_eq!(v.victory_centres, 30);
    assert!(map.province(map.province_by_id("ceb").unwrap()).convoys);
    assert_eq!(map.power(map.power_by_id("holland").unwrap()).letter, 'H');
    check_cases("colonial");
}

#[test]
fn world_from_its_rules() {
    let v = variant("world");
    let map = &v.map;
    assert_eq!(map.powers.len(), 17);
    assert_eq!(
        v.start.turn,
        turn(2000, Season::Spring, PhaseKind::Movement)
    );
    assert_eq!(
        map.provinces.iter().filter(|p| p.centre.is_some()).count(),
        86
    );
    assert_eq!(v.victory_centres, 44);
    assert_eq!(v.start.units.len(), 51);
    assert_eq!(map.power(map.power_by_id("oz").unwrap()).letter, 'Z');
    // MILA's misspellings are kept as aliases.
    let sca = map.province_by_id("sca").unwrap();
    assert_eq!(map.province(sca).name, "Scandinavia");
    assert_eq!(
        strategos::text::names::lookup(v, "Skandanavia"),
        Some(strategos::diplomacy::map::NameTarget::Province(sca))
    );
    check_cases("world");
}

#[test]
fn youngstown_redux_from_its_rules() {
    let v = variant("youngstown");
    let map = &v.map;
    assert_eq!(map.powers.len(), 10);
    assert_eq!(
        v.start.turn,
        turn(1901, Season::Spring, PhaseKind::Movement)
    );
    assert_eq!(
        map.provinces.iter().filter(|p| p.centre.is_some()).count(),
        81
    );
    assert_eq!(v.victory_centres, 28);
    assert_eq!(map.power(map.power_by_id("india").unwrap()).letter, 'N');
    assert_eq!(v.start.units.len(), 44);
    // The eight boxes are seas, drawn as boxes.
    let layout = v.layout.as_ref().unwrap();
    let boxes: Vec<&String> = layout
        .places
        .iter()
        .filter(|(_, place)| place.boxed)
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        boxes,
        ["bxa", "bxb", "bxc", "bxd", "bxe", "bxf", "bxg", "bxh"]
    );
    check_cases("youngstown");
}
