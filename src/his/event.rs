//! The record of a move: what was declared, asked, answered, rolled and decided, and why. The
//! reports are built from these entries; `describe` gives the English words (the tests' and the
//! log's), a report may give its own.

use super::board::{Force, Units};
use super::map::{Crossing, LeaderId, Map, SpaceId};
use super::power::Power;
use super::procedure::Answer;

/// Why a declared move is refused [R §13.1; spec §3.1].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Only the active power moves.
    NotActive { power: Power, active: Power },
    /// A move names at least one unit or leader.
    EmptyFormation,
    /// The destination is not joined to the origin by land.
    NotAdjacent,
    /// The move would cost more CP than are left.
    NotEnoughCp { cost: u32, left: u32 },
    /// Units of a power that is neither the mover nor its active minor ally.
    ForeignUnits { power: Power },
    /// A leader who does not serve the mover.
    ForeignLeader { leader: LeaderId },
    /// The leader is not in the origin (outside the fortifications).
    LeaderNotThere { leader: LeaderId },
    /// Not so many units of this power stand in the origin outside the fortifications.
    UnitsNotThere {
        power: Power,
        wanted: Units,
        there: Units,
    },
    /// Some of the units named lost a field battle this impulse.
    LostBattle { power: Power },
    /// Some of the units named placed a siege this impulse.
    PlacedSiege { power: Power },
    /// Foul Weather: some of the units named have already moved this impulse.
    FoulWeather { power: Power },
    /// The leader lost a field battle this impulse.
    LeaderLostBattle { leader: LeaderId },
    /// The leader placed a siege this impulse.
    LeaderPlacedSiege { leader: LeaderId },
    /// The leader has Gout this impulse.
    Gout { leader: LeaderId },
    /// The units are besieged (inside the fortifications of a besieged space).
    Besieged,
    /// More land units than the leaders may command.
    TooMany { units: u32, limit: u32 },
    /// The Protestant may not move before the Schmalkaldic League.
    ProtestantBeforeLeague,
    /// No power but the Protestant enters an electorate before the Schmalkaldic League.
    ElectorateBeforeLeague,
    /// The destination is controlled by a power the mover is neither at war with nor allied to.
    Controlled { controller: Power },
    /// Land units in the destination that the rules of entry do not allow to be joined or
    /// attacked [R §13.1].
    Occupied { powers: Vec<Power> },
    /// Leaders without land units never enter an enemy space or a space with enemy units.
    LoneLeaders,
}

impl Refusal {
    pub fn describe(&self, map: &Map) -> String {
        let leader = |l: &LeaderId| map.leader(*l).name.clone();
        match self {
            Refusal::NotActive { power, active } => {
                format!("{power} is not the active power ({active} is)")
            }
            Refusal::EmptyFormation => "the move names no units and no leaders".into(),
            Refusal::NotAdjacent => "the destination is not adjacent to the origin".into(),
            Refusal::NotEnoughCp { cost, left } => {
                format!("the move costs {cost} CP and {left} are left")
            }
            Refusal::ForeignUnits { power } => {
                format!("{power} units are neither the mover's nor its active ally's")
            }
            Refusal::ForeignLeader { leader: l } => {
                format!("{} does not serve the moving power", leader(l))
            }
            Refusal::LeaderNotThere { leader: l } => {
                format!(
                    "{} is not in the origin, outside the fortifications",
                    leader(l)
                )
            }
            Refusal::UnitsNotThere {
                power,
                wanted,
                there,
            } => format!("{power} has {there} there outside the fortifications, not {wanted}"),
            Refusal::LostBattle { power } => {
                format!("{power} units that lost a field battle this impulse may not move")
            }
            Refusal::PlacedSiege { power } => {
                format!("{power} units that placed a siege this impulse may not move")
            }
            Refusal::FoulWeather { power } => {
                format!("Foul Weather: {power} units that moved this impulse may not move again")
            }
            Refusal::LeaderLostBattle { leader: l } => {
                format!(
                    "{} lost a field battle this impulse and may not move",
                    leader(l)
                )
            }
            Refusal::LeaderPlacedSiege { leader: l } => {
                format!("{} placed a siege this impulse and may not move", leader(l))
            }
            Refusal::Gout { leader: l } => format!("{} has Gout this impulse", leader(l)),
            Refusal::Besieged => "units under siege may not move".into(),
            Refusal::TooMany { units, limit } => {
                format!("{units} land units, and these leaders command at most {limit}")
            }
            Refusal::ProtestantBeforeLeague => {
                "the Protestant may not move before the Schmalkaldic League".into()
            }
            Refusal::ElectorateBeforeLeague => {
                "no power but the Protestant enters an electorate before the Schmalkaldic League"
                    .into()
            }
            Refusal::Controlled { controller } => format!(
                "the destination is controlled by {controller}, neither at war with nor allied to the mover"
            ),
            Refusal::Occupied { powers } => format!(
                "land units of {} in the destination may be neither joined nor attacked",
                power_list(powers)
            ),
            Refusal::LoneLeaders => {
                "leaders without units never enter an enemy space or a space with enemy units"
                    .into()
            }
        }
    }
}

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

