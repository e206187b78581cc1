//! From one phase to the next: which phase needs orders after a resolution, when centres
//! change hands, and who is eliminated or has won.

use super::adjudicate::Resolution;
use super::adjudicate::adjustment::adjustments;
use super::map::Map;
use super::position::Position;
use super::power::PowerId;
use super::turn::{Calendar, PhaseKind, Season};

/// The position of the next phase that needs orders, after `resolution` of `before`.
///
/// Retreat phases with nobody to retreat and adjustment phases with nothing to adjust are
/// skipped; centres change hands when the fall turn (with its retreats) is over.
pub fn next_position(
    map: &Map,
    calendar: &Calendar,
    before: &Position,
    resolution: &Resolution,
) -> Position {
    let mut position = resolution.after.clone();
    position.turn = before.turn;
    loop {
        let leaving = position.turn;
        position.turn = calendar.next(leaving);
        if leaving.kind == PhaseKind::Retreat {
            position.dislodged.clear();
            position.contested.clear();
        }
        if position.turn.season == Season::Winter && leaving.season == Season::Fall {
            position.take_ownership(map);
        }
        let needs_orders = match position.turn.kind {
            PhaseKind::Movement => true,
            PhaseKind::Retreat => !position.dislodged.is_empty(),
            PhaseKind::Adjustment => adjustments(map, &position).iter().any(|n| *n != 0),
        };
        if needs_orders {
            return position;
        }
    }
}

/// What counts toward victory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VictoryCounting {
    /// One per supply centre owned (the classic rule).
    Centres,
    /// The supply the centres give their owner (Diadochi V: double and triple centres).
    Supply,
}

/// Where the powers stand: centres, elimination, a winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// What each power has toward victory: centres owned, or supply (as the variant counts).
    pub centres: Vec<u32>,
    /// Powers with neither units nor centres.
    pub eliminated: Vec<PowerId>,
    /// The power that owns at least the victory threshold, if one does (and only one).
    pub winner: Option<PowerId>,
}

/// The standing of every power in `position`: a winner needs `victory_centres` counted as
/// `counting` says.
pub fn standing(
    map: &Map,
    position: &Position,
    victory_centres: u32,
    counting: VictoryCounting,
) -> Standing {
    let powers: Vec<PowerId> = (0..map.powers.len()).map(|p| PowerId(p as u8)).collect();
    let centres: Vec<u32> = powers
        .iter()
        .map(|p| match counting {
            VictoryCounting::Centres => position.centres_of(map, *p),
            VictoryCounting::Supply => position.supply_of(map, *p),
        })
        .collect();
    let eliminated = powers
        .iter()
        .copied()
        .filter(|p| centres[p.index()] == 0 && !position.units.iter().any(|u| u.power == *p))
        .collect();
    let leaders: Vec<PowerId> = powers
        .iter()
        .copied()
        .filter(|p| centres[p.index()] >= victory_centres)
        .collect();
    let winner = match leaders.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    Standing {
        centres,
        eliminated,
        winner,
    }
}
