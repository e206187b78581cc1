//! The record of a move: what was declared, asked, answered, rolled and decided, and why. The
//! reports are built from these entries; `describe_in` gives their words in English or Russian
//! (`describe`, the English, is the tests' and the log's), a report may give its own.

use super::board::{Force, Units};
use super::lang::{Case, Lang, Phrase, count, en_count, power_list, ru_verb_of};
use super::map::{Crossing, LeaderId, Map, SpaceId};
use super::power::Power;
use super::question::Answer;

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

/// A 2d6 roll with its modifiers, against 9 [R §13.2, §13.3].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub dice: Vec<u8>,
    /// Each modifier and why.
    pub modifiers: Vec<(i32, Phrase)>,
    pub total: i32,
    pub success: bool,
}

impl Check {
    pub fn new(dice: Vec<u8>, modifiers: Vec<(i32, Phrase)>) -> Check {
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
        self.describe_in(Lang::En)
    }

    /// `1+1 +2 (Charles V) -1 (against Ottoman cavalry) = 3, < 9: failure`.
    pub fn describe_in(&self, lang: Lang) -> String {
        let mut s = self
            .dice
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("+");
        for (m, why) in &self.modifiers {
            s.push_str(&format!(" {m:+} ({})", why.get(lang)));
        }
        let verdict = match (lang, self.success) {
            (Lang::En, true) => "success",
            (Lang::En, false) => "failure",
            (Lang::Ru, true) => "успех",
            (Lang::Ru, false) => "неудача",
        };
        format!(
            "{s} = {}, {} 9: {verdict}",
            self.total,
            if self.success { ">=" } else { "<" },
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
        effect: Phrase,
    },
    /// A response card answer that could not take effect.
    CardVoid {
        by: Power,
        card: String,
        reason: Phrase,
    },
    /// The move stops before the formation leaves (its CP stay spent).
    Cancelled { reason: Phrase },
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
        reason: Phrase,
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
        reason: Phrase,
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
        reason: Phrase,
    },
    /// A leader was captured.
    Captured {
        leader: LeaderId,
        by: Power,
        reason: Phrase,
    },
    /// Units were eliminated other than as battle losses.
    Eliminated {
        power: Power,
        units: Units,
        reason: Phrase,
    },
    /// A siege ended.
    SiegeBroken { at: SpaceId, reason: Phrase },
    /// No withdrawal into the fortifications before battle, and why.
    NoWithdrawal { reason: Phrase },
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
        reason: Phrase,
    },
    /// A random roll gave an odd loss to one of allied defenders [R §9.2].
    OddLoss { power: Power, roll: u8 },
    /// Both sides eliminated: one side keeps one unit [R §14 step 9].
    KeepsOne { power: Power, reason: Phrase },
    /// Battle losses.
    Losses { power: Power, units: Units },
    /// A force retreated, and why.
    Retreated {
        power: Power,
        force: Force,
        from: SpaceId,
        to: SpaceId,
        reason: Phrase,
    },
    /// The formation will move on past a fortification with its next action.
    MovesOn { force: Force, at: SpaceId },
    /// The move is over.
    Ended,
}

fn dice_text(d: &BattleDice, map: &Map, lang: Lang) -> String {
    let mut s = match lang {
        Lang::En => en_count(d.units, "unit", "units"),
        Lang::Ru => count(d.units, "часть", "части", "частей"),
    };
    if let Some((l, r)) = d.leader {
        s.push_str(&format!(" + {r} ({})", map.leader(l).name));
    }
    if d.defender_bonus > 0 {
        s.push_str(&match lang {
            Lang::En => format!(" + {} (defender)", d.defender_bonus),
            Lang::Ru => format!(" + {} (защитник)", d.defender_bonus),
        });
    }
    match lang {
        Lang::En => format!("{s} = {}", en_count(d.dice, "die", "dice")),
        Lang::Ru => format!("{s} = {}", count(d.dice, "кость", "кости", "костей")),
    }
}

