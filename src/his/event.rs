//! The record of a move: what was declared, asked, answered, rolled and decided, and why. The
//! reports are built from these entries; `describe` gives their words as a `Message` (keys
//! `his.event.*`), rendered in the reader's language on the mail side.

use super::board::{Force, Units};
use super::lang::{Case, concatenated, powers_named, powers_number, semicolons};
use super::map::{Crossing, LeaderId, Map, SpaceId};
use super::power::Power;
use super::question::Answer;
use crate::message::{Arg, Message};
use crate::msg;

pub use super::refusal::Refusal;

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The power answered.
    Letter,
    /// A standing instruction filed in advance answered.
    Standing,
    /// The deadline passed: the documented default.
    Deadline,
}

/// Why a 2d6 roll is modified: the best leader's rating, Ottoman cavalry in the group, or
/// Ottoman cavalry against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Modifier {
    Leader(String),
    OttomanCavalry,
    AgainstCavalry,
}

impl Modifier {
    /// In English, for a roll's details (a purpose feeds the dice, so it stays as it is).
    pub fn english(&self) -> &str {
        match self {
            Modifier::Leader(name) => name,
            Modifier::OttomanCavalry => "Ottoman cavalry",
            Modifier::AgainstCavalry => "against Ottoman cavalry",
        }
    }

    /// In words (keys `his.check.*`).
    pub fn describe(&self) -> Arg {
        match self {
            Modifier::Leader(name) => Arg::Text(name.clone()),
            Modifier::OttomanCavalry => Arg::Message(msg!("his.check.ottoman_cavalry")),
            Modifier::AgainstCavalry => Arg::Message(msg!("his.check.against_cavalry")),
        }
    }
}

/// A 2d6 roll with its modifiers, against 9 [R §13.2, §13.3].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub dice: Vec<u8>,
    /// Each modifier and why.
    pub modifiers: Vec<(i32, Modifier)>,
    pub total: i32,
    pub success: bool,
}

impl Check {
    pub fn new(dice: Vec<u8>, modifiers: Vec<(i32, Modifier)>) -> Check {
        let total = dice.iter().map(|d| *d as i32).sum::<i32>()
            + modifiers.iter().map(|(m, _)| m).sum::<i32>();
        Check {
            dice,
            modifiers,
            total,
            success: total >= 9,
        }
    }

    /// `1+1 +2 (Charles V) -1 (against Ottoman cavalry) = 3, < 9: failure`.
    pub fn describe(&self) -> Message {
        let dice = self
            .dice
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("+");
        let modifiers = concatenated(
            self.modifiers
                .iter()
                .map(|(m, why)| {
                    Arg::Message(msg!(
                        "his.check.modifier",
                        value = format!("{m:+}"),
                        why = why.describe()
                    ))
                })
                .collect(),
        );
        if self.success {
            msg!(
                "his.check.success",
                dice = dice,
                modifiers = modifiers,
                total = self.total
            )
        } else {
            msg!(
                "his.check.failure",
                dice = dice,
                modifiers = modifiers,
                total = self.total
            )
        }
    }
}

/// One side's dice in a field battle [R §14 steps 2-3].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleDice {
    pub units: u32,
    /// The best leader and his battle rating.
    pub leader: Option<(LeaderId, u32)>,
    /// 1 for the defender.
    pub defender_bonus: u32,
    pub dice: u32,
}

