//! What a window asks (`Question`) and what a power answers (`Answer`), in words in English
//! and Russian.

use super::board::Force;
use super::lang::{Case, Lang, count, en_count};
use super::map::{LeaderId, Map, SpaceId};
use super::power::Power;

/// An answer to a window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Response window, Janissaries: no card.
    NoCard,
    /// Response window: play Foul Weather [C 31].
    FoulWeather,
    /// Response window: play Gout on a leader of the moving formation [C 32].
    Gout(LeaderId),
    /// Interception: no (more) attempts.
    Decline,
    /// Interception: an attempt with this formation from this space.
    Intercept { from: SpaceId, force: Force },
    /// Avoid battle: stay; withdrawal: stay outside and fight.
    Stay,
    /// Avoid battle: this group tries to leave to this space.
    Avoid { to: SpaceId, force: Force },
    /// Withdrawal into the fortifications before battle (all units and leaders).
    Withdraw,
    /// Janissaries: play it, five more dice [C 1].
    PlayJanissaries,
    /// Casualties: these units are lost.
    Losses(Force),
    /// After a lost battle in a fortified space: these units (at most 4) and leaders go inside.
    WithdrawInside(Force),
    /// Retreat to this space.
    RetreatTo(SpaceId),
    /// After defenders withdrew and the formation is not larger: move on with the next action.
    MoveOn,
    /// After defenders withdrew and the formation is not larger: retreat to where it came from.
    Retreat,
}

impl Answer {
    pub fn describe(&self, map: &Map) -> String {
        self.describe_in(map, Lang::En)
    }

    /// The answer in `lang`: in English what the power does (`plays no card`), in Russian what
    /// it chose (`карточки нет`), so that it reads after a power's name and after "your
    /// answer".
    pub fn describe_in(&self, map: &Map, lang: Lang) -> String {
        let sp = |s: &SpaceId| map.space(*s).name.clone();
        let force = |f: &Force| f.describe_in(map, None, lang);
        match lang {
            Lang::En => match self {
                Answer::NoCard => "plays no card".into(),
                Answer::FoulWeather => "plays Foul Weather".into(),
                Answer::Gout(l) => format!("plays Gout on {}", map.leader(*l).name),
                Answer::Decline => "declines to intercept".into(),
                Answer::Intercept { from, force: f } => {
                    format!("intercepts from {} with {}", sp(from), force(f))
                }
                Answer::Stay => "stays".into(),
                Answer::Avoid { to, force: f } => {
                    format!("avoids battle to {} with {}", sp(to), force(f))
                }
                Answer::Withdraw => "withdraws into the fortifications".into(),
                Answer::PlayJanissaries => "plays Janissaries".into(),
                Answer::Losses(f) => format!("loses {}", force(f)),
                Answer::WithdrawInside(f) => format!("withdraws {} inside", force(f)),
                Answer::RetreatTo(s) => format!("retreats to {}", sp(s)),
                Answer::MoveOn => "moves on with its next action".into(),
                Answer::Retreat => "retreats".into(),
            },
            Lang::Ru => match self {
                Answer::NoCard => "карточки нет".into(),
                Answer::FoulWeather => "карточка Foul Weather".into(),
                Answer::Gout(l) => format!("карточка Gout на {}", map.leader(*l).name),
                Answer::Decline => "отказ от перехвата".into(),
                Answer::Intercept { from, force: f } => {
                    format!("перехват из {} ({})", sp(from), force(f))
                }
                Answer::Stay => "остаться".into(),
                Answer::Avoid { to, force: f } => {
                    format!("уклонение от сражения в {} ({})", sp(to), force(f))
                }
                Answer::Withdraw => "отход в укрепления".into(),
                Answer::PlayJanissaries => "карточка Janissaries".into(),
                Answer::Losses(f) => format!("потери: {}", force(f)),
                Answer::WithdrawInside(f) => format!("в укрепления отходят: {}", force(f)),
                Answer::RetreatTo(s) => format!("отступление в {}", sp(s)),
                Answer::MoveOn => "идти дальше следующим действием".into(),
                Answer::Retreat => "отступление".into(),
            },
        }
    }
}

/// One power's share of battle losses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Casualty {
    pub power: Power,
    pub losses: u32,
    /// The units it may lose them from.
    pub available: Force,
}

/// What a window asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Step 4: play Foul Weather or Gout on this move? Asked of every other major power,
    /// whether or not it holds a card, so that silence tells nothing.
    Response {
        mover: Power,
        from: SpaceId,
        to: SpaceId,
        leaders: Vec<LeaderId>,
    },
    /// Step 5: intercept into `into` from one of these spaces, with part or all of the force
    /// there (a legal formation), or decline.
    Intercept {
        power: Power,
        into: SpaceId,
        options: Vec<(SpaceId, Force)>,
    },
    /// Step 6: avoid battle from `at` to one of `destinations` with part or all of
    /// `available`, or stay.
    AvoidBattle {
        power: Power,
        at: SpaceId,
        destinations: Vec<SpaceId>,
        available: Force,
    },
    /// Step 7: withdraw all of `defenders` into the fortifications of `at`, or stay and fight.
    Withdraw {
        power: Power,
        at: SpaceId,
        defenders: Force,
    },
    /// Battle step 7: play Janissaries now that both rolls are known?
    Janissaries { at: SpaceId },
    /// Battle step 9: which units each power loses.
    Casualties { at: SpaceId, losses: Vec<Casualty> },
    /// Retreat, first: up to 4 land units and any leaders may withdraw inside.
    WithdrawAfterDefeat {
        power: Power,
        at: SpaceId,
        available: Force,
    },
    /// Retreat to one of these spaces.
    Retreat {
        power: Power,
        from: SpaceId,
        destinations: Vec<SpaceId>,
    },
    /// Defenders withdrew and the formation is not larger: move on (with CP) or retreat.
    MoveOn { power: Power, at: SpaceId },
}

