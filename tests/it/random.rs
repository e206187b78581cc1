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
        // Retreat every dislodged unit to its first option: the board stays legal.
        let mut retreat_position = movement.after.clone();
        retreat_position.turn.kind = PhaseKind::Retreat;
        let retreats: Vec<Submitted> = movement
            .dislodged
            .iter()
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