/// One entry of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The active power declared a move.
    Declared {
        power: Power,
        force: Force,
        from: SpaceId,
        to: SpaceId,
    },
    /// The move was refused; nothing happened.
    Refused { reasons: Vec<Refusal> },
    /// CP spent on the move [R §13.1 step 3].
    CpSpent {
        power: Power,
        crossing: Crossing,
        cost: u32,
        left: u32,
    },
    /// A window was answered.
    Answered {
        window: u32,
        power: Power,
        answer: Answer,
        source: Source,
    },
    /// A response card took effect.
    CardPlayed {
        by: Power,
        card: String,
        effect: Message,
    },
    /// A response card answer that could not take effect.
    CardVoid {
        by: Power,
        card: String,
        reason: Message,
    },
    /// The move stops before the formation leaves (its CP stay spent).
    Cancelled { reason: Message },
    /// Dice rolled for a stated purpose.
    Rolled {
        number: u32,
        purpose: String,
        values: Vec<u8>,
    },
    /// Nobody, or a power, or a stack, may not intercept, and why.
    NoInterception {
        power: Option<Power>,
        from: Option<SpaceId>,
        reason: Message,
    },
    /// An interception attempt.
    Interception {
        power: Power,
        from: SpaceId,
        force: Force,
        check: Check,
    },
    /// The moving formation arrived.
    Arrived { force: Force, at: SpaceId },
    /// A power may not avoid battle, and why.
    NoAvoid {
        power: Option<Power>,
        reason: Message,
    },
    /// An avoid-battle attempt; `check` is `None` when it succeeds without a roll.
    AvoidBattle {
        power: Power,
        to: SpaceId,
        force: Force,
        check: Option<Check>,
    },
    /// Units and leaders withdrew into the fortifications.
    Withdrew {
        force: Force,
        at: SpaceId,
        reason: Message,
    },
    /// A leader was captured.
    Captured {
        leader: LeaderId,
        by: Power,
        reason: Message,
    },
    /// Units were eliminated other than as battle losses.
    Eliminated {
        power: Power,
        units: Units,
        reason: Message,
    },
    /// A siege ended.
    SiegeBroken { at: SpaceId, reason: Message },
    /// No withdrawal into the fortifications before battle, and why.
    NoWithdrawal { reason: Message },
    /// A siege began.
    SiegeBegan {
        at: SpaceId,
        by: Power,
        besiegers: u32,
        inside: u32,
    },
    /// The dice of each side of a field battle.
    BattleDice {
        at: SpaceId,
        attacker: Power,
        attack: BattleDice,
        defenders: Vec<Power>,
        defence: BattleDice,
    },
    /// Janissaries played: five more dice [C 1].
    Janissaries { hits: u32 },
    /// Who won the battle and why.
    BattleWon {
        winner: Power,
        attacker_hits: u32,
        defender_hits: u32,
        reason: Message,
    },
    /// A random roll gave an odd loss to one of allied defenders [R §9.2].
    OddLoss { power: Power, roll: u8 },
    /// Both sides eliminated: one side keeps one unit [R §14 step 9].
    KeepsOne { power: Power, reason: Message },
    /// Battle losses.
    Losses { power: Power, units: Units },
    /// A force retreated, and why.
    Retreated {
        power: Power,
        force: Force,
        from: SpaceId,
        to: SpaceId,
        reason: Message,
    },
    /// The formation will move on past a fortification with its next action.
    MovesOn { force: Force, at: SpaceId },
    /// The move is over.
    Ended,
}

/// One side's dice: `12 units + 2 (Suleiman) = 14 dice`.
fn dice_text(d: &BattleDice, map: &Map) -> Message {
    let leader = match d.leader {
        Some((l, r)) => format!(" + {r} ({})", map.leader(l).name),
        None => String::new(),
    };
    let bonus = match d.defender_bonus {
        0 => Arg::Text(String::new()),
        bonus => Arg::Message(msg!("his.dice.defender", bonus = bonus)),
    };
    msg!(
        "his.dice.side",
        units = d.units,
        leader = leader,
        bonus = bonus,
        dice = d.dice
    )
}

/// The number an English verb for a force as the subject agrees with: singular for one unit
/// or one leader alone.
fn force_number(force: &Force) -> u32 {
    if force.land_units() + force.leaders.len() as u32 == 1 {
        1
    } else {
        2
    }
}

