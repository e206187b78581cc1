//! Units on the board: an army or a fleet of a power in a region (`UnitKind` is the map's,
//! which says where each kind may go).

use super::map::RegionId;
pub use super::map::UnitKind;
use super::power::PowerId;

/// A unit standing on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: PowerId,
    pub kind: UnitKind,
    pub region: RegionId,
}
