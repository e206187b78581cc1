//! Retreat phases: each dislodged unit retreats or is disbanded; two retreats to one
//! place both fail and both units are disbanded.

use super::aftermath::retreat_options;
use super::outcome::{Illegal, Outcome};
use super::{Resolution, Submitted};
use crate::diplomacy::map::{Map, RegionId};
use crate::diplomacy::order::{Action, Location, Order};
use crate::diplomacy::position::Position;
use crate::diplomacy::rules::Rules;
use crate::diplomacy::unit::UnitKind;

/// Adjudicates a retreat phase.
pub fn adjudicate(
    map: &Map,
    rules: &Rules,
    position: &Position,
    orders: &[Submitted],
) -> Resolution {
    let mut occupied = vec![false; map.n_provinces()];
    for unit in &position.units {
        occupied[map.province_of(unit.region).index()] = true;
    }
    let options: Vec<Vec<RegionId>> = position
        .dislodged
        .iter()
        .map(|d| retreat_options(map, rules, d, &occupied, &position.contested))
        .collect();
    let mut outcomes = vec![Outcome::Disbanded; orders.len()];
    // For each dislodged unit: the order in force and where it retreats (None: disband).
    let mut in_force: Vec<Option<(usize, Option<RegionId>)>> = vec![None; position.dislodged.len()];
    for (i, submitted) in orders.iter().enumerate() {
        match check(map, position, &options, submitted) {
            Ok((d, target)) => {
                if let Some((earlier, _)) = in_force[d] {
                    outcomes[earlier] = Outcome::Superseded;
                }
                in_force[d] = Some((i, target));
            }
            Err(illegal) => outcomes[i] = Outcome::Illegal(illegal),
        }
    }
    let mut after = position.clone();
    after.dislodged.clear();
    after.contested.clear();
    for (d, order) in in_force.iter().enumerate() {
        let Some((i, target)) = order else { continue };
        let Some(target) = target else {
            outcomes[*i] = Outcome::Disbanded;
            continue;
        };
        let province = map.province_of(*target);
        // A unit retreating across a half-strength border gives way to any other unit
        // retreating to the same place; the others give way to none of its kind.
        let across_half = |e: usize| {
            map.is_half_strength(map.province_of(position.dislodged[e].unit.region), province)
        };
        let rivals: Vec<_> = in_force
            .iter()
            .enumerate()
            .filter(|(e, o)| {
                *e != d && o.is_some_and(|(_, t)| t.is_some_and(|t| map.province_of(t) == province))
            })
            .filter(|(e, _)| across_half(d) || !across_half(*e))
            .map(|(e, _)| map.province_of(position.dislodged[e].unit.region))
            .collect();
        if rivals.is_empty() {
            outcomes[*i] = Outcome::Retreated;
            let mut unit = position.dislodged[d].unit;
            unit.region = *target;
            after.units.push(unit);
        } else {
            outcomes[*i] = Outcome::RetreatBounced { with: rivals };
        }
    }
    Resolution {
        outcomes,
        dislodged: Vec::new(),
        after,
    }
}

/// The dislodged unit an order is for, and its destination (None: disband).
fn check(
    map: &Map,
    position: &Position,
    options: &[Vec<RegionId>],
    submitted: &Submitted,
) -> Result<(usize, Option<RegionId>), Illegal> {
    let Order::Unit(order) = &submitted.order else {
        return Err(Illegal::WrongPhase);
    };
    let found = position
        .dislodged
        .iter()
        .position(|d| map.province_of(d.unit.region) == order.at.province);
    let Some(d) = found else {
        return Err(if position.unit_in(map, order.at.province).is_some() {
            Illegal::NotDislodged
        } else {
            Illegal::NoUnit
        });
    };
    if position.dislodged[d].unit.power != submitted.power {
        return Err(Illegal::ForeignUnit);
    }
    match order.action {
        Action::Disband => Ok((d, None)),
        Action::Retreat { to } | Action::Move { to, .. } => {
            let target = retreat_target(map, position.dislodged[d].unit.kind, &options[d], to)?;
            Ok((d, Some(target)))
        }
        _ => Err(Illegal::WrongPhase),
    }
}

/// The allowed region a retreat order names (a fleet may leave out an unambiguous coast).
fn retreat_target(
    map: &Map,
    kind: UnitKind,
    options: &[RegionId],
    to: Location,
) -> Result<RegionId, Illegal> {
    let matching: Vec<RegionId> = options
        .iter()
        .copied()
        .filter(|r| map.province_of(*r) == to.province)
        .collect();
    match (kind, to.coast, matching.as_slice()) {
        (_, _, []) => Err(Illegal::RetreatNotAllowed),
        (UnitKind::Fleet, Some(coast), _) => {
            if matching.contains(&coast) {
                Ok(coast)
            } else {
                Err(Illegal::CoastUnreachable)
            }
        }
        (_, _, [only]) => Ok(*only),
        (_, None, _) => Err(Illegal::CoastNeeded),
        (UnitKind::Army, Some(_), [first, ..]) => Ok(*first),
    }
}
