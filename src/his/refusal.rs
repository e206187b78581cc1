//! Why a declared move is refused, in English and Russian.

use super::board::Units;
use super::lang::{Case, Lang, count, power_list};
use super::map::{LeaderId, Map};
use super::power::Power;

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
        self.describe_in(map, Lang::En)
    }

    pub fn describe_in(&self, map: &Map, lang: Lang) -> String {
        match lang {
            Lang::En => self.english(map),
            Lang::Ru => self.russian(map),
        }
    }

    fn english(&self, map: &Map) -> String {
        let leader = |l: &LeaderId| map.leader(*l).name.clone();
        match self {
            Refusal::NotActive { power, active } => {
                format!("{power} is not the active power ({active} is)")
            }
            Refusal::EmptyFormation => "the move names no units and no leaders".into(),
            Refusal::NotAdjacent => "the destination is not adjacent to the origin".into(),
            Refusal::NotEnoughCp { cost, left } => {
                format!(
                    "the move costs {cost} CP and {left} {} left",
                    if *left == 1 { "is" } else { "are" }
                )
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
                power_list(powers, Lang::En, Case::Nom)
            ),
            Refusal::LoneLeaders => {
                "leaders without units never enter an enemy space or a space with enemy units"
                    .into()
            }
        }
    }

    fn russian(&self, map: &Map) -> String {
        let leader = |l: &LeaderId| map.leader(*l).name.clone();
        let ru = Lang::Ru;
        match self {
            Refusal::NotActive { power, active } => format!(
                "{} — не активная держава (активная — {})",
                power.ru(Case::Nom),
                active.ru(Case::Nom)
            ),
            Refusal::EmptyFormation => "в движении не названо ни частей, ни полководцев".into(),
            Refusal::NotAdjacent => "область назначения не соседствует с исходной".into(),
            Refusal::NotEnoughCp { cost, left } => {
                format!("движение стоит {cost} КО, а осталось {left}")
            }
            Refusal::ForeignUnits { power } => format!(
                "части {} не принадлежат ни движущейся державе, ни её активному союзнику",
                power.ru(Case::Gen)
            ),
            Refusal::ForeignLeader { leader: l } => {
                format!("{} не служит движущейся державе", leader(l))
            }
            Refusal::LeaderNotThere { leader: l } => {
                format!("{} не стоит в исходной области вне укреплений", leader(l))
            }
            Refusal::UnitsNotThere {
                power,
                wanted,
                there,
            } => format!(
                "у {} там вне укреплений {}, а не {}",
                power.ru(Case::Gen),
                there.describe_in(ru),
                wanted.describe_in(ru)
            ),
            Refusal::LostBattle { power } => format!(
                "части {}, проигравшие полевое сражение в этот импульс, не могут двигаться",
                power.ru(Case::Gen)
            ),
            Refusal::PlacedSiege { power } => format!(
                "части {}, начавшие осаду в этот импульс, не могут двигаться",
                power.ru(Case::Gen)
            ),
            Refusal::FoulWeather { power } => format!(
                "Foul Weather: части {}, уже двигавшиеся в этот импульс, не могут двигаться снова",
                power.ru(Case::Gen)
            ),
            Refusal::LeaderLostBattle { leader: l } => format!(
                "{} проиграл полевое сражение в этот импульс и не может двигаться",
                leader(l)
            ),
            Refusal::LeaderPlacedSiege { leader: l } => format!(
                "{} начал осаду в этот импульс и не может двигаться",
                leader(l)
            ),
            Refusal::Gout { leader: l } => {
                format!("на {} в этот импульс сыграна Gout", leader(l))
            }
            Refusal::Besieged => "осаждённые части не могут двигаться".into(),
            Refusal::TooMany { units, limit } => format!(
                "{}, а эти полководцы могут вести не больше {limit}",
                count(
                    *units,
                    "сухопутная часть",
                    "сухопутные части",
                    "сухопутных частей"
                )
            ),
            Refusal::ProtestantBeforeLeague => {
                "протестанты не двигаются до Шмалькальденского союза".into()
            }
            Refusal::ElectorateBeforeLeague => {
                "до Шмалькальденского союза ни одна держава, кроме протестантов, не входит в курфюршество"
                    .into()
            }
            Refusal::Controlled { controller } => format!(
                "область назначения под контролем {}: это ни враг, ни союзник движущейся державы",
                controller.ru(Case::Gen)
            ),
            Refusal::Occupied { powers } => format!(
                "к сухопутным частям {} в области назначения нельзя ни присоединиться, ни атаковать их",
                power_list(powers, ru, Case::Gen)
            ),
            Refusal::LoneLeaders => {
                "полководцы без частей никогда не входят во вражескую область или в область с вражескими частями"
                    .into()
            }
        }
    }
}