/// The English verb for a force as the subject: singular for one unit or one leader alone.
fn en_verb<'a>(force: &Force, one: &'a str, many: &'a str) -> &'a str {
    if force.land_units() + force.leaders.len() as u32 == 1 {
        one
    } else {
        many
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
    /// The entry in English.
    pub fn describe(&self, map: &Map) -> String {
        self.describe_in(map, Lang::En)
    }

    /// The entry in `lang`.
    pub fn describe_in(&self, map: &Map, lang: Lang) -> String {
        match lang {
            Lang::En => self.english(map),
            Lang::Ru => self.russian(map),
        }
    }

    fn english(&self, map: &Map) -> String {
        let en = Lang::En;
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
            Event::CardPlayed { by, card, effect } => {
                format!("{by} plays {card}: {}", effect.en)
            }
            Event::CardVoid { by, card, reason } => {
                format!("{by}'s {card} has no effect: {}", reason.en)
            }
            Event::Cancelled { reason } => format!("move cancelled: {}", reason.en),
            Event::Rolled {
                number,
                purpose,
                values,
            } => format!("roll {number} ({purpose}): {}", values_text(values)),
            Event::NoInterception {
                power,
                from,
                reason,
            } => match (power, from) {
                (None, _) => format!("no interception: {}", reason.en),
                (Some(p), None) => format!("{p} may not intercept: {}", reason.en),
                (Some(p), Some(s)) => {
                    format!("{p} may not intercept from {}: {}", sp(s), reason.en)
                }
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
                check.describe_in(en)
            ),
            Event::Arrived { force, at } => {
                format!(
                    "{} {} in {}",
                    force.describe(map, None),
                    en_verb(force, "arrives", "arrive"),
                    sp(at)
                )
            }
            Event::NoAvoid { power, reason } => match power {
                Some(p) => format!("{p} may not avoid battle: {}", reason.en),
                None => format!("no avoiding battle: {}", reason.en),
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
                    Some(c) => c.describe_in(en),
                    None =>
                        "success without a roll (every unit in the group lost a field battle this impulse)"
                            .into(),
                }
            ),
            Event::Withdrew { force, at, reason } => format!(
                "{} {} into the fortifications of {} ({})",
                force.describe(map, None),
                en_verb(force, "withdraws", "withdraw"),
                sp(at),
                reason.en
            ),
            Event::Captured { leader, by, reason } => {
                format!("{} captured by {by}: {}", ld(leader), reason.en)
            }
            Event::Eliminated {
                power,
                units,
                reason,
            } => format!("{power} {units} eliminated: {}", reason.en),
            Event::SiegeBroken { at, reason } => {
                format!("the siege of {} is broken: {}", sp(at), reason.en)
            }
            Event::NoWithdrawal { reason } => format!("no withdrawal: {}", reason.en),
            Event::SiegeBegan {
                at,
                by,
                besiegers,
                inside,
            } => format!(
                "{} under siege by {by} ({} against {inside} inside)",
                sp(at),
                en_count(*besiegers, "land unit", "land units")
            ),
            Event::BattleDice {
                at,
                attacker,
                attack,
                defenders,
                defence,
            } => format!(
                "field battle in {}: {attacker} attacks with {}; {} {} with {}",
                sp(at),
                dice_text(attack, map, en),
                power_list(defenders, en, Case::Nom),
                if defenders.len() == 1 {
                    "defends"
                } else {
                    "defend"
                },
                dice_text(defence, map, en)
            ),
            Event::Janissaries { hits } => {
                format!(
                    "Ottoman plays Janissaries: 5 more dice, {hits} more {}",
                    if *hits == 1 { "hit" } else { "hits" }
                )
            }
            Event::BattleWon {
                winner,
                attacker_hits,
                defender_hits,
                reason,
            } => format!(
                "{winner} wins the battle, {} to {defender_hits} ({})",
                en_count(*attacker_hits, "hit", "hits"),
                reason.en
            ),
            Event::OddLoss { power, roll } => {
                format!("odd loss to {power} (roll {roll})")
            }
            Event::KeepsOne { power, reason } => {
                format!("{power} keeps 1 unit: {}", reason.en)
            }
            Event::Losses { power, units } => format!("{power} loses {units}"),
            Event::Retreated {
                power,
                force,
                from,
                to,
                reason,
            } => format!(
                "{power} retreats {} from {} to {} ({})",
                force.describe(map, Some(*power)),
                sp(from),
                sp(to),
                reason.en
            ),
            Event::MovesOn { force, at } => format!(
                "{} must move on from {} with the next action (eliminated if forced back into it)",
                force.describe(map, None),
                sp(at)
            ),
            Event::Ended => "the move is over".into(),
        }
    }

    fn russian(&self, map: &Map) -> String {
        let ru = Lang::Ru;
        let sp = |s: &SpaceId| map.space(*s).name.clone();
        let ld = |l: &LeaderId| map.leader(*l).name.clone();
        let nom = |p: &Power| p.ru(Case::Nom);
        match self {
            Event::Declared {
                power,
                force,
                from,
                to,
            } => format!(
                "движение {} из {} в {}: {}",
                power.ru(Case::Gen),
                sp(from),
                sp(to),
                force.describe_in(map, Some(*power), ru)
            ),
            Event::Refused { reasons } => format!(
                "движение отвергнуто: {}",
                reasons
                    .iter()
                    .map(|r| r.describe_in(map, ru))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Event::CpSpent {
                power,
                crossing,
                cost,
                left,
            } => format!(
                "{} {} {cost} КО ({}), осталось КО: {left}",
                nom(power),
                power.ru_verb("тратит", "тратят"),
                match crossing {
                    Crossing::Normal => "обычное соединение",
                    Crossing::Pass => "через горный проход",
                }
            ),
            Event::Answered {
                window,
                power,
                answer,
                source,
            } => format!(
                "окно {window}, {}: {}{}",
                nom(power),
                answer.describe_in(map, ru),
                match source {
                    Source::Letter => "",
                    Source::Standing => " (постоянное указание)",
                    Source::Deadline => " (срок истёк: по умолчанию)",
                }
            ),
            Event::CardPlayed { by, card, effect } => format!(
                "{} {} {card}: {}",
                nom(by),
                by.ru_verb("играет", "играют"),
                effect.ru
            ),
            Event::CardVoid { by, card, reason } => {
                format!("{card} ({}) не действует: {}", nom(by), reason.ru)
            }
            Event::Cancelled { reason } => format!("движение отменено: {}", reason.ru),
            Event::Rolled {
                number,
                purpose,
                values,
            } => format!("бросок {number} ({purpose}): {}", values_text(values)),
            Event::NoInterception {
                power,
                from,
                reason,
            } => match (power, from) {
                (None, _) => format!("перехвата нет: {}", reason.ru),
                (Some(p), None) => format!(
                    "{} не {} перехватывать: {}",
                    nom(p),
                    p.ru_verb("может", "могут"),
                    reason.ru
                ),
                (Some(p), Some(s)) => format!(
                    "{} не {} перехватывать из {}: {}",
                    nom(p),
                    p.ru_verb("может", "могут"),
                    sp(s),
                    reason.ru
                ),
            },
            Event::Interception {
                power,
                from,
                force,
                check,
            } => format!(
                "{} {} перехватить из {} ({}): {}",
                nom(power),
                power.ru_verb("пытается", "пытаются"),
                sp(from),
                force.describe_in(map, Some(*power), ru),
                check.describe_in(ru)
            ),
            Event::Arrived { force, at } => {
                format!("в {} входят: {}", sp(at), force.describe_in(map, None, ru))
            }
            Event::NoAvoid { power, reason } => match power {
                Some(p) => format!(
                    "{} не {} уклониться от сражения: {}",
                    nom(p),
                    p.ru_verb("может", "могут"),
                    reason.ru
                ),
                None => format!("уклонения от сражения нет: {}", reason.ru),
            },
            Event::AvoidBattle {
                power,
                to,
                force,
                check,
            } => format!(
                "{} {} уклониться от сражения, уйдя в {} ({}): {}",
                nom(power),
                power.ru_verb("пытается", "пытаются"),
                sp(to),
                force.describe_in(map, Some(*power), ru),
                match check {
                    Some(c) => c.describe_in(ru),
                    None =>
                        "успех без броска (все части группы проиграли полевое сражение в этот импульс)"
                            .into(),
                }
            ),
            Event::Withdrew { force, at, reason } => format!(
                "в укрепления {} отходят: {} ({})",
                sp(at),
                force.describe_in(map, None, ru),
                reason.ru
            ),
            Event::Captured { leader, by, reason } => format!(
                "{} попадает в плен к {}: {}",
                ld(leader),
                by.ru(Case::Dat),
                reason.ru
            ),
            Event::Eliminated {
                power,
                units,
                reason,
            } => format!(
                "уничтожены части {}: {} ({})",
                power.ru(Case::Gen),
                units.describe_in(ru),
                reason.ru
            ),
            Event::SiegeBroken { at, reason } => {
                format!("осада {} снята: {}", sp(at), reason.ru)
            }
            Event::NoWithdrawal { reason } => {
                format!("отхода в укрепления нет: {}", reason.ru)
            }
            Event::SiegeBegan {
                at,
                by,
                besiegers,
                inside,
            } => format!(
                "{} {} {} ({} против {inside} внутри)",
                nom(by),
                by.ru_verb("осаждает", "осаждают"),
                sp(at),
                count(
                    *besiegers,
                    "сухопутная часть",
                    "сухопутные части",
                    "сухопутных частей"
                )
            ),
            Event::BattleDice {
                at,
                attacker,
                attack,
                defenders,
                defence,
            } => format!(
                "полевое сражение в {}: {} {}: {}; {} {}: {}",
                sp(at),
                nom(attacker),
                attacker.ru_verb("атакует", "атакуют"),
                dice_text(attack, map, ru),
                power_list(defenders, ru, Case::Nom),
                ru_verb_of(defenders, "защищается", "защищаются"),
                dice_text(defence, map, ru)
            ),
            Event::Janissaries { hits } => format!(
                "{} {} Janissaries: ещё 5 костей, ещё {}",
                nom(&Power::Ottoman),
                Power::Ottoman.ru_verb("играет", "играют"),
                count(*hits, "попадание", "попадания", "попаданий")
            ),
            Event::BattleWon {
                winner,
                attacker_hits,
                defender_hits,
                reason,
            } => format!(
                "{} {} в сражении; попадания: у атакующего {attacker_hits}, у защитника {defender_hits} ({})",
                nom(winner),
                winner.ru_verb("побеждает", "побеждают"),
                reason.ru
            ),
            Event::OddLoss { power, roll } => format!(
                "нечётная потеря достаётся {} (на кости выпало {roll})",
                power.ru(Case::Dat)
            ),
            Event::KeepsOne { power, reason } => format!(
                "{} {} 1 часть: {}",
                nom(power),
                power.ru_verb("сохраняет", "сохраняют"),
                reason.ru
            ),
            Event::Losses { power, units } => {
                format!("потери {}: {}", power.ru(Case::Gen), units.describe_in(ru))
            }
            Event::Retreated {
                power,
                force,
                from,
                to,
                reason,
            } => format!(
                "{} {} из {} в {}: {} ({})",
                nom(power),
                power.ru_verb("отступает", "отступают"),
                sp(from),
                sp(to),
                force.describe_in(map, Some(*power), ru),
                reason.ru
            ),
            Event::MovesOn { force, at } => format!(
                "следующим действием должны идти дальше из {}: {} (если их отбросят обратно, они будут уничтожены)",
                sp(at),
                force.describe_in(map, None, ru)
            ),
            Event::Ended => "движение окончено".into(),
        }
    }
}