/// A 2d6 roll with its modifiers, against 9 [R §13.2, §13.3].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub dice: Vec<u8>,
    /// Each modifier and why.
    pub modifiers: Vec<(i32, String)>,
    pub total: i32,
    pub success: bool,
}

impl Check {
    pub fn new(dice: Vec<u8>, modifiers: Vec<(i32, String)>) -> Check {
        let total = dice.iter().map(|d| *d as i32).sum::<i32>()
            + modifiers.iter().map(|(m, _)| m).sum::<i32>();
        Check {
            dice,
            modifiers,
            total,
            success: total >= 9,
        }
    }

    pub fn describe(&self) -> String {
        let mut s = self
            .dice
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("+");
        for (m, why) in &self.modifiers {
            if *m >= 0 {
                s.push_str(&format!(" +{m} ({why})"));
            } else {
                s.push_str(&format!(" {m} ({why})"));
            }
        }
        format!(
            "{s} = {}, {} 9: {}",
            self.total,
            if self.success { ">=" } else { "<" },
            if self.success { "success" } else { "failure" }
        )
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
        effect: String,
    },
    /// A response card answer that could not take effect.
    CardVoid {
        by: Power,
        card: String,
        reason: String,
    },
    /// The move stops before the formation leaves (its CP stay spent).
    Cancelled { reason: String },
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
        reason: String,
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
        reason: String,
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
        reason: String,
    },
    /// A leader was captured.
    Captured {
        leader: LeaderId,
        by: Power,
        reason: String,
    },
    /// Units were eliminated other than as battle losses.
    Eliminated {
        power: Power,
        units: Units,
        reason: String,
    },
    /// A siege ended.
    SiegeBroken { at: SpaceId, reason: String },
    /// No withdrawal into the fortifications before battle, and why.
    NoWithdrawal { reason: String },
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
        reason: String,
    },
    /// A random roll gave an odd loss to one of allied defenders [R §9.2].
    OddLoss { power: Power, roll: u8 },
    /// Both sides eliminated: one side keeps one unit [R §14 step 9].
    KeepsOne { power: Power, reason: String },
    /// Battle losses.
    Losses { power: Power, units: Units },
    /// A force retreated.
    Retreated {
        power: Power,
        force: Force,
        from: SpaceId,
        to: SpaceId,
    },
    /// The formation will move on past a fortification with its next action.
    MovesOn { force: Force, at: SpaceId },
    /// The move is over.
    Ended,
}

fn power_list(powers: &[Power]) -> String {
    powers
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(" and ")
}

fn dice_text(d: &BattleDice, map: &Map) -> String {
    let mut s = format!("{} units", d.units);
    if let Some((l, r)) = d.leader {
        s.push_str(&format!(" + {r} ({})", map.leader(l).name));
    }
    if d.defender_bonus > 0 {
        s.push_str(&format!(" + {} (defender)", d.defender_bonus));
    }
    format!("{s} = {} dice", d.dice)
}

