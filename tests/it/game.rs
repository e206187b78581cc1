//! A game played phase by phase through the rules core: orders read from text, phases
//! adjudicated, empty phases skipped, centres changing hands after the fall, builds.

use strategos::diplomacy::adjudicate::{Submitted, adjudicate};
use strategos::diplomacy::position::Position;
use strategos::diplomacy::progress::{advance, standing};
use strategos::diplomacy::turn::{PhaseKind, Season};
use strategos::text::order::parse_orders;
use strategos::variant::Variant;

use crate::case::variants;

fn standard() -> &'static Variant {
    variants().iter().find(|v| v.id == "standard").unwrap()
}

/// Plays one phase: `orders` holds `power: orders` lines.
fn play(position: &Position, orders: &str) -> (Position, Vec<String>) {
    let variant = standard();
    let map = &variant.map;
    let mut submitted = Vec::new();
    for line in orders.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (power, text) = line.split_once(':').unwrap();
        let power = map.power_by_id(power.trim()).unwrap();
        let (parsed, diagnostics) = parse_orders(variant, position.turn.kind, text);
        assert!(diagnostics.is_empty(), "{line}: {diagnostics:?}");
        submitted.extend(parsed.into_iter().map(|p| Submitted {
            power,
            order: p.order,
        }));
    }
    let resolution = adjudicate(map, &variant.rules, position, &submitted);
    let words = resolution
        .outcomes
        .iter()
        .map(|o| o.result_word().to_string())
        .collect();
    (
        advance(
            map,
            &variant.calendar,
            &variant.victory(),
            position,
            &resolution,
        )
        .next,
        words,
    )
}

fn owner(position: &Position, province: &str) -> Option<String> {
    let map = &standard().map;
    position.owners[map.province_by_id(province).unwrap().index()].map(|p| map.power(p).id.clone())
}

#[test]
fn the_first_year_of_a_game() {
    let variant = standard();
    let map = &variant.map;
    let spring = variant.start.clone();
    assert_eq!(variant.calendar.describe(spring.turn), "Spring 1901");
    let (fall, results) = play(
        &spring,
        "england: F Lon-Nth, F Edi-Nwg, A Lvp-Yor
         france: A Par-Bur; A Mar-Spa; F Bre-Mao
         russia: F Sev-Bla
         turkey: F Ank-Bla",
    );
    assert!(
        results.iter().take(6).all(|r| r == "succeeds"),
        "{results:?}"
    );
    assert_eq!(
        &results[6..],
        ["fails", "fails"],
        "Russia and Turkey bounce in the Black Sea"
    );
    // Nobody was dislodged: no retreat phase.
    assert_eq!(
        (fall.turn.season, fall.turn.kind),
        (Season::Fall, PhaseKind::Movement)
    );
    let (winter, _) = play(
        &fall,
        "england: F Nwg-Nwy, F Nth S F Nwg-Nwy
         france: F Mao-Por, A Spa H",
    );
    assert_eq!(
        (winter.turn.season, winter.turn.kind),
        (Season::Winter, PhaseKind::Adjustment)
    );
    assert_eq!(owner(&winter, "nwy").as_deref(), Some("england"));
    assert_eq!(owner(&winter, "spa").as_deref(), Some("france"));
    assert_eq!(owner(&winter, "por").as_deref(), Some("france"));
    assert_eq!(owner(&winter, "bur"), None, "Burgundy is no centre");
    let (spring_1902, results) = play(
        &winter,
        "england: Build F Lon
         france: Build A Par; Build F Bre; Build A Mar",
    );
    assert_eq!(
        results,
        ["succeeds", "succeeds", "succeeds", "fails"],
        "France had two builds"
    );
    assert_eq!(variant.calendar.describe(spring_1902.turn), "Spring 1902");
    assert_eq!(spring_1902.units.len(), 22 + 3);
    let standing = standing(map, &spring_1902, &variant.victory());
    assert_eq!(
        standing.counted[map.power_by_id("france").unwrap().index()],
        5
    );
    assert_eq!(standing.winner, None);
    assert!(standing.eliminated.is_empty());
}

