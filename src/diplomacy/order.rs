//! Orders as the rules understand them, once a player's text has been read.
//!
//! An order names places as the player wrote them (a province, perhaps a coast); whether
//! it fits the board and the unit there is decided by adjudication, never here.

use super::map::{ProvinceId, RegionId};
use super::unit::UnitKind;

/// A place named in an order: a province, and the coast if the player wrote one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub province: ProvinceId,
    /// The coast region written (`stp/nc`), if any.
    pub coast: Option<RegionId>,
}

impl Location {
    pub fn province(province: ProvinceId) -> Self {
        Location {
            province,
            coast: None,
        }
    }
}

/// One order of any phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// An order to the unit at `at` (or, for a build, to the province `at`).
    Unit(UnitOrder),
    /// Adjustment phase: decline one build.
    Waive,
}

/// An order naming a unit (or a build site).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitOrder {
    /// The unit type written, if any (4.C.1: a missing or wrong type is ignored).
    pub unit: Option<UnitKind>,
    pub at: Location,
    pub action: Action,
}

/// What the unit is ordered to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Hold,
    /// `A LON - BEL`, with `via_convoy` for `VIA` / `via convoy`.
    Move {
        to: Location,
        via_convoy: bool,
    },
    /// `A TYR S A VEN`: support to hold.
    SupportHold {
        unit: Option<UnitKind>,
        at: Location,
    },
    /// `F ADR S A TRI - VEN`: support a move.
    SupportMove {
        unit: Option<UnitKind>,
        from: Location,
        to: Location,
    },
    /// `F NTH C A LON - BEL`.
    Convoy {
        from: Location,
        to: Location,
    },
    /// Retreat phase: `F TRI R ALB`.
    Retreat {
        to: Location,
    },
    /// Retreat phase: disband the dislodged unit; adjustment phase: remove the unit.
    Disband,
    /// Adjustment phase: build a unit of `UnitOrder::unit` at `at`.
    Build,
    /// Movement phase, where the variant allows it: destroy the centre the unit stands in
    /// (`A Cor Z`); the unit holds.
    Destroy,
    /// Movement phase, where the variant allows it: work at restoring the destroyed centre
    /// the unit stands in (`A Cor R`); the unit holds; two turns in a row restore it.
    Restore,
}

impl Order {
    pub fn hold(unit: Option<UnitKind>, at: Location) -> Order {
        Order::Unit(UnitOrder {
            unit,
            at,
            action: Action::Hold,
        })
    }
}
