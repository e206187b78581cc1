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

/// Why a centre with an owner supplies nothing now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupplied {
    /// Destroyed and not yet restored (Diadochi V rule 6: it becomes useless).
    Destroyed,
    /// A rebellion centre without its owner's unit in it (Diadochi V rule 5).
    NoGarrison,
}

/// What a power has: the centres it owns and the supply they give.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub centres: u32,
    pub supply: u32,
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
    /// destroyed centre, and a rebellion centre only while the power has a unit there
    /// (Diadochi V rules 3, 5 and 6). Credit is not in it (`credit::in_force`).
    pub fn supply_of(&self, map: &Map, power: PowerId) -> u32 {
        self.supplying_centres(map, power)
            .into_iter()
            .filter_map(|p| map.province(p).centre.as_ref())
            .map(|c| u32::from(c.value_to(power)))
            .sum()
    }

    /// The centres of `power` that supply it now: owned, not destroyed, and garrisoned by
    /// its own unit if they are rebellion centres. At the start of winter this is what
    /// counts for the year (`progress::advance`).
    pub fn supplying_centres(&self, map: &Map, power: PowerId) -> Vec<ProvinceId> {
        self.owned_centres(map, power)
            .into_iter()
            .filter(|p| self.why_not_supplying(map, *p).is_none())
            .collect()
    }

    /// Why a centre owned by someone supplies its owner nothing now, if it supplies nothing.
    pub fn why_not_supplying(&self, map: &Map, province: ProvinceId) -> Option<Unsupplied> {
        let owner = self.owners[province.index()]?;
        let centre = map.province(province).centre.as_ref()?;
        if self.destroyed.contains(&province) {
            return Some(Unsupplied::Destroyed);
        }
        let garrisoned = self
            .units
            .iter()
            .any(|u| u.power == owner && map.province_of(u.region) == province);
        if centre.needs_garrison && !garrisoned {
            return Some(Unsupplied::NoGarrison);
        }
        None
    }

    /// The supply centres `power` owns, whatever their state, in the map's order.
    pub fn owned_centres(&self, map: &Map, power: PowerId) -> Vec<ProvinceId> {
        self.owners
            .iter()
            .enumerate()
            .filter(|(i, owner)| **owner == Some(power) && map.provinces[*i].centre.is_some())
            .map(|(i, _)| ProvinceId(i as u16))
            .collect()
    }

    /// Whether `power` owns some of its home centres but not all: while it does, its
    /// partisan sites are build sites worth a unit each (1900's Russian Emergency Measures,
    /// DPjudge's partisan sites).
    pub fn partisans_rise(&self, map: &Map, power: PowerId) -> bool {
        let homes: Vec<usize> = (0..map.n_provinces())
            .filter(|p| {
                map.provinces[*p].home_of == Some(power) && map.provinces[*p].centre.is_some()
            })
            .collect();
        let held = homes
            .iter()
            .filter(|p| self.owners[**p] == Some(power))
            .count();
        0 < held && held < homes.len()
    }

    /// Units the power's partisan sites are worth now (one each while `partisans_rise`);
    /// they count for builds and upkeep, never toward victory.
    pub fn partisan_supply(&self, map: &Map, power: PowerId) -> u32 {
        if !map.provinces.iter().any(|p| p.partisan_of == Some(power)) {
            return 0;
        }
        if !self.partisans_rise(map, power) {
            return 0;
        }
        map.provinces
            .iter()
            .filter(|p| p.partisan_of == Some(power))
            .count() as u32
    }

    /// Whether `power` is still in the game: it has a unit, or a centre that supplies it.
    /// A power with neither can never build again (a destroyed centre takes no builds, and an
    /// ungarrisoned rebellion centre counts for nothing), so it is eliminated.
    pub fn survives(&self, map: &Map, power: PowerId) -> bool {
        self.units.iter().any(|u| u.power == power)
            || !self.supplying_centres(map, power).is_empty()
    }

    /// Number of supply centres a power owns, whatever their state (the classic count).
    pub fn centres_of(&self, map: &Map, power: PowerId) -> u32 {
        self.owned_centres(map, power).len() as u32
    }

    /// A power's count: centres owned and the supply they give now.
    pub fn tally(&self, map: &Map, power: PowerId) -> Tally {
        Tally {
            centres: self.centres_of(map, power),
            supply: self.supply_of(map, power),
        }
    }
}