#[test]
fn a_dislodgement_brings_a_retreat_phase() {
    let variant = standard();
    let map = &variant.map;
    let (fall, _) = play(&variant.start, "austria: A Vie-Tyr");
    let (retreat, results) = play(
        &fall,
        "austria: A Tyr-Ven, F Tri S A Tyr-Ven\nitaly: A Ven H",
    );
    assert_eq!(results, ["succeeds", "succeeds", "fails"]);
    assert_eq!(
        (retreat.turn.season, retreat.turn.kind),
        (Season::Fall, PhaseKind::Retreat)
    );
    assert_eq!(retreat.dislodged.len(), 1);
    assert_eq!(map.province(retreat.dislodged[0].attacker_from).id, "tyr");
    let (winter, results) = play(&retreat, "italy: A Ven R Pie");
    assert_eq!(results, ["succeeds"]);
    assert_eq!(
        (winter.turn.season, winter.turn.kind),
        (Season::Winter, PhaseKind::Adjustment)
    );
    assert_eq!(owner(&winter, "ven").as_deref(), Some("austria"));
    assert_eq!(owner(&winter, "pie"), None);
    assert!(winter.dislodged.is_empty());
    // Austria builds one; Italy, with two centres and three units, must remove one and
    // sends no orders: civil disorder removes the unit farthest from its centres.
    let (spring, results) = play(&winter, "austria: Build A Vie");
    assert_eq!(results, ["succeeds"]);
    let italian: Vec<String> = spring
        .units
        .iter()
        .filter(|u| map.power(u.power).id == "italy")
        .map(|u| map.region_id(u.region))
        .collect();
    assert_eq!(italian.len(), 2, "{italian:?}");
    assert_eq!(variant.calendar.describe(spring.turn), "Spring 1902");
}

#[test]
fn a_limit_on_fleet_builds() {
    use strategos::diplomacy::adjudicate::Outcome;
    use strategos::diplomacy::adjudicate::outcome::Allowance;
    use strategos::diplomacy::rules::{Rules, SwitchValue};
    use strategos::diplomacy::turn::Turn;
    let variant = standard();
    let map = &variant.map;
    let england = map.power_by_id("england").unwrap();
    let mut winter = variant.start.clone();
    winter.turn = Turn {
        year: 1901,
        season: Season::Winter,
        kind: PhaseKind::Adjustment,
    };
    winter.units.retain(|u| u.power != england);
    let mut rules = Rules::edition_2000();
    rules
        .set_switch("max_fleet_builds", &SwitchValue::Int(1))
        .unwrap();
    let (orders, _) = parse_orders(
        variant,
        PhaseKind::Adjustment,
        "Build F Lon\nBuild F Edi\nBuild A Lvp",
    );
    let submitted: Vec<Submitted> = orders
        .into_iter()
        .map(|p| Submitted {
            power: england,
            order: p.order,
        })
        .collect();
    let resolution = adjudicate(map, &rules, &winter, &submitted);
    assert_eq!(
        resolution.outcomes,
        [
            Outcome::Built,
            Outcome::NotAllowed(Allowance::FleetLimit),
            Outcome::Built
        ]
    );
    // Without the limit both fleets are built.
    let resolution = adjudicate(map, &Rules::edition_2000(), &winter, &submitted);
    assert!(resolution.outcomes.iter().all(|o| *o == Outcome::Built));
}

/// A dislodged unit with nowhere to go is destroyed in the movement results, and when no
/// dislodged unit has a choice there is no retreat phase (as njudge does; a history holding
/// such a phase does not import into jDip).
#[test]
fn a_unit_with_no_retreat_brings_no_retreat_phase() {
    use strategos::diplomacy::unit::{Unit, UnitKind};
    let variant = standard();
    let map = &variant.map;
    let unit = |power: &str, kind: UnitKind, province: &str| Unit {
        power: map.power_by_id(power).unwrap(),
        kind,
        region: map.regions_for(map.province_by_id(province).unwrap(), kind)[0],
    };
    // A French army in Portugal, attacked from Spain with support from the Mid-Atlantic: its
    // only neighbours are Spain, where the attack came from, and a sea.
    let mut spring = Position::empty(map, variant.start.turn);
    spring.owners = variant.start.owners.clone();
    spring.units = vec![
        unit("france", UnitKind::Army, "por"),
        unit("england", UnitKind::Army, "spa"),
        unit("england", UnitKind::Fleet, "mao"),
    ];
    let (fall, results) = play(
        &spring,
        "france: A Por H
         england: A Spa-Por, F Mao S A Spa-Por",
    );
    assert_eq!(results, ["fails", "succeeds", "succeeds"]);
    assert_eq!(
        (fall.turn.season, fall.turn.kind),
        (Season::Fall, PhaseKind::Movement),
        "no retreat phase"
    );
    assert!(fall.dislodged.is_empty());
    assert_eq!(fall.units.len(), 2, "the French army is gone");
}