impl Question {
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
        let sp = |s: &SpaceId| map.space(*s).name.clone();
        let spaces = |v: &[SpaceId]| v.iter().map(sp).collect::<Vec<_>>().join(", ");
        match self {
            Question::Response {
                mover,
                from,
                to,
                leaders,
            } => {
                let mut s = format!(
                    "response to {mover}'s move from {} to {}: no card, Foul Weather",
                    sp(from),
                    sp(to)
                );
                for l in leaders {
                    s.push_str(&format!(", Gout on {}", map.leader(*l).name));
                }
                s
            }
            Question::Intercept {
                power,
                into,
                options,
            } => format!(
                "{power}: intercept into {}? {}; or decline",
                sp(into),
                options
                    .iter()
                    .map(|(s, f)| format!("from {} ({})", sp(s), f.describe(map, Some(*power))))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Question::AvoidBattle {
                power,
                at,
                destinations,
                available,
            } => format!(
                "{power}: avoid battle in {} with {} to {}? or stay",
                sp(at),
                available.describe(map, Some(*power)),
                spaces(destinations)
            ),
            Question::Withdraw {
                power,
                at,
                defenders,
            } => format!(
                "{power}: withdraw {} into the fortifications of {}? or stay and fight",
                defenders.describe(map, None),
                sp(at)
            ),
            Question::Janissaries { at } => {
                format!("Ottoman: play Janissaries in the battle in {}?", sp(at))
            }
            Question::Casualties { at, losses } => format!(
                "casualties in {}: {}",
                sp(at),
                losses
                    .iter()
                    .map(|c| format!(
                        "{} loses {} of its {}",
                        c.power,
                        en_count(c.losses, "unit", "units"),
                        c.available.describe(map, Some(c.power))
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Question::WithdrawAfterDefeat {
                power,
                at,
                available,
            } => format!(
                "{power} has {} in {}: withdraw up to 4 land units and any leaders into the fortifications?",
                available.describe(map, Some(*power)),
                sp(at)
            ),
            Question::Retreat {
                power,
                from,
                destinations,
            } => format!(
                "{power}: retreat from {} to {}",
                sp(from),
                spaces(destinations)
            ),
            Question::MoveOn { power, at } => format!(
                "{power}: move on from {} with the next action, or retreat",
                sp(at)
            ),
        }
    }

    fn russian(&self, map: &Map) -> String {
        let ru = Lang::Ru;
        let sp = |s: &SpaceId| map.space(*s).name.clone();
        // `Graz`, `Graz или Linz`, `Augsburg, Mainz или Regensburg`.
        let spaces = |v: &[SpaceId]| match v {
            [] => String::new(),
            [one] => sp(one),
            [rest @ .., last] => format!(
                "{} или {}",
                rest.iter().map(sp).collect::<Vec<_>>().join(", "),
                sp(last)
            ),
        };
        let nom = |p: &Power| p.ru(Case::Nom);
        match self {
            Question::Response {
                mover,
                from,
                to,
                leaders,
            } => {
                let mut s = format!(
                    "ответ на движение {} из {} в {}: карточки нет, Foul Weather",
                    mover.ru(Case::Gen),
                    sp(from),
                    sp(to)
                );
                for l in leaders {
                    s.push_str(&format!(", Gout на {}", map.leader(*l).name));
                }
                s
            }
            Question::Intercept {
                power,
                into,
                options,
            } => format!(
                "{}: перехватить в {} из {}, или отказаться?",
                nom(power),
                sp(into),
                options
                    .iter()
                    .map(|(s, f)| format!("{} ({})", sp(s), f.describe_in(map, Some(*power), ru)))
                    .collect::<Vec<_>>()
                    .join(" или из ")
            ),
            Question::AvoidBattle {
                power,
                at,
                destinations,
                available,
            } => format!(
                "{}: уклониться от сражения в {} ({}), уйдя в {}? Или остаться",
                nom(power),
                sp(at),
                available.describe_in(map, Some(*power), ru),
                spaces(destinations)
            ),
            Question::Withdraw {
                power,
                at,
                defenders,
            } => format!(
                "{}: отойти в укрепления {} ({})? Или остаться и сражаться",
                nom(power),
                sp(at),
                defenders.describe_in(map, None, ru)
            ),
            Question::Janissaries { at } => format!(
                "{}: сыграть Janissaries в сражении в {}?",
                nom(&Power::Ottoman),
                sp(at)
            ),
            Question::Casualties { at, losses } => format!(
                "потери в {}: {}",
                sp(at),
                losses
                    .iter()
                    .map(|c| format!(
                        "{} {} {} (есть: {})",
                        nom(&c.power),
                        c.power.ru_verb("теряет", "теряют"),
                        count(c.losses, "часть", "части", "частей"),
                        c.available.describe_in(map, Some(c.power), ru)
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Question::WithdrawAfterDefeat {
                power,
                at,
                available,
            } => format!(
                "{}: отвести в укрепления {} до 4 сухопутных частей и любых полководцев (есть: {})?",
                nom(power),
                sp(at),
                available.describe_in(map, Some(*power), ru)
            ),
            Question::Retreat {
                power,
                from,
                destinations,
            } => format!(
                "{}: отступить из {} в {}?",
                nom(power),
                sp(from),
                spaces(destinations)
            ),
            Question::MoveOn { power, at } => format!(
                "{}: следующим действием идти дальше из {} или отступить?",
                nom(power),
                sp(at)
            ),
        }
    }
}
