//! Variant files: the shipped ones load and fit the DATC; broken ones list every problem.
//!
//! A broken file in `tests/data/variants/bad/` states the problems it must produce in
//! `# expect: ` lines at its top; each must appear among the loader's messages.

use std::path::Path;

use strategos::diplomacy::map::Map;
use strategos::diplomacy::turn::{PhaseKind, Season, Turn};
use strategos::diplomacy::unit::UnitKind;
use strategos::variant::load_variant;

use crate::case::{data, variants};

fn data_dir(sub: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(sub)
}

#[test]
fn every_variant_file_loads() {
    let mut n_files = 0;
    for entry in std::fs::read_dir(data_dir("variants")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        n_files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let id = path.file_stem().unwrap().to_string_lossy();
        if let Err(problems) = load_variant(&id, &path.display().to_string(), &text) {
            let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            panic!("{} does not load:\n{}", path.display(), list.join("\n"));
        }
    }
    assert!(n_files >= 1);
    assert!(variants().iter().any(|v| v.id == "standard"));
}

#[test]
fn the_standard_map_has_the_classic_numbers() {
    let standard = &variants().iter().find(|v| v.id == "standard").unwrap();
    let map = &standard.map;
    assert_eq!(
        map.provinces
            .iter()
            .filter(|p| p.terrain != strategos::diplomacy::map::Terrain::Impassable)
            .count(),
        75
    );
    assert_eq!(
        map.provinces.iter().filter(|p| p.centre.is_some()).count(),
        34
    );
    assert_eq!(map.powers.len(), 7);
    assert_eq!(standard.start.units.len(), 22);
    assert_eq!(standard.victory_centres, 18);
    assert_eq!(standard.rules.edition, "2000");
}

/// Every plain move the DATC expects to succeed is possible on our map, and every plain
/// move the DATC calls illegal because the place is no neighbour is impossible.
#[test]
fn the_standard_map_agrees_with_the_datc() {
    let map = &variants().iter().find(|v| v.id == "standard").unwrap().map;
    let mut n_checked = 0;
    for case in data("datc/cases.json").as_array().unwrap() {
        let convoys = case["orders"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|o| o.as_array().unwrap())
            .any(|o| o.as_str().unwrap().contains(" C "));
        if case["phase"]["kind"] != "movement" || convoys {
            continue;
        }
        for expected in case["expect"]["orders"].as_array().unwrap() {
            let order = expected["order"].as_str().unwrap();
            let words: Vec<&str> = order.split_whitespace().collect();
            let [kind, from, "-", to] = words.as_slice() else {
                continue;
            };
            let kind = if *kind == "A" {
                UnitKind::Army
            } else {
                UnitKind::Fleet
            };
            let at = case["units"].as_array().unwrap().iter().find(|u| {
                u["at"]
                    .as_str()
                    .unwrap()
                    .split('/')
                    .next()
                    .unwrap()
                    .eq_ignore_ascii_case(from.split('/').next().unwrap())
            });
            let Some(at) = at else { continue };
            let possible = reachable(map, kind, at["at"].as_str().unwrap(), to);
            match expected["result"].as_str().unwrap() {
                "succeeds" => assert!(possible, "{}: {order} must be possible", case["id"]),
                "illegal" if words.len() == 4 && !possible => {}
                _ => continue,
            }
            n_checked += 1;
        }
    }
    assert!(n_checked >= 50, "only {n_checked} moves checked");
    // The DATC's "not a neighbour" cases (6.A.1 to 6.A.3, 6.A.9), and a border only armies cross.
    for (kind, from, to) in [
        (UnitKind::Fleet, "nth", "pic"),
        (UnitKind::Army, "lvp", "iri"),
        (UnitKind::Fleet, "kie", "mun"),
        (UnitKind::Fleet, "rom", "ven"),
        (UnitKind::Fleet, "edi", "lvp"),
    ] {
        assert!(
            !reachable(map, kind, from, to),
            "{from} - {to} must be impossible"
        );
    }
    assert!(reachable(map, UnitKind::Army, "edi", "lvp"));
}

fn reachable(map: &Map, kind: UnitKind, from: &str, to: &str) -> bool {
    let (fp, fc) = from
        .split_once('/')
        .map_or((from, None), |(p, c)| (p, Some(c)));
    let province = map.province_by_id(fp).unwrap();
    let region = match fc {
        Some(c) if kind == UnitKind::Fleet => {
            map.coast_region(province, &c.to_lowercase()).unwrap()
        }
        _ => map.province(province).region,
    };
    let target = map.province_by_id(to.split('/').next().unwrap()).unwrap();
    map.regions_for(target, kind)
        .iter()
        .any(|&r| map.is_adjacent(kind, region, r))
}

#[test]
fn broken_variant_files_list_every_problem() {
    let mut n_files = 0;
    for entry in std::fs::read_dir(data_dir("tests/data/variants/bad")).unwrap() {
        let path = entry.unwrap().path();
        n_files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let problems = match load_variant("bad", &name, &text) {
            Ok(_) => panic!("{name} loaded although it is broken"),
            Err(problems) => problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        };
        let expected: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# expect: "))
            .collect();
        assert!(!expected.is_empty(), "{name} states no expected problem");
        for want in &expected {
            assert!(
                problems.iter().any(|p| p.contains(want)),
                "{name}: expected '{want}' among:\n{}",
                problems.join("\n")
            );
        }
    }
    assert!(n_files >= 2);
}

#[test]
fn a_variant_with_years_counting_down() {
    let text = std::fs::read_to_string(data_dir("tests/data/variants/tiny.toml")).unwrap();
    let tiny = load_variant("tiny", "tiny.toml", &text).unwrap();
    let c = &tiny.calendar;
    let first = c.first_turn();
    assert_eq!(c.describe(first), "Spring 240 BC");
    let autumn = c.next(c.next(first));
    assert_eq!(c.describe(autumn), "Autumn 240 BC");
    let winter = c.next(c.next(autumn));
    assert_eq!(
        winter,
        Turn {
            year: 240,
            season: Season::Winter,
            kind: PhaseKind::Adjustment
        }
    );
    assert_eq!(c.describe(c.next(winter)), "Spring 239 BC");
    // Southland is worth 2 to its owner South but 1 to North.
    let map = &tiny.map;
    let sou = map
        .province(map.province_by_id("sou").unwrap())
        .centre
        .clone()
        .unwrap();
    assert_eq!(sou.value_to(map.power_by_id("south").unwrap()), 2);
    assert_eq!(sou.value_to(map.power_by_id("north").unwrap()), 1);
    assert_eq!(
        tiny.start.supply_of(map, map.power_by_id("south").unwrap()),
        2
    );
}

#[test]
fn garbage_never_panics_the_loader() {
    let samples = [
        "",
        "\u{0}",
        "name = 1",
        "[provinces]\nx = 3",
        "[[powers]]",
        "name=\"x\"\n[calendar]\nfirst_year=1\n[victory]\ncentres=1\n[powers]\n[provinces]\n[adjacency]\narmy=[\"-\",\"a-\",\"-b\",\"a-b-c\"]",
    ];
    for s in samples {
        assert!(
            load_variant("x", "x.toml", s).is_err(),
            "{s:?} should be refused"
        );
    }
}
