//! Random but legal-looking movement phases on any map, from a fixed seed.
//!
//! Shared by the benchmark (`benches/adjudication.rs`) and the property tests
//! (`tests/it/random.rs`, through `#[path]`), so both exercise the same kind of phase.

use strategos::diplomacy::adjudicate::Submitted;
use strategos::diplomacy::map::{Map, ProvinceId, RegionId, Terrain};
use strategos::diplomacy::order::{Action, Location, Order, UnitOrder};
use strategos::diplomacy::position::Position;
use strategos::diplomacy::power::PowerId;
use strategos::diplomacy::turn::{PhaseKind, Season, Turn};
use strategos::diplomacy::unit::{Unit, UnitKind};

/// A small deterministic generator (xorshift64*), so runs are repeatable.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A movement phase with `n_units` units spread over the map and an order for each.
pub fn random_phase(map: &Map, rng: &mut Rng, n_units: usize) -> (Position, Vec<Submitted>) {
    let turn = Turn {
        year: 1901,
        season: Season::Spring,
        kind: PhaseKind::Movement,
    };
    let mut position = Position::empty(map, turn);
    let mut taken = vec![false; map.n_provinces()];
    let mut tries = 0;
    while position.units.len() < n_units && tries < 10_000 {
        tries += 1;
        let p = ProvinceId(rng.below(map.n_provinces()) as u16);
        if taken[p.index()] || map.province(p).terrain == Terrain::Impassable {
            continue;
        }
        let kind = match map.province(p).terrain {
            Terrain::Land => UnitKind::Army,
            Terrain::Sea => UnitKind::Fleet,
            _ if rng.below(2) == 0 => UnitKind::Army,
            _ => UnitKind::Fleet,
        };
        let regions = map.regions_for(p, kind);
        if regions.is_empty() {
            continue;
        }
        let region = regions[rng.below(regions.len())];
        let power = PowerId(rng.below(map.powers.len()) as u8);
        taken[p.index()] = true;
        position.units.push(Unit {
            power,
            kind,
            region,
        });
    }
    let orders = position
        .units
        .iter()
        .map(|u| Submitted {
            power: u.power,
            order: random_order(map, &position, rng, u),
        })
        .collect();
    (position, orders)
}

fn neighbours(map: &Map, unit: &Unit) -> Vec<RegionId> {
    match unit.kind {
        UnitKind::Fleet => map.region(unit.region).fleet_neighbours.clone(),
        UnitKind::Army => map.army_neighbours[map.province_of(unit.region).index()]
            .iter()
            .map(|p| map.province(*p).region)
            .collect(),
    }
}

fn location(map: &Map, region: RegionId) -> Location {
    let province = map.province_of(region);
    let coast = map.region(region).coast.as_ref().map(|_| region);
    Location { province, coast }
}

fn random_order(map: &Map, position: &Position, rng: &mut Rng, unit: &Unit) -> Order {
    let at = location(map, unit.region);
    let near = neighbours(map, unit);
    let others: Vec<&Unit> = position
        .units
        .iter()
        .filter(|o| {
            let close = near
                .iter()
                .any(|n| map.province_of(*n) == map.province_of(o.region));
            o.region != unit.region && (close || rng.below(8) == 0)
        })
        .collect();
    let action = match rng.below(10) {
        0 | 1 => Action::Hold,
        2..=5 if !near.is_empty() => Action::Move {
            to: location(map, near[rng.below(near.len())]),
            via_convoy: false,
        },
        6 | 7 if !others.is_empty() => {
            let other = others[rng.below(others.len())];
            let other_near = neighbours(map, other);
            let targets: Vec<RegionId> = other_near
                .into_iter()
                .filter(|r| {
                    near.iter()
                        .any(|n| map.province_of(*n) == map.province_of(*r))
                })
                .collect();
            if targets.is_empty() || rng.below(3) == 0 {
                Action::SupportHold {
                    unit: Some(other.kind),
                    at: location(map, other.region),
                }
            } else {
                let to = Location::province(map.province_of(targets[rng.below(targets.len())]));
                Action::SupportMove {
                    unit: Some(other.kind),
                    from: location(map, other.region),
                    to,
                }
            }
        }
        8 if unit.kind == UnitKind::Fleet && !others.is_empty() => {
            let army = others[rng.below(others.len())];
            let coastal: Vec<ProvinceId> = (0..map.n_provinces())
                .map(|p| ProvinceId(p as u16))
                .filter(|p| map.province(*p).terrain == Terrain::Coast)
                .collect();
            let to = coastal[rng.below(coastal.len())];
            Action::Convoy {
                from: location(map, army.region),
                to: Location::province(to),
            }
        }
        _ => Action::Hold,
    };
    Order::Unit(UnitOrder {
        unit: Some(unit.kind),
        at,
        action,
    })
}
