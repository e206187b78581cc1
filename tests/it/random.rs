//! Property tests over random phases: adjudication never panics, every order gets an
//! outcome, and the board after a phase is a legal board.

use std::collections::HashSet;

use strategos::diplomacy::adjudicate::{Submitted, adjudicate};
use strategos::diplomacy::order::{Action, Order, UnitOrder};
use strategos::diplomacy::rules::Rules;
use strategos::diplomacy::turn::PhaseKind;

use crate::case::variants;

#[path = "../../benches/phase_gen.rs"]
mod phase_gen;

use phase_gen::{Rng, random_phase};

#[test]
fn random_phases_adjudicate_to_legal_boards() {
    let standard = variants().iter().find(|v| v.id == "standard").unwrap();
    let map = &standard.map;
    let mut rng = Rng::new(2024);
    for round in 0..400 {
        let n_units = 10 + rng.below(40);
        let (position, orders) = random_phase(map, &mut rng, n_units);
        let rules = if round % 2 == 0 {
            Rules::edition_2000()
        } else {
            Rules::edition_2023()
        };
        let movement = adjudicate(map, &rules, &position, &orders);
        assert_eq!(movement.outcomes.len(), orders.len());
        let mut places = HashSet::new();
        for unit in &movement.after.units {
            assert!(
                places.insert(map.province_of(unit.region)),
                "round {round}: two units in one province after movement"
            );
        }
        assert_eq!(
            movement.after.units.len() + movement.dislodged.len(),
            position.units.len(),
            "round {round}: units lost or made"
        );
        for d in &movement.dislodged {
            for r in &d.retreats {
                assert!(
                    !places.contains(&map.province_of(*r)),
                    "round {round}: retreat into an occupied province"
                );
            }
        }
        // A dislodged unit with no retreat is destroyed at once: only the others wait.
        assert_eq!(
            movement.after.dislodged.len(),
            movement
                .dislodged
                .iter()
                .filter(|d| !d.retreats.is_empty())
                .count(),
            "round {round}: a unit with no retreat waits for a retreat phase"
        );
        // Retreat every dislodged unit that may to its first option: the board stays legal.
        let mut retreat_position = movement.after.clone();
        retreat_position.turn.kind = PhaseKind::Retreat;
        let retreats: Vec<Submitted> = movement
            .dislodged
            .iter()
            .filter(|d| !d.retreats.is_empty())
            .map(|d| {
                let at = strategos::diplomacy::order::Location::province(
                    map.province_of(d.dislodgement.unit.region),
                );
                let action = match d.retreats.first() {
                    Some(r) => Action::Retreat {
                        to: strategos::diplomacy::order::Location {
                            province: map.province_of(*r),
                            coast: Some(*r).filter(|r| map.region(*r).coast.is_some()),
                        },
                    },
                    None => Action::Disband,
                };
                Submitted {
                    power: d.dislodgement.unit.power,
                    order: Order::Unit(UnitOrder {
                        unit: None,
                        at,
                        action,
                    }),
                }
            })
            .collect();
        let retreat = adjudicate(map, &rules, &retreat_position, &retreats);
        let mut places = HashSet::new();
        for unit in &retreat.after.units {
            assert!(
                places.insert(map.province_of(unit.region)),
                "round {round}: two units in one province after retreats"
            );
        }
        for outcome in &retreat.outcomes {
            assert_ne!(
                outcome.result_word(),
                "illegal",
                "round {round}: an offered retreat was refused"
            );
        }
    }
}

#[test]
fn random_adjustment_phases_keep_the_books() {
    use strategos::diplomacy::adjudicate::adjustment::adjustments;
    use strategos::diplomacy::map::ProvinceId;
    use strategos::diplomacy::order::Location;
    use strategos::diplomacy::power::PowerId;
    use strategos::diplomacy::turn::{Season, Turn};
    let standard = variants().iter().find(|v| v.id == "standard").unwrap();
    let map = &standard.map;
    let mut rng = Rng::new(77);
    for round in 0..300 {
        let n_units = 5 + rng.below(30);
        let (mut position, _) = random_phase(map, &mut rng, n_units);
        position.turn = Turn {
            year: 1901,
            season: Season::Winter,
            kind: PhaseKind::Adjustment,
        };
        for p in 0..map.n_provinces() {
            if map.provinces[p].centre.is_some() && rng.below(3) > 0 {
                position.owners[p] = Some(PowerId(rng.below(map.powers.len()) as u8));
            }
        }
        let owed = adjustments(map, &position);
        let mut orders = Vec::new();
        for _ in 0..rng.below(20) {
            let power = PowerId(rng.below(map.powers.len()) as u8);
            let province = ProvinceId(rng.below(map.n_provinces()) as u16);
            let kind = [
                None,
                Some(strategos::diplomacy::unit::UnitKind::Army),
                Some(strategos::diplomacy::unit::UnitKind::Fleet),
            ][rng.below(3)];
            let action = if rng.below(2) == 0 {
                Action::Build
            } else {
                Action::Disband
            };
            let order = if rng.below(10) == 0 {
                Order::Waive
            } else {
                Order::Unit(UnitOrder {
                    unit: kind,
                    at: Location::province(province),
                    action,
                })
            };
            orders.push(Submitted { power, order });
        }
        for rules in [Rules::edition_2000(), Rules::edition_2023()] {
            let resolution = adjudicate(map, &rules, &position, &orders);
            assert_eq!(resolution.outcomes.len(), orders.len());
            let mut places = HashSet::new();
            for unit in &resolution.after.units {
                assert!(
                    places.insert(map.province_of(unit.region)),
                    "round {round}: two units in one province"
                );
            }
            for (p, owed) in owed.iter().enumerate() {
                let power = PowerId(p as u8);
                let before = position.units.iter().filter(|u| u.power == power).count() as i32;
                let after = resolution
                    .after
                    .units
                    .iter()
                    .filter(|u| u.power == power)
                    .count() as i32;
                if *owed < 0 {
                    assert_eq!(
                        after,
                        before + owed,
                        "round {round}: {} must remove {}",
                        map.power(power).id,
                        -owed
                    );
                } else {
                    assert!(
                        after >= before && after <= before + owed,
                        "round {round}: {} built too many",
                        map.power(power).id
                    );
                }
            }
        }
    }
}
