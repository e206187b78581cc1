//! Units on the board: an army or a fleet of a power in a region.

use super::map::RegionId;
use super::power::PowerId;

/// Army or fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    Army,
    Fleet,
}

impl UnitKind {
    /// `A` or `F`, as orders write it.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }

    /// `army` or `fleet`, as the JSON interface writes it.
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Army => "army",
            UnitKind::Fleet => "fleet",
        }
    }
}

/// A unit standing on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: PowerId,
    pub kind: UnitKind,
    pub region: RegionId,
}
