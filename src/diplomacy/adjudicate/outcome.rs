//! Outcomes: what each order did and why, the material every report is built from.

use crate::diplomacy::map::{ProvinceId, RegionId, UnitKind};

/// A unit that stopped a move: where it stood, what it is, and whether it stood in the
/// destination (and held it) rather than moving there too, so a report can name it ("the army
/// from Warsaw", "the fleet in Ukraine") and not only a province.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bouncer {
    pub at: ProvinceId,
    pub kind: UnitKind,
    /// It stood in the destination (a defender), rather than moving into it.
    pub defended: bool,
}

/// What became of one order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A hold (or a unit without a move) that kept its place.
    Held,
    /// The unit was driven out by the unit that came from `by`.
    Dislodged { by: ProvinceId },
    /// A move that arrived.
    Moved,
    /// A move stopped by these units: the one standing in the destination, the rivals
    /// moving there.
    Bounced { by: Vec<Bouncer> },
    /// A convoyed move with no unbroken chain of convoying fleets.
    NoConvoy,
    /// A convoyed move (or a convoy) broken by the convoy-paradox rule.
    Paradox,
    /// A support that was given.
    Supported,
    /// A support cut by an attack from `by` (or by dislodgement from `by`).
    Cut { by: ProvinceId },
    /// A support or convoy that matches no order of the unit it names.
    Void,
    /// A convoy that carried its army's move.
    Convoyed,
    /// A later order to the same unit replaced this one.
    Superseded,
    /// The order could not be valid whatever the other orders (DATC 4.E.1); the unit holds.
    Illegal(Illegal),
    /// Retreat phase: the unit retreated.
    Retreated,
    /// Retreat phase: two or more units retreated to the same place; all were disbanded.
    RetreatBounced { with: Vec<ProvinceId> },
    /// A dislodged unit disbanded, or a unit removed in adjustments.
    Disbanded,
    /// Adjustment phase: a unit was built.
    Built,
    /// Adjustment phase: a build was declined.
    Waived,
    /// Adjustment phase: a build or removal beyond the power's allowance.
    NotAllowed(Allowance),
    /// The unit destroyed the centre it held (Diadochi V).
    Destroyed,
    /// The first turn of restoring a destroyed centre; one more restores it.
    Restoring,
    /// The second restore order in a row: the centre supplies again.
    Restored,
}

/// Why an adjustment order was not carried out although it is well formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// The power has no builds left (DATC 4.D.4: the first builds are used).
    NoBuildsLeft,
    /// The power has no removals left to make.
    NoRemovalsLeft,
    /// The variant limits fleet builds in one winter.
    FleetLimit,
    /// The site already received a build this phase.
    SiteTaken,
    /// The unit was already removed by an earlier order.
    AlreadyRemoved,
}

/// Why an order is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// There is no unit in that province.
    NoUnit,
    /// The unit belongs to another power.
    ForeignUnit,
    /// The order does not belong in this phase (a build in spring, a move in a retreat).
    WrongPhase,
    /// A unit cannot move to the province it stands in.
    MoveToSelf,
    /// The destination cannot be reached by this unit (not a neighbour, no possible convoy).
    Unreachable,
    /// The unit cannot stand in the destination (an army at sea, a fleet inland).
    WrongTerrain,
    /// A fleet move to a split-coast province that could reach both coasts without naming one.
    CoastNeeded,
    /// The coast named cannot be reached from here.
    CoastUnreachable,
    /// A support for a unit that is not there.
    NoSupportedUnit,
    /// A unit cannot support itself or a move into its own province.
    SupportSelf,
    /// The supporting unit cannot reach the province it supports into.
    SupportUnreachable,
    /// The supported move itself could never be made.
    SupportedMoveImpossible,
    /// Only fleets at sea convoy.
    ConvoyerNotAtSea,
    /// Only armies are convoyed.
    NotAnArmy,
    /// A fleet's move said to go by convoy (`F KIE - DEN VIA`): only armies go by convoy.
    FleetViaConvoy,
    /// The fleet is on no possible convoy route between the two provinces.
    NotOnConvoyRoute,
    /// Retreat phase: the unit was not dislodged.
    NotDislodged,
    /// Retreat phase: the place is occupied, contested, the attacker's origin or not adjacent.
    RetreatNotAllowed,
    /// Adjustment phase: the power has no builds to make.
    NoBuilds,
    /// Adjustment phase: builds go in vacant home centres owned by the builder.
    NotBuildSite,
    /// Adjustment phase: the site is occupied.
    SiteOccupied,
    /// Adjustment phase: the builder does not own the site.
    SiteNotOwned,
    /// Adjustment phase: the unit type cannot stand there (a fleet inland).
    CannotBuildThere,
    /// Adjustment phase: a fleet build on a split-coast province must name the coast.
    BuildCoastNeeded,
    /// Adjustment phase: a build must say army or fleet.
    UnitTypeNeeded,
    /// Adjustment phase: the power has no removals to make.
    NoRemovals,
    /// Adjustment phase: a destroyed centre takes no builds.
    SiteDestroyed,
    /// The order exists only in variants that allow it.
    NotInThisVariant,
    /// Destroy or restore: the unit does not stand in a supply centre.
    NotACentre,
    /// Destroy: this centre cannot be destroyed.
    Indestructible,
    /// Destroy: the centre is destroyed already.
    AlreadyDestroyed,
    /// Restore: the centre is not destroyed.
    NotDestroyed,
}

