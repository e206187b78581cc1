//! A position: the board at the start of a phase (units, dislodged units, owners).

use super::map::{Map, ProvinceId};
use super::power::PowerId;
use super::turn::Turn;
use super::unit::Unit;

/// A unit driven out of its province and waiting for the retreat phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dislodgement {
    pub unit: Unit,
    /// Where the unit that dislodged it came from.
    pub attacker_from: ProvinceId,
    /// Whether that unit came by convoy (DATC 4.A.5 lets the dislodged unit retreat there).
    pub by_convoy: bool,
}

/// The state of the board at the start of a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub turn: Turn,
    pub units: Vec<Unit>,
    /// Units to retreat, in a retreat phase.
    pub dislodged: Vec<Dislodgement>,
    /// Provinces left empty by a standoff in the movement phase: no retreat goes there.
    pub contested: Vec<ProvinceId>,
    /// Owner of each province, indexed by `ProvinceId` (meaningful for centres and build sites).
    pub owners: Vec<Option<PowerId>>,
}

impl Position {
    /// An empty board for `map` at `turn`.
    pub fn empty(map: &Map, turn: Turn) -> Position {
        Position {
            turn,
            units: Vec::new(),
            dislodged: Vec::new(),
            contested: Vec::new(),
            owners: vec![None; map.n_provinces()],
        }
    }

    /// The unit in a province, if any (any coast).
    pub fn unit_in(&self, map: &Map, province: ProvinceId) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| map.province_of(u.region) == province)
    }

    /// After a fall turn: every province takes the owner of the unit standing in it.
    pub fn take_ownership(&mut self, map: &Map) {
        for unit in &self.units {
            let province = map.province_of(unit.region);
            let p = map.province(province);
            if p.centre.is_some() || p.build_site {
                self.owners[province.index()] = Some(unit.power);
            }
        }
    }

    /// Supply a power draws from its centres, counting each centre's value.
    pub fn supply_of(&self, map: &Map, power: PowerId) -> u32 {
        self.owners
            .iter()
            .enumerate()
            .filter(|(_, owner)| **owner == Some(power))
            .filter_map(|(i, _)| map.provinces[i].centre.as_ref())
            .map(|centre| u32::from(centre.value_to(power)))
            .sum()
    }

    /// Number of supply centres a power owns (for victory: one per centre).
    pub fn centres_of(&self, map: &Map, power: PowerId) -> u32 {
        self.owners
            .iter()
            .enumerate()
            .filter(|(i, owner)| **owner == Some(power) && map.provinces[*i].centre.is_some())
            .count() as u32
    }
}
