//! Adjustment phases: builds, waives and removals, carried out one by one in the order
//! given (DATC 4.D.4 to 4.D.6: the first legal ones count), then civil-disorder removals
//! for powers that removed too few units.

use std::collections::VecDeque;

use super::outcome::{Allowance, Illegal, Outcome};
use super::{Resolution, Submitted};
use crate::diplomacy::credit::{Balance, balance, ledger};
use crate::diplomacy::map::{Map, ProvinceId, RegionId, Terrain};
use crate::diplomacy::order::{Action, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::rules::{BuildSites, CivilDisorderRemoval, Rules};
use crate::diplomacy::unit::{Unit, UnitKind};

/// Builds (positive) or removals (negative) each power owes: supply (with the credit in
/// force, `credit::ledger`) minus units. Supply lent out limits the lender's builds but never
/// costs it a unit (Diadochi V rule 8).
pub fn adjustments(map: &Map, position: &Position) -> Vec<i32> {
    let credits = ledger(map, position).in_force;
    (0..map.powers.len())
        .map(|p| {
            let power = PowerId(p as u8);
            let units = position.units.iter().filter(|u| u.power == power).count() as i64;
            let Balance { borrowed, lent } = balance(&credits, power);
            let supply = i64::from(position.supply_of(map, power))
                + i64::from(position.partisan_supply(map, power))
                + i64::from(borrowed);
            let owed = if units > supply {
                supply - units
            } else {
                (supply - i64::from(lent) - units).max(0)
            };
            owed as i32
        })
        .collect()
}

struct Ledger {
    /// Builds left (positive) or removals left (negative) per power.
    left: Vec<i32>,
    fleets_built: Vec<u32>,
    sites_built: Vec<ProvinceId>,
    removed: Vec<usize>,
    built: Vec<Unit>,
}

/// Adjudicates an adjustment phase.
pub fn adjudicate(
    map: &Map,
    rules: &Rules,
    position: &Position,
    orders: &[Submitted],
) -> Resolution {
    let owed = adjustments(map, position);
    let mut ledger = Ledger {
        left: owed.clone(),
        fleets_built: vec![0; map.powers.len()],
        sites_built: Vec::new(),
        removed: Vec::new(),
        built: Vec::new(),
    };
    let outcomes: Vec<Outcome> = orders
        .iter()
        .map(|s| match &s.order {
            Order::Waive => waive(&mut ledger, s.power),
            Order::Unit(order) => match order.action {
                Action::Build => build(map, rules, position, &mut ledger, s.power, order),
                Action::Disband => remove(map, position, &mut ledger, s.power, order),
                _ => Outcome::Illegal(Illegal::WrongPhase),
            },
        })
        .collect();
    for p in 0..map.powers.len() {
        let power = PowerId(p as u8);
        while ledger.left[p] < 0 {
            let Some(u) = civil_disorder_pick(map, rules, position, power, &ledger.removed) else {
                break;
            };
            ledger.removed.push(u);
            ledger.left[p] += 1;
        }
    }
    let mut after = position.clone();
    after.units = position
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| !ledger.removed.contains(i))
        .map(|(_, u)| *u)
        .chain(ledger.built.iter().copied())
        .collect();
    Resolution {
        outcomes,
        dislodged: Vec::new(),
        after,
    }
}

fn waive(ledger: &mut Ledger, power: PowerId) -> Outcome {
    let left = &mut ledger.left[power.index()];
    if *left <= 0 {
        return Outcome::Illegal(Illegal::NoBuilds);
    }
    *left -= 1;
    Outcome::Waived
}

fn build(
    map: &Map,
    rules: &Rules,
    position: &Position,
    ledger: &mut Ledger,
    power: PowerId,
    order: &UnitOrder,
) -> Outcome {
    match build_site(map, rules, position, power, order) {
        Err(illegal) => Outcome::Illegal(illegal),
        Ok((kind, region)) => {
            let province = map.province_of(region);
            if ledger.sites_built.contains(&province) {
                return Outcome::NotAllowed(Allowance::SiteTaken);
            }
            if ledger.left[power.index()] <= 0 {
                return Outcome::NotAllowed(Allowance::NoBuildsLeft);
            }
            if kind == UnitKind::Fleet
                && rules
                    .max_fleet_builds
                    .is_some_and(|max| ledger.fleets_built[power.index()] >= max)
            {
                return Outcome::NotAllowed(Allowance::FleetLimit);
            }
            ledger.left[power.index()] -= 1;
            ledger.sites_built.push(province);
            if kind == UnitKind::Fleet {
                ledger.fleets_built[power.index()] += 1;
            }
            ledger.built.push(Unit {
                power,
                kind,
                region,
            });
            Outcome::Built
        }
    }
}

