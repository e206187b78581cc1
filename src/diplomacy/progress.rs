//! From one phase to the next: which phase needs orders after a resolution, and the
//! reckoning at the end of each year (centres changing hands, credit settled, who is
//! eliminated and who has won).
//!
//! A year is reckoned once, when its autumn is over (moves and retreats): every centre and
//! build-only city takes the owner of the unit standing in it, and on that board, the board
//! the winter adjustments are counted from, the supply is counted (rebellion centres with
//! the garrisons of that winter, Diadochi V rule 5), credit is checked (rule 8), and victory
//! decided. The 2000 rulebook decides victory at the end of the autumn turn; the card's
//! rule 5 counts rebellion centres "in winter", and no unit moves in winter, nor can a
//! build garrison a rebellion centre. So builds, credit, rebellion and victory are counted
//! from one board, once a year, and never from a spring or mid-year garrison.

use super::adjudicate::Resolution;
use super::adjudicate::adjustment::adjustments;
use super::credit::{Lapse, ledger};
use super::map::Map;
use super::position::{Position, Tally};
use super::power::PowerId;
use super::turn::{Calendar, PhaseKind, Season};

/// What counts toward victory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VictoryCounting {
    /// One per supply centre owned (the classic rule).
    Centres,
    /// The supply the centres give their owner (Diadochi V: double and triple centres,
    /// rebellion centres only when garrisoned, destroyed centres nothing, credit nothing).
    Supply,
}

/// A variant's condition of victory: `threshold` counted as `counting` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Victory {
    pub threshold: u32,
    pub counting: VictoryCounting,
}

impl Victory {
    /// What a tally counts toward victory.
    pub fn count(&self, tally: Tally) -> u32 {
        match self.counting {
            VictoryCounting::Centres => tally.centres,
            VictoryCounting::Supply => tally.supply,
        }
    }
}

/// Where the powers stand at the end of a year.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Each power's centres and supply, in the variant's power order.
    pub tallies: Vec<Tally>,
    /// What each power has toward victory (`Victory::count` of its tally).
    pub counted: Vec<u32>,
    /// Powers with neither units nor a centre that supplies them.
    pub eliminated: Vec<PowerId>,
    /// The power that has at least the victory threshold, if one does (and only one).
    pub winner: Option<PowerId>,
}

/// The reckoning of a year, made when its autumn is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YearEnd {
    /// The board at the start of winter: centres and cities taken by who stands in them,
    /// credit settled. The winter adjustments are counted from it.
    pub board: Position,
    /// Credit that stopped counting at the reckoning, with why.
    pub lapsed: Vec<Lapse>,
    pub standing: Standing,
}

/// What follows a resolved phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The next phase that needs orders; when the year's reckoning found a winner, the
    /// board of that reckoning, where the game ends.
    pub next: Position,
    /// The year's reckoning, when the phase just resolved ended the year's autumn.
    pub year_end: Option<YearEnd>,
}

/// The next phase that needs orders after `resolution` of `before`, with the year's
/// reckoning when the autumn ends.
///
/// Retreat phases with nobody to retreat and adjustment phases with nothing to adjust are
/// skipped.
pub fn advance(
    map: &Map,
    calendar: &Calendar,
    victory: &Victory,
    before: &Position,
    resolution: &Resolution,
) -> Progress {
    let mut position = resolution.after.clone();
    position.turn = before.turn;
    let mut year_end = None;
    loop {
        let leaving = position.turn;
        position.turn = calendar.next(leaving);
        if leaving.kind == PhaseKind::Retreat {
            position.dislodged.clear();
            position.contested.clear();
        }
        if position.turn.season == Season::Winter && leaving.season == Season::Fall {
            position.take_ownership(map);
            let credit = ledger(map, &position);
            position.credits = credit.in_force;
            let standing = standing(map, &position, victory);
            let won = standing.winner.is_some();
            year_end = Some(YearEnd {
                board: position.clone(),
                lapsed: credit.lapsed,
                standing,
            });
            if won {
                return Progress {
                    next: position,
                    year_end,
                };
            }
        }
        let needs_orders = match position.turn.kind {
            PhaseKind::Movement => true,
            PhaseKind::Retreat => !position.dislodged.is_empty(),
            PhaseKind::Adjustment => adjustments(map, &position).iter().any(|n| *n != 0),
        };
        if needs_orders {
            return Progress {
                next: position,
                year_end,
            };
        }
    }
}

/// The standing of every power on `board`, the board of a year's reckoning: a winner has
/// at least the threshold as `victory` counts it, and more than any other power.
pub fn standing(map: &Map, board: &Position, victory: &Victory) -> Standing {
    let powers: Vec<PowerId> = (0..map.powers.len()).map(|p| PowerId(p as u8)).collect();
    let tallies: Vec<Tally> = powers.iter().map(|p| board.tally(map, *p)).collect();
    let counted: Vec<u32> = tallies.iter().map(|t| victory.count(*t)).collect();
    // The most counted, alone: where two powers could pass the threshold together (1900's
    // 18 of 39, Youngstown Redux's 28 of 81) the larger wins and a tie plays on; where the
    // threshold is more than half the map this is the plain rule.
    let most = counted.iter().copied().max().unwrap_or(0);
    let leaders: Vec<PowerId> = powers
        .iter()
        .copied()
        .filter(|p| counted[p.index()] >= victory.threshold && counted[p.index()] == most)
        .collect();
    let winner = match leaders.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    Standing {
        tallies,
        counted,
        eliminated: eliminated(map, board),
        winner,
    }
}

/// The powers still in the game (`Position::survives`): they share a draw and vote on one.
pub fn survivors(map: &Map, position: &Position) -> Vec<PowerId> {
    (0..map.powers.len())
        .map(|p| PowerId(p as u8))
        .filter(|p| position.survives(map, *p))
        .collect()
}

/// The powers out of the game: no unit and no centre that supplies them.
pub fn eliminated(map: &Map, position: &Position) -> Vec<PowerId> {
    (0..map.powers.len())
        .map(|p| PowerId(p as u8))
        .filter(|p| !position.survives(map, *p))
        .collect()
}
