//! Adjudication of any phase: `adjudicate(map, rules, position, orders) -> Resolution`.
//!
//! It never fails. Each submitted order gets an `Outcome` saying what it did and why;
//! units without orders hold (movement), are disbanded (retreat), or are removed by the
//! civil-disorder rule when their power owes removals (adjustment).

pub mod adjustment;
pub mod aftermath;
mod check;
pub mod convoy;
pub mod movement;
pub mod outcome;
pub mod resolver;
pub mod retreat;

use super::map::Map;
use super::order::Order;
use super::position::Position;
use super::power::PowerId;
use super::rules::Rules;
use super::turn::PhaseKind;

pub use outcome::{Allowance, Bouncer, Illegal, Outcome, RetreatOptions};

/// An order together with the power that gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submitted {
    pub power: PowerId,
    pub order: Order,
}

/// What a phase came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// One outcome per submitted order, in the same order.
    pub outcomes: Vec<Outcome>,
    /// Movement phases: units dislodged, with where each may retreat.
    pub dislodged: Vec<RetreatOptions>,
    /// The board after the phase (ownership is not updated here: see `Position::take_ownership`).
    pub after: Position,
}

/// Adjudicates the phase `position.turn` with the given orders.
pub fn adjudicate(
    map: &Map,
    rules: &Rules,
    position: &Position,
    orders: &[Submitted],
) -> Resolution {
    match position.turn.kind {
        PhaseKind::Movement => movement::adjudicate(map, rules, position, orders),
        PhaseKind::Retreat => retreat::adjudicate(map, rules, position, orders),
        PhaseKind::Adjustment => adjustment::adjudicate(map, rules, position, orders),
    }
}