impl Outcome {
    /// `succeeds`, `fails` or `illegal`, as `docs/adjudicate-json.md` defines them.
    pub fn result_word(&self) -> &'static str {
        match self {
            Outcome::Held
            | Outcome::Moved
            | Outcome::Supported
            | Outcome::Convoyed
            | Outcome::Retreated
            | Outcome::Disbanded
            | Outcome::Built
            | Outcome::Waived
            | Outcome::Destroyed
            | Outcome::Restoring
            | Outcome::Restored => "succeeds",
            Outcome::Illegal(_) => "illegal",
            _ => "fails",
        }
    }

    /// A machine word for why, where there is one: `bounce`, `cut`, `dislodged`, ...
    pub fn reason_word(&self) -> Option<&'static str> {
        Some(match self {
            Outcome::Dislodged { .. } => "dislodged",
            Outcome::Bounced { .. } => "bounce",
            Outcome::NoConvoy => "no_convoy",
            Outcome::Paradox => "paradox",
            Outcome::Cut { .. } => "cut",
            Outcome::Void => "void",
            Outcome::Superseded => "superseded",
            Outcome::RetreatBounced { .. } => "bounce",
            Outcome::NotAllowed(_) => "not_allowed",
            Outcome::Illegal(Illegal::Unreachable) => "unreachable",
            Outcome::Illegal(_) => "illegal",
            _ => return None,
        })
    }
}

impl Illegal {
    /// A sentence for a report: why the order could not be carried out.
    pub fn explain(self) -> &'static str {
        match self {
            Illegal::NoUnit => "there is no unit there",
            Illegal::ForeignUnit => "the unit belongs to another power",
            Illegal::WrongPhase => "this order does not belong in this phase",
            Illegal::MoveToSelf => "a unit cannot move to where it stands",
            Illegal::Unreachable => "the destination cannot be reached from there",
            Illegal::WrongTerrain => "the unit cannot stand in the destination",
            Illegal::CoastNeeded => "both coasts can be reached: the order must name one",
            Illegal::CoastUnreachable => "that coast cannot be reached from there",
            Illegal::NoSupportedUnit => "there is no unit to support there",
            Illegal::SupportSelf => "a unit cannot support itself or a move to its own place",
            Illegal::SupportUnreachable => "the supporting unit cannot reach that province",
            Illegal::SupportedMoveImpossible => "the supported move could never be made",
            Illegal::ConvoyerNotAtSea => "only a fleet at sea can convoy",
            Illegal::NotAnArmy => "only armies can be convoyed",
            Illegal::FleetViaConvoy => "only an army moves by convoy: a fleet takes no 'via'",
            Illegal::NotOnConvoyRoute => "the fleet is on no convoy route between those places",
            Illegal::NotDislodged => "the unit was not dislodged",
            Illegal::RetreatNotAllowed => "the unit cannot retreat there",
            Illegal::NoBuilds => "the power has no builds to make",
            Illegal::NotBuildSite => "builds go in the power's own vacant home centres",
            Illegal::SiteOccupied => "the site is occupied",
            Illegal::SiteNotOwned => "the power does not own the site",
            Illegal::CannotBuildThere => "that kind of unit cannot stand there",
            Illegal::BuildCoastNeeded => "a fleet built there must name its coast",
            Illegal::UnitTypeNeeded => "a build must say army or fleet",
            Illegal::NoRemovals => "the power has no units to remove",
            Illegal::SiteDestroyed => "the centre is destroyed",
            Illegal::NotInThisVariant => "this order is not used in this variant",
            Illegal::NotACentre => "the unit does not stand in a supply centre",
            Illegal::Indestructible => "this centre cannot be destroyed",
            Illegal::AlreadyDestroyed => "the centre is destroyed already",
            Illegal::NotDestroyed => "the centre is not destroyed",
        }
    }
}

/// A unit dislodged in a movement phase, with where it may retreat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatOptions {
    pub dislodgement: crate::diplomacy::position::Dislodgement,
    /// Regions the unit may retreat to; empty means it will be disbanded.
    pub retreats: Vec<RegionId>,
}
