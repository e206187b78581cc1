//! What a window asks (`Question`) and what a power answers (`Answer`), and both in words
//! (`Message`s, keys `his.question.*` and `his.answer.*`).

use super::board::Force;
use super::lang::{Case, choices, concatenated, list, semicolons};
use super::map::{LeaderId, Map, SpaceId};
use super::power::Power;
use crate::message::{Arg, Message};
use crate::msg;

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
    /// The answer in words (keys `his.answer.*`): in English what the power does (`plays no
    /// card`), in Russian what it chose (`карточки нет`), so that it reads after a power's name
    /// and after "your answer".
    pub fn describe(&self, map: &Map) -> Message {
        let sp = |s: &SpaceId| map.space(*s).names();
        let force = |f: &Force| f.describe(map, None);
        match self {
            Answer::NoCard => msg!("his.answer.no_card"),
            Answer::FoulWeather => msg!("his.answer.foul_weather"),
            Answer::Gout(l) => msg!("his.answer.gout", leader = map.leader(*l).name),
            Answer::Decline => msg!("his.answer.decline"),
            Answer::Intercept { from, force: f } => {
                msg!("his.answer.intercept", from = sp(from), force = force(f))
            }
            Answer::Stay => msg!("his.answer.stay"),
            Answer::Avoid { to, force: f } => {
                msg!("his.answer.avoid", to = sp(to), force = force(f))
            }
            Answer::Withdraw => msg!("his.answer.withdraw"),
            Answer::PlayJanissaries => msg!("his.answer.janissaries"),
            Answer::Losses(f) => msg!("his.answer.losses", force = force(f)),
            Answer::WithdrawInside(f) => msg!("his.answer.withdraw_inside", force = force(f)),
            Answer::RetreatTo(s) => msg!("his.answer.retreat_to", to = sp(s)),
            Answer::MoveOn => msg!("his.answer.move_on"),
            Answer::Retreat => msg!("his.answer.retreat"),
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
    /// The question in words (keys `his.question.*`).
    pub fn describe(&self, map: &Map) -> Message {
        let sp = |s: &SpaceId| map.space(*s).names();
        let force = |f: &Force, main: Option<Power>| f.describe(map, main);
        // `Graz`, `Graz, Linz`, `Augsburg, Mainz, Regensburg`; `Graz или Linz`.
        let spaces = |v: &[SpaceId]| choices(v.iter().map(sp).collect());
        match self {
            Question::Response {
                mover,
                from,
                to,
                leaders,
            } => msg!(
                "his.question.response",
                mover = mover.named(Case::Nom),
                mover_gen = mover.named(Case::Gen),
                from = sp(from),
                to = sp(to),
                gout = concatenated(
                    leaders
                        .iter()
                        .map(|l| Arg::Message(msg!(
                            "his.question.gout",
                            leader = map.leader(*l).name
                        )))
                        .collect()
                )
            ),
            Question::Intercept {
                power,
                into,
                options,
            } => msg!(
                "his.question.intercept",
                power = power.named(Case::Nom),
                into = sp(into),
                options = list(
                    options
                        .iter()
                        .map(|(s, f)| {
                            Arg::Message(msg!(
                                "his.question.intercept_option",
                                from = sp(s),
                                force = force(f, Some(*power))
                            ))
                        })
                        .collect(),
                    |first, rest| msg!(
                        "his.question.intercept_options",
                        first = first,
                        rest = rest
                    )
                )
            ),
            Question::AvoidBattle {
                power,
                at,
                destinations,
                available,
            } => msg!(
                "his.question.avoid_battle",
                power = power.named(Case::Nom),
                at = sp(at),
                available = force(available, Some(*power)),
                destinations = spaces(destinations)
            ),
            Question::Withdraw {
                power,
                at,
                defenders,
            } => msg!(
                "his.question.withdraw",
                power = power.named(Case::Nom),
                defenders = force(defenders, None),
                at = sp(at)
            ),
            Question::Janissaries { at } => msg!(
                "his.question.janissaries",
                power = Power::Ottoman.named(Case::Nom),
                at = sp(at)
            ),
            Question::Casualties { at, losses } => msg!(
                "his.question.casualties",
                at = sp(at),
                losses = semicolons(
                    losses
                        .iter()
                        .map(|c| Arg::Message(msg!(
                            "his.question.casualty",
                            power = c.power.named(Case::Nom),
                            power_n = c.power.number(),
                            losses = c.losses,
                            available = force(&c.available, Some(c.power))
                        )))
                        .collect()
                )
            ),
            Question::WithdrawAfterDefeat {
                power,
                at,
                available,
            } => msg!(
                "his.question.withdraw_after_defeat",
                power = power.named(Case::Nom),
                available = force(available, Some(*power)),
                at = sp(at)
            ),
            Question::Retreat {
                power,
                from,
                destinations,
            } => msg!(
                "his.question.retreat",
                power = power.named(Case::Nom),
                from = sp(from),
                destinations = spaces(destinations)
            ),
            Question::MoveOn { power, at } => msg!(
                "his.question.move_on",
                power = power.named(Case::Nom),
                at = sp(at)
            ),
        }
    }
}