/// Whether a build could be made at all, and of what where (DATC 4.B.7, 4.C.3, 4.C.4).
fn build_site(
    map: &Map,
    rules: &Rules,
    position: &Position,
    power: PowerId,
    order: &UnitOrder,
) -> Result<(UnitKind, RegionId), Illegal> {
    let province = order.at.province;
    let p = map.province(province);
    if adjustments(map, position)[power.index()] <= 0 {
        return Err(Illegal::NoBuilds);
    }
    if position.destroyed.contains(&province) {
        return Err(Illegal::SiteDestroyed);
    }
    let home = p.home_of == Some(power) && p.centre.is_some();
    let partisan = p.partisan_of == Some(power) && position.partisans_rise(map, power);
    let owns_a_home = || {
        (0..map.n_provinces()).any(|i| {
            map.provinces[i].home_of == Some(power)
                && map.provinces[i].centre.is_some()
                && position.owners[i] == Some(power)
        })
    };
    let site = match rules.builds {
        BuildSites::Home => home || p.build_site,
        BuildSites::Owned => p.centre.is_some() || p.build_site,
        BuildSites::OwnedWithHome => home || p.build_site || (p.centre.is_some() && owns_a_home()),
    };
    if !site && !partisan {
        return Err(Illegal::NotBuildSite);
    }
    if !partisan && position.owners[province.index()] != Some(power) {
        return Err(Illegal::SiteNotOwned);
    }
    if position.unit_in(map, province).is_some() {
        return Err(Illegal::SiteOccupied);
    }
    let kind = match (order.unit, p.terrain, order.at.coast) {
        (Some(kind), _, _) => kind,
        (None, Terrain::Land, _) => UnitKind::Army,
        (None, Terrain::Coast, Some(_)) => UnitKind::Fleet,
        (None, _, _) => return Err(Illegal::UnitTypeNeeded),
    };
    match kind {
        UnitKind::Army => match p.terrain {
            Terrain::Land | Terrain::Coast => Ok((kind, p.region)),
            _ => Err(Illegal::CannotBuildThere),
        },
        UnitKind::Fleet => match (p.terrain, p.coasts.is_empty(), order.at.coast) {
            (Terrain::Coast, true, _) => Ok((kind, p.region)),
            (Terrain::Coast, false, Some(coast)) if p.coasts.contains(&coast) => Ok((kind, coast)),
            (Terrain::Coast, false, _) => Err(Illegal::BuildCoastNeeded),
            _ => Err(Illegal::CannotBuildThere),
        },
    }
}

fn remove(
    map: &Map,
    position: &Position,
    ledger: &mut Ledger,
    power: PowerId,
    order: &UnitOrder,
) -> Outcome {
    let Some(u) = position
        .units
        .iter()
        .position(|u| map.province_of(u.region) == order.at.province)
    else {
        return Outcome::Illegal(Illegal::NoUnit);
    };
    if position.units[u].power != power {
        return Outcome::Illegal(Illegal::ForeignUnit);
    }
    let left = &mut ledger.left[power.index()];
    if adjustments_owed_removal(map, position, power) {
        if ledger.removed.contains(&u) {
            return Outcome::NotAllowed(Allowance::AlreadyRemoved);
        }
        if *left >= 0 {
            return Outcome::NotAllowed(Allowance::NoRemovalsLeft);
        }
        *left += 1;
        ledger.removed.push(u);
        Outcome::Disbanded
    } else {
        Outcome::Illegal(Illegal::NoRemovals)
    }
}

fn adjustments_owed_removal(map: &Map, position: &Position, power: PowerId) -> bool {
    adjustments(map, position)[power.index()] < 0
}

/// The unit civil disorder removes next (DATC 4.D.8): the farthest from the power's
/// centres; ties go to fleets, then to the province whose English name comes first.
fn civil_disorder_pick(
    map: &Map,
    rules: &Rules,
    position: &Position,
    power: PowerId,
    removed: &[usize],
) -> Option<usize> {
    let targets: Vec<ProvinceId> = (0..map.n_provinces())
        .map(|p| ProvinceId(p as u16))
        .filter(|p| match rules.civil_disorder_removal {
            CivilDisorderRemoval::FarthestFromOwnedCentre => {
                map.is_centre(*p) && position.owners[p.index()] == Some(power)
            }
            CivilDisorderRemoval::FarthestFromHomeCentre => map.province(*p).home_of == Some(power),
        })
        .collect();
    position
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.power == power && !removed.contains(i))
        .map(|(i, u)| {
            let fleet_only = u.kind == UnitKind::Fleet
                && rules.civil_disorder_removal == CivilDisorderRemoval::FarthestFromHomeCentre;
            let distance = distance_to(map, *u, &targets, fleet_only);
            (
                i,
                distance,
                u.kind == UnitKind::Fleet,
                &map.province(map.province_of(u.region)).name,
            )
        })
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.cmp(&b.2)).then(b.3.cmp(a.3)))
        .map(|(i, ..)| i)
}

/// Moves from the unit to the nearest target province, over every border (army or fleet),
/// or over fleet borders only; `u32::MAX` when none can be reached.
fn distance_to(map: &Map, unit: Unit, targets: &[ProvinceId], fleet_only: bool) -> u32 {
    let start = map.province_of(unit.region);
    let mut seen = vec![u32::MAX; map.n_provinces()];
    let mut queue = VecDeque::new();
    if fleet_only {
        // Over fleet borders between regions.
        // Counted from every coast of the province (DATC 6.J.9).
        let mut seen_region = vec![false; map.regions.len()];
        let mut rq = VecDeque::new();
        for &r in map.regions_for(start, UnitKind::Fleet) {
            seen_region[r.index()] = true;
            rq.push_back((r, 0u32));
        }
        while let Some((r, d)) = rq.pop_front() {
            if targets.contains(&map.province_of(r)) {
                return d;
            }
            for n in &map.region(r).fleet_neighbours {
                if !seen_region[n.index()] {
                    seen_region[n.index()] = true;
                    rq.push_back((*n, d + 1));
                }
            }
        }
        return u32::MAX;
    }
    seen[start.index()] = 0;
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let d = seen[p.index()];
        if targets.contains(&p) {
            return d;
        }
        for (q, seen_q) in seen.iter_mut().enumerate() {
            let q_id = ProvinceId(q as u16);
            if *seen_q == u32::MAX && map.provinces_touch(p, q_id) {
                *seen_q = d + 1;
                queue.push_back(q_id);
            }
        }
    }
    u32::MAX
}