fn values_text(values: &[u8]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Event {
    /// The entry in words.
    pub fn describe(&self, map: &Map) -> Message {
        let sp = |s: &SpaceId| map.space(*s).names();
        let ld = |l: &LeaderId| map.leader(*l).name.clone();
        let force_of = |force: &Force, main: Option<Power>| force.describe(map, main);
        match self {
            Event::Declared {
                power,
                force,
                from,
                to,
            } => msg!(
                "his.event.declared",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                force = force_of(force, Some(*power)),
                from = sp(from),
                to = sp(to)
            ),
            Event::Refused { reasons } => msg!(
                "his.event.refused",
                reasons = semicolons(
                    reasons
                        .iter()
                        .map(|r| Arg::Message(r.describe(map)))
                        .collect()
                )
            ),
            Event::CpSpent {
                power,
                crossing,
                cost,
                left,
            } => msg!(
                "his.event.cp_spent",
                power = power.named(Case::Nom),
                power_n = power.number(),
                cost = cost,
                crossing = match crossing {
                    Crossing::Normal => msg!("his.event.normal_connection"),
                    Crossing::Pass => msg!("his.event.over_a_pass"),
                },
                left = left
            ),
            Event::Answered {
                window,
                power,
                answer,
                source,
            } => msg!(
                "his.event.answered",
                window = window,
                power = power.named(Case::Nom),
                answer = answer.describe(map),
                source = match source {
                    Source::Letter => msg!("his.event.by_letter"),
                    Source::Standing => msg!("his.event.by_standing"),
                    Source::Deadline => msg!("his.event.by_default"),
                }
            ),
            Event::CardPlayed { by, card, effect } => msg!(
                "his.event.card_played",
                by = by.named(Case::Nom),
                by_n = by.number(),
                card = card,
                effect = *effect
            ),
            Event::CardVoid { by, card, reason } => msg!(
                "his.event.card_void",
                by = by.named(Case::Nom),
                card = card,
                reason = *reason
            ),
            Event::Cancelled { reason } => msg!("his.event.cancelled", reason = *reason),
            Event::Rolled {
                number,
                purpose,
                values,
            } => msg!(
                "his.event.rolled",
                number = number,
                purpose = purpose,
                values = values_text(values)
            ),
            Event::NoInterception {
                power,
                from,
                reason,
            } => match (power, from) {
                (None, _) => msg!("his.event.no_interception", reason = *reason),
                (Some(p), None) => msg!(
                    "his.event.may_not_intercept",
                    power = p.named(Case::Nom),
                    power_n = p.number(),
                    reason = *reason
                ),
                (Some(p), Some(s)) => msg!(
                    "his.event.may_not_intercept_from",
                    power = p.named(Case::Nom),
                    power_n = p.number(),
                    from = sp(s),
                    reason = *reason
                ),
            },
            Event::Interception {
                power,
                from,
                force,
                check,
            } => msg!(
                "his.event.interception",
                power = power.named(Case::Nom),
                power_n = power.number(),
                from = sp(from),
                force = force_of(force, Some(*power)),
                check = check.describe()
            ),
            Event::Arrived { force, at } => msg!(
                "his.event.arrived",
                force = force_of(force, None),
                force_n = force_number(force),
                at = sp(at)
            ),
            Event::NoAvoid { power, reason } => match power {
                Some(p) => msg!(
                    "his.event.may_not_avoid",
                    power = p.named(Case::Nom),
                    power_n = p.number(),
                    reason = *reason
                ),
                None => msg!("his.event.no_avoiding", reason = *reason),
            },
            Event::AvoidBattle {
                power,
                to,
                force,
                check,
            } => msg!(
                "his.event.avoid_battle",
                power = power.named(Case::Nom),
                power_n = power.number(),
                to = sp(to),
                force = force_of(force, Some(*power)),
                check = match check {
                    Some(c) => c.describe(),
                    None => msg!("his.event.avoid_without_roll"),
                }
            ),
            Event::Withdrew { force, at, reason } => msg!(
                "his.event.withdrew",
                force = force_of(force, None),
                force_n = force_number(force),
                at = sp(at),
                reason = *reason
            ),
            Event::Captured { leader, by, reason } => msg!(
                "his.event.captured",
                leader = ld(leader),
                by = by.named(Case::Nom),
                by_dat = by.named(Case::Dat),
                reason = *reason
            ),
            Event::Eliminated {
                power,
                units,
                reason,
            } => msg!(
                "his.event.eliminated",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                units = units.describe(),
                reason = *reason
            ),
            Event::SiegeBroken { at, reason } => {
                msg!("his.event.siege_broken", at = sp(at), reason = *reason)
            }
            Event::NoWithdrawal { reason } => msg!("his.event.no_withdrawal", reason = *reason),
            Event::SiegeBegan {
                at,
                by,
                besiegers,
                inside,
            } => msg!(
                "his.event.siege_began",
                at = sp(at),
                by = by.named(Case::Nom),
                by_n = by.number(),
                besiegers = besiegers,
                inside = inside
            ),
            Event::BattleDice {
                at,
                attacker,
                attack,
                defenders,
                defence,
            } => msg!(
                "his.event.battle_dice",
                at = sp(at),
                attacker = attacker.named(Case::Nom),
                attacker_n = attacker.number(),
                attack = dice_text(attack, map),
                defenders = powers_named(defenders, Case::Nom),
                defenders_n = powers_number(defenders),
                defence = dice_text(defence, map)
            ),
            Event::Janissaries { hits } => msg!(
                "his.event.janissaries",
                power = Power::Ottoman.named(Case::Nom),
                power_n = Power::Ottoman.number(),
                hits = hits
            ),
            Event::BattleWon {
                winner,
                attacker_hits,
                defender_hits,
                reason,
            } => msg!(
                "his.event.battle_won",
                winner = winner.named(Case::Nom),
                winner_n = winner.number(),
                attacker_hits = attacker_hits,
                defender_hits = defender_hits,
                reason = *reason
            ),
            Event::OddLoss { power, roll } => msg!(
                "his.event.odd_loss",
                power = power.named(Case::Nom),
                power_dat = power.named(Case::Dat),
                roll = roll
            ),
            Event::KeepsOne { power, reason } => msg!(
                "his.event.keeps_one",
                power = power.named(Case::Nom),
                power_n = power.number(),
                reason = *reason
            ),
            Event::Losses { power, units } => msg!(
                "his.event.losses",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                units = units.describe()
            ),
            Event::Retreated {
                power,
                force,
                from,
                to,
                reason,
            } => msg!(
                "his.event.retreated",
                power = power.named(Case::Nom),
                power_n = power.number(),
                force = force_of(force, Some(*power)),
                from = sp(from),
                to = sp(to),
                reason = *reason
            ),
            Event::MovesOn { force, at } => msg!(
                "his.event.moves_on",
                force = force_of(force, None),
                at = sp(at)
            ),
            Event::Ended => msg!("his.event.ended"),
        }
    }
}