impl Event {
    /// The entry in English.
    pub fn describe(&self, map: &Map) -> String {
        let sp = |s: &SpaceId| map.space(*s).name.clone();
        let ld = |l: &LeaderId| map.leader(*l).name.clone();
        match self {
            Event::Declared {
                power,
                force,
                from,
                to,
            } => format!(
                "{power} moves {} from {} to {}",
                force.describe(map, Some(*power)),
                sp(from),
                sp(to)
            ),
            Event::Refused { reasons } => format!(
                "move refused: {}",
                reasons
                    .iter()
                    .map(|r| r.describe(map))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Event::CpSpent {
                power,
                crossing,
                cost,
                left,
            } => format!(
                "{power} spends {cost} CP ({}), {left} left",
                match crossing {
                    Crossing::Normal => "normal connection",
                    Crossing::Pass => "over a pass",
                }
            ),
            Event::Answered {
                window,
                power,
                answer,
                source,
            } => format!(
                "window {window}: {power} {}{}",
                answer.describe(map),
                match source {
                    Source::Letter => "",
                    Source::Standing => " (standing instruction)",
                    Source::Deadline => " (deadline passed: default)",
                }
            ),
            Event::CardPlayed { by, card, effect } => format!("{by} plays {card}: {effect}"),
            Event::CardVoid { by, card, reason } => {
                format!("{by}'s {card} has no effect: {reason}")
            }
            Event::Cancelled { reason } => format!("move cancelled: {reason}"),
            Event::Rolled {
                number,
                purpose,
                values,
            } => format!(
                "roll {number} ({purpose}): {}",
                values
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Event::NoInterception {
                power,
                from,
                reason,
            } => match (power, from) {
                (None, _) => format!("no interception: {reason}"),
                (Some(p), None) => format!("{p} may not intercept: {reason}"),
                (Some(p), Some(s)) => format!("{p} may not intercept from {}: {reason}", sp(s)),
            },
            Event::Interception {
                power,
                from,
                force,
                check,
            } => format!(
                "{power} intercepts from {} with {}: {}",
                sp(from),
                force.describe(map, Some(*power)),
                check.describe()
            ),
            Event::Arrived { force, at } => {
                format!("{} arrive in {}", force.describe(map, None), sp(at))
            }
            Event::NoAvoid { power, reason } => match power {
                Some(p) => format!("{p} may not avoid battle: {reason}"),
                None => format!("no avoiding battle: {reason}"),
            },
            Event::AvoidBattle {
                power,
                to,
                force,
                check,
            } => format!(
                "{power} avoids battle to {} with {}: {}",
                sp(to),
                force.describe(map, Some(*power)),
                match check {
                    Some(c) => c.describe(),
                    None => "success without a roll (all lost a field battle this impulse)".into(),
                }
            ),
            Event::Withdrew { force, at, reason } => format!(
                "{} withdraw into the fortifications of {} ({reason})",
                force.describe(map, None),
                sp(at)
            ),
            Event::Captured { leader, by, reason } => {
                format!("{} captured by {by}: {reason}", ld(leader))
            }
            Event::Eliminated {
                power,
                units,
                reason,
            } => format!("{power} {units} eliminated: {reason}"),
            Event::SiegeBroken { at, reason } => {
                format!("the siege of {} is broken: {reason}", sp(at))
            }
            Event::NoWithdrawal { reason } => format!("no withdrawal: {reason}"),
            Event::SiegeBegan {
                at,
                by,
                besiegers,
                inside,
            } => format!(
                "{} under siege by {by} ({besiegers} land units against {inside} inside)",
                sp(at)
            ),
            Event::BattleDice {
                at,
                attacker,
                attack,
                defenders,
                defence,
            } => format!(
                "field battle in {}: {attacker} attacks with {}; {} defends with {}",
                sp(at),
                dice_text(attack, map),
                power_list(defenders),
                dice_text(defence, map)
            ),
            Event::Janissaries { hits } => {
                format!("Ottoman plays Janissaries: 5 more dice, {hits} more hits")
            }
            Event::BattleWon {
                winner,
                attacker_hits,
                defender_hits,
                reason,
            } => format!(
                "{winner} wins the battle, {attacker_hits} hits to {defender_hits} ({reason})"
            ),
            Event::OddLoss { power, roll } => {
                format!("odd loss to {power} (roll {roll})")
            }
            Event::KeepsOne { power, reason } => format!("{power} keeps 1 unit: {reason}"),
            Event::Losses { power, units } => format!("{power} loses {units}"),
            Event::Retreated {
                power,
                force,
                from,
                to,
            } => format!(
                "{power} retreats {} from {} to {}",
                force.describe(map, Some(*power)),
                sp(from),
                sp(to)
            ),
            Event::MovesOn { force, at } => format!(
                "{} must move on from {} with the next action (eliminated if forced back into it)",
                force.describe(map, None),
                sp(at)
            ),
            Event::Ended => "the move is over".into(),
        }
    }
}
