//! Standing instructions: answers a power files in advance ("intercept from Graz if anyone enters
//! Vienna", "never avoid battle"), so that a window is answered without a round of letters.
//! An instruction answers only when the answer it gives is legal in that window; otherwise
//! the power is asked as usual.

use super::map::{Map, SpaceId};
use super::power::Power;
use super::question::{Answer, Question};

/// One standing instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// Answer every response window and Janissaries window "no card".
    NoCards,
    /// Intercept from `from` with everything there that may go (if that is a legal
    /// formation) when an enemy moves into `into` (any space, if `None`).
    Intercept {
        from: SpaceId,
        into: Option<SpaceId>,
    },
    /// Decline every interception.
    NeverIntercept,
    /// Avoid battle to `to` with every unit and leader when attacked in `at` (anywhere, if
    /// `None`).
    Avoid { at: Option<SpaceId>, to: SpaceId },
    /// Never avoid battle.
    NeverAvoid,
    /// Withdraw into the fortifications when attacked in `at` (anywhere, if `None`).
    Withdraw { at: Option<SpaceId> },
    /// Never withdraw before battle: stay and fight.
    NeverWithdraw,
    /// Retreat to `to` when retreating from `from` (from anywhere, if `None`).
    Retreat { from: Option<SpaceId>, to: SpaceId },
}

/// The standing instructions of every power, in the order filed; the first that gives a
/// legal answer is used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub instructions: Vec<(Power, Instruction)>,
}

impl Standing {
    pub fn new() -> Standing {
        Standing::default()
    }

    pub fn file(&mut self, power: Power, instruction: Instruction) {
        self.instructions.push((power, instruction));
    }

    /// The answer `power`'s instructions give to `question`, if any applies.
    pub fn answer(&self, map: &Map, power: Power, question: &Question) -> Option<Answer> {
        self.instructions
            .iter()
            .filter(|(p, _)| *p == power)
            .find_map(|(_, i)| applies(map, i, question))
    }
}

fn applies(map: &Map, instruction: &Instruction, question: &Question) -> Option<Answer> {
    match (instruction, question) {
        (Instruction::NoCards, Question::Response { .. } | Question::Janissaries { .. }) => {
            Some(Answer::NoCard)
        }
        (
            Instruction::Intercept { from, into },
            Question::Intercept {
                into: q_into,
                options,
                ..
            },
        ) => {
            if into.is_some_and(|i| i != *q_into) {
                return None;
            }
            let (_, force) = options.iter().find(|(s, _)| s == from)?;
            (force.land_units() <= force.command_limit(map)).then(|| Answer::Intercept {
                from: *from,
                force: force.clone(),
            })
        }
        (Instruction::NeverIntercept, Question::Intercept { .. }) => Some(Answer::Decline),
        (
            Instruction::Avoid { at, to },
            Question::AvoidBattle {
                at: q_at,
                destinations,
                available,
                ..
            },
        ) => {
            if at.is_some_and(|a| a != *q_at) || !destinations.contains(to) {
                return None;
            }
            Some(Answer::Avoid {
                to: *to,
                force: available.clone(),
            })
        }
        (Instruction::NeverAvoid, Question::AvoidBattle { .. }) => Some(Answer::Stay),
        (Instruction::Withdraw { at }, Question::Withdraw { at: q_at, .. }) => {
            (at.is_none() || *at == Some(*q_at)).then_some(Answer::Withdraw)
        }
        (Instruction::NeverWithdraw, Question::Withdraw { .. }) => Some(Answer::Stay),
        (
            Instruction::Retreat { from, to },
            Question::Retreat {
                from: q_from,
                destinations,
                ..
            },
        ) => ((from.is_none() || *from == Some(*q_from)) && destinations.contains(to))
            .then_some(Answer::RetreatTo(*to)),
        _ => None,
    }
}
