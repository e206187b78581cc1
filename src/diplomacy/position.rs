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

/// A destroyed centre being restored: the unit of `power` there has ordered `R` in `turns`
/// consecutive movement phases so far (Diadochi V rule 7: two restore it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restoration {
    pub province: ProvinceId,
    pub power: PowerId,
    pub turns: u8,
}

/// Supply lent by one power to another (Diadochi V rule 8): it counts for the borrower's
/// builds and upkeep, never toward victory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Credit {
    pub lender: PowerId,
    pub borrower: PowerId,
    pub amount: u32,
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
    /// Centres destroyed and not yet restored: they supply no one.
    pub destroyed: Vec<ProvinceId>,
    /// Destroyed centres being restored.
    pub restoring: Vec<Restoration>,
    /// Supply lent between powers.
    pub credits: Vec<Credit>,
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
            destroyed: Vec::new(),
            restoring: Vec::new(),
            credits: Vec::new(),
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

    /// Supply a power draws from its own centres: each centre's value to it, nothing from a
    /// destroyed centre, and a rebellion centre only while the power has a unit there.
    pub fn supply_of(&self, map: &Map, power: PowerId) -> u32 {
        self.owners
            .iter()
            .enumerate()
            .filter(|(_, owner)| **owner == Some(power))
            .map(|(i, _)| ProvinceId(i as u16))
            .filter(|p| !self.destroyed.contains(p))
            .filter_map(|p| map.province(p).centre.as_ref().map(|c| (p, c)))
            .filter(|(p, c)| {
                !c.needs_garrison
                    || self
                        .units
                        .iter()
                        .any(|u| u.power == power && map.province_of(u.region) == *p)
            })
            .map(|(_, c)| u32::from(c.value_to(power)))
            .sum()
    }

    /// Supply lent to `power` less supply it has lent.
    pub fn credit_balance(&self, power: PowerId) -> (u32, u32) {
        let lent_to: u32 = self
            .credits
            .iter()
            .filter(|c| c.borrower == power)
            .map(|c| c.amount)
            .sum();
        let lent_by: u32 = self
            .credits
            .iter()
            .filter(|c| c.lender == power)
            .map(|c| c.amount)
            .sum();
        (lent_to, lent_by)
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
