//! Why a declared move is refused, as a `Message` (keys `his.refusal.*`).

use super::board::Units;
use super::lang::{Case, powers_named};
use super::map::{LeaderId, Map};
use super::power::Power;
use crate::message::Message;
use crate::msg;

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
    /// Why, in words (keys `his.refusal.*`).
    pub fn describe(&self, map: &Map) -> Message {
        let leader = |l: &LeaderId| map.leader(*l).name.clone();
        match self {
            Refusal::NotActive { power, active } => msg!(
                "his.refusal.not_active",
                power = power.named(Case::Nom),
                active = active.named(Case::Nom)
            ),
            Refusal::EmptyFormation => msg!("his.refusal.empty_formation"),
            Refusal::NotAdjacent => msg!("his.refusal.not_adjacent"),
            Refusal::NotEnoughCp { cost, left } => {
                msg!("his.refusal.not_enough_cp", cost = cost, left = left)
            }
            Refusal::ForeignUnits { power } => msg!(
                "his.refusal.foreign_units",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            ),
            Refusal::ForeignLeader { leader: l } => {
                msg!("his.refusal.foreign_leader", leader = leader(l))
            }
            Refusal::LeaderNotThere { leader: l } => {
                msg!("his.refusal.leader_not_there", leader = leader(l))
            }
            Refusal::UnitsNotThere {
                power,
                wanted,
                there,
            } => msg!(
                "his.refusal.units_not_there",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen),
                there = there.describe(),
                wanted = wanted.describe()
            ),
            Refusal::LostBattle { power } => msg!(
                "his.refusal.lost_battle",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            ),
            Refusal::PlacedSiege { power } => msg!(
                "his.refusal.placed_siege",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            ),
            Refusal::FoulWeather { power } => msg!(
                "his.refusal.foul_weather",
                power = power.named(Case::Nom),
                power_gen = power.named(Case::Gen)
            ),
            Refusal::LeaderLostBattle { leader: l } => {
                msg!("his.refusal.leader_lost_battle", leader = leader(l))
            }
            Refusal::LeaderPlacedSiege { leader: l } => {
                msg!("his.refusal.leader_placed_siege", leader = leader(l))
            }
            Refusal::Gout { leader: l } => msg!("his.refusal.gout", leader = leader(l)),
            Refusal::Besieged => msg!("his.refusal.besieged"),
            Refusal::TooMany { units, limit } => {
                msg!("his.refusal.too_many", units = units, limit = limit)
            }
            Refusal::ProtestantBeforeLeague => msg!("his.refusal.protestant_before_league"),
            Refusal::ElectorateBeforeLeague => msg!("his.refusal.electorate_before_league"),
            Refusal::Controlled { controller } => msg!(
                "his.refusal.controlled",
                controller = controller.named(Case::Nom),
                controller_gen = controller.named(Case::Gen)
            ),
            Refusal::Occupied { powers } => msg!(
                "his.refusal.occupied",
                powers = powers_named(powers, Case::Nom),
                powers_gen = powers_named(powers, Case::Gen)
            ),
            Refusal::LoneLeaders => msg!("his.refusal.lone_leaders"),
        }
    }
}
