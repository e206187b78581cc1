//! Moves, answers and forces as players write them (`MOVE 7 regulars 1 cavalry Suleiman
//! FROM Pressburg TO Vienna`, `INTERCEPT FROM Graz WITH 8 regulars Charles V`, `LOSE 1 cavalry
//! 4 regulars`), and the board and the procedure's state in words (`Message`s, keys
//! `his.parse.*`, `his.space.*`, `his.leader.*`, `his.status.*`). Reading never panics: what
//! cannot be read gives a sentence saying why.

use super::board::{Board, Force, LeaderPlace, UnitKind, Units};
use super::lang::{Case, commas, powers_named};
use super::map::{Map, SpaceId, fold_name};
use super::power::Power;
use super::procedure::{Answer, Finish, MoveRequest, Question, Status};
use super::standing::Instruction;
use crate::message::{Arg, Message};
use crate::msg;

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_string())
        .collect()
}

fn is(word: &str, options: &[&str]) -> bool {
    let w = word.to_lowercase();
    options.contains(&w.as_str())
}

fn kind_word(word: &str) -> Option<UnitKind> {
    match word.to_lowercase().trim_end_matches('.') {
        "regular" | "regulars" | "reg" | "regs" | "r" => Some(UnitKind::Regular),
        "mercenary" | "mercenaries" | "merc" | "mercs" | "m" => Some(UnitKind::Mercenary),
        "cavalry" | "cav" | "c" | "horse" => Some(UnitKind::Cavalry),
        _ => None,
    }
}

/// Reads a space name.
pub fn parse_space(map: &Map, text: &str) -> Result<SpaceId, Message> {
    let t = text.trim();
    map.find_space(t)
        .ok_or_else(|| msg!("his.parse.no_space", space = t))
}

/// Reads units and leaders: `7 regulars 1 cavalry Suleiman Ibrahim`, `2 hungary-bohemia
/// regulars`. Units without a power name belong to `main`.
pub fn parse_force(map: &Map, text: &str, main: Power) -> Result<Force, Message> {
    let w = words(text);
    let mut force = Force::default();
    let mut i = 0;
    while i < w.len() {
        if is(&w[i], &["and", "with", "+"]) {
            i += 1;
            continue;
        }
        if let Ok(n) = w[i].parse::<u32>() {
            let mut j = i + 1;
            let mut power = main;
            if let Some(word) = w.get(j)
                && kind_word(word).is_none()
                && let Some(p) = Power::from_word(word)
            {
                power = p;
                j += 1;
            }
            let Some(kind) = w.get(j).and_then(|k| kind_word(k)) else {
                return Err(msg!("his.parse.kind_expected", n = n));
            };
            let mut u = Units::NONE;
            *u.get_mut(kind) = n;
            force.add(power, u);
            i = j + 1;
            continue;
        }
        // A leader's name, up to three words long, the longest first.
        let mut found = None;
        for len in (1..=3.min(w.len() - i)).rev() {
            let name = w[i..i + len].join(" ");
            if let Some(l) = map.find_leader(&name) {
                found = Some((l, len));
                break;
            }
        }
        match found {
            Some((l, len)) => {
                if !force.leaders.contains(&l) {
                    force.leaders.push(l);
                }
                i += len;
            }
            None => {
                return Err(msg!("his.parse.not_a_force", word = w[i]));
            }
        }
    }
    Ok(force)
}

/// Splits `text` at the first word equal to `keyword` (any case): before and after.
fn split_at<'a>(text: &'a str, keyword: &str) -> Option<(&'a str, &'a str)> {
    let lower = text.to_lowercase();
    let mut start = 0;
    for part in lower.split_inclusive(char::is_whitespace) {
        let word = part.trim();
        if word == keyword {
            let end = start + part.trim_end().len();
            return Some((&text[..start], &text[end..]));
        }
        start += part.len();
    }
    None
}

/// Reads `MOVE <units and leaders> FROM <space> TO <space>` for `power`.
pub fn parse_move(map: &Map, power: Power, text: &str) -> Result<MoveRequest, Message> {
    let t = text.trim();
    let rest = match split_at(t, "move") {
        Some((before, after)) if before.trim().is_empty() => after,
        _ => t,
    };
    let form = || msg!("his.parse.move_form");
    let Some((force_text, places)) = split_at(rest, "from") else {
        return Err(form());
    };
    let Some((from, to)) = split_at(places, "to") else {
        return Err(form());
    };
    Ok(MoveRequest {
        power,
        force: parse_force(map, force_text, power)?,
        from: parse_space(map, from)?,
        to: parse_space(map, to)?,
    })
}

/// Reads `power`'s answer to `question`.
pub fn parse_answer(
    map: &Map,
    power: Power,
    question: &Question,
    text: &str,
) -> Result<Answer, Message> {
    let t = text.trim();
    let folded = fold_name(t);
    let first = words(t)
        .first()
        .map(|w| w.to_lowercase())
        .unwrap_or_default();
    let no = matches!(
        folded.as_str(),
        "no" | "none" | "pass" | "no card" | "nothing"
    );
    match question {
        Question::Response { .. } => {
            if no {
                Ok(Answer::NoCard)
            } else if folded == "foul weather" {
                Ok(Answer::FoulWeather)
            } else if first == "gout" {
                let (_, name) = split_at(t, "gout").unwrap_or(("", ""));
                let name = name.trim();
                let name = split_at(name, "on").map(|(_, n)| n).unwrap_or(name);
                map.find_leader(name.trim())
                    .map(Answer::Gout)
                    .ok_or_else(|| msg!("his.parse.no_leader", leader = name.trim()))
            } else {
                Err(answer(msg!("his.forms.response")))
            }
        }
        Question::Intercept { .. } => {
            if no || folded == "decline" {
                return Ok(Answer::Decline);
            }
            let body = split_at(t, "intercept").map(|(_, a)| a).unwrap_or(t);
            let form = || answer(msg!("his.forms.intercept"));
            let Some((_, rest)) = split_at(body, "from") else {
                return Err(form());
            };
            let Some((space, force)) = split_at(rest, "with") else {
                return Err(form());
            };
            Ok(Answer::Intercept {
                from: parse_space(map, space)?,
                force: parse_force(map, force, power)?,
            })
        }
        Question::AvoidBattle { available, .. } => {
            if no || folded == "stay" {
                return Ok(Answer::Stay);
            }
            let body = split_at(t, "avoid").map(|(_, a)| a).unwrap_or(t);
            let Some((_, rest)) = split_at(body, "to") else {
                return Err(answer(msg!("his.forms.avoid")));
            };
            let (space, force) = match split_at(rest, "with") {
                Some((s, f)) => (s, parse_force(map, f, power)?),
                None => (rest, available.clone()),
            };
            Ok(Answer::Avoid {
                to: parse_space(map, space)?,
                force,
            })
        }
        Question::Withdraw { .. } => match folded.as_str() {
            "withdraw" | "yes" => Ok(Answer::Withdraw),
            "stay" | "no" | "fight" => Ok(Answer::Stay),
            _ => Err(answer(msg!("his.forms.withdraw"))),
        },
        Question::Janissaries { .. } => {
            if no {
                Ok(Answer::NoCard)
            } else if matches!(folded.as_str(), "janissaries" | "play janissaries" | "yes") {
                Ok(Answer::PlayJanissaries)
            } else {
                Err(answer(msg!("his.forms.janissaries")))
            }
        }
        Question::Casualties { .. } => {
            let body = split_at(t, "lose").map(|(_, a)| a).unwrap_or(t);
            Ok(Answer::Losses(parse_force(map, body, power)?))
        }
        Question::WithdrawAfterDefeat { .. } => {
            if no || folded == "stay" {
                return Ok(Answer::Stay);
            }
            let body = split_at(t, "withdraw").map(|(_, a)| a).unwrap_or(t);
            Ok(Answer::WithdrawInside(parse_force(map, body, power)?))
        }
        Question::Retreat { .. } => {
            let body = split_at(t, "retreat").map(|(_, a)| a).unwrap_or(t);
            let body = split_at(body, "to").map(|(_, a)| a).unwrap_or(body);
            Ok(Answer::RetreatTo(parse_space(map, body)?))
        }
        Question::MoveOn { .. } => match folded.as_str() {
            "move on" | "continue" => Ok(Answer::MoveOn),
            "retreat" => Ok(Answer::Retreat),
            _ => Err(answer(msg!("his.forms.move_on"))),
        },
    }
}

/// `answer <form>`: how a window is answered.
fn answer(form: Message) -> Message {
    msg!("his.parse.answer", form = form)
}

/// A space in words (keys `his.space.*`): `Vienna (Hapsburg): Hapsburg 7 regulars, Charles
/// V, Ferdinand`, with what is inside, the siege and unrest; in Russian `Vienna (Габсбурги):
/// Габсбурги — 2 регулярные части, Ferdinand`.
pub fn describe_space(map: &Map, board: &Board, space: SpaceId) -> Message {
    let part = |inside: bool| {
        let mut items = Vec::new();
        for p in board.powers_in(space, inside) {
            let units = board.units(space, p, inside);
            items.push(Arg::Message(msg!(
                "his.space.units",
                power = p.named(Case::Nom),
                units = units.describe()
            )));
        }
        for l in board.leaders_in(space, inside) {
            items.push(Arg::Text(map.leader(l).name.clone()));
        }
        items
    };
    let (outside, inside) = (part(false), part(true));
    let contents = match (outside.is_empty(), inside.is_empty()) {
        (true, true) => msg!("his.space.empty"),
        (false, true) => msg!("his.space.outside", outside = commas(outside)),
        (true, false) => msg!("his.space.inside", inside = commas(inside)),
        (false, false) => msg!(
            "his.space.both",
            outside = commas(outside),
            inside = commas(inside)
        ),
    };
    let siege = match board.siege(space) {
        Some(siege) => Arg::Message(msg!(
            "his.space.besieged",
            powers = powers_named(&siege.besiegers, Case::Nom)
        )),
        None => Arg::Text(String::new()),
    };
    let unrest = match board.in_unrest(space) {
        true => Arg::Message(msg!("his.space.unrest")),
        false => Arg::Text(String::new()),
    };
    msg!(
        "his.space.line",
        space = map.space(space).names(),
        controller = board.controller(space).named(Case::Nom),
        contents = contents,
        siege = siege,
        unrest = unrest
    )
}

/// Where a leader is, in words (keys `his.leader.*`).
pub fn describe_leader(map: &Map, board: &Board, leader: super::map::LeaderId) -> Message {
    let l = board.leader(leader);
    let name = &map.leader(leader).name;
    let power = l.power.named(Case::Nom);
    match l.place {
        LeaderPlace::Space { space, inside } => msg!(
            "his.leader.in_space",
            leader = name,
            power = power,
            space = map.space(space).names(),
            inside = match inside {
                true => Arg::Message(msg!("his.leader.inside")),
                false => Arg::Text(String::new()),
            }
        ),
        LeaderPlace::Captured { by } => msg!(
            "his.leader.captured",
            leader = name,
            power = power,
            by = by.named(Case::Nom),
            by_gen = by.named(Case::Gen)
        ),
        LeaderPlace::Away => msg!("his.leader.away", leader = name, power = power),
    }
}

/// The procedure's state in one line (keys `his.status.*`): the open window and who must
/// answer, the dice awaited (a roll's purpose stays as stated, in English), or how it ended.
pub fn describe_status(map: &Map, status: &Status) -> Message {
    match status {
        Status::Waiting(w) => msg!(
            "his.status.waiting",
            window = w.number,
            powers = commas(w.waiting_for().iter().map(|p| p.named(Case::Nom)).collect()),
            question = w.question.describe(map)
        ),
        Status::Rolling(r) => msg!(
            "his.status.rolling",
            number = r.number,
            dice = r.dice,
            purpose = r.purpose()
        ),
        Status::Finished(Finish::Done) => msg!("his.status.done"),
        Status::Finished(Finish::Refused) => msg!("his.status.refused"),
    }
}

/// Reads a standing instruction: `NO CARDS`, `INTERCEPT FROM Graz [INTO Vienna]`, `NEVER
/// INTERCEPT`, `AVOID TO Linz [AT Vienna]`, `NEVER AVOID`, `WITHDRAW [AT Vienna]`, `NEVER
/// WITHDRAW`, `RETREAT TO Linz [FROM Vienna]`.
pub fn parse_instruction(map: &Map, text: &str) -> Result<Instruction, Message> {
    let t = text.trim();
    let folded = fold_name(t);
    let at = |body: &str, keyword: &str| -> Result<(String, Option<SpaceId>), Message> {
        match split_at(body, keyword) {
            Some((main, place)) => Ok((main.to_string(), Some(parse_space(map, place)?))),
            None => Ok((body.to_string(), None)),
        }
    };
    let after = |keyword: &str| split_at(t, keyword).map(|(_, a)| a.to_string());
    Ok(match folded.as_str() {
        "no cards" | "no card" | "never play cards" => Instruction::NoCards,
        "never intercept" => Instruction::NeverIntercept,
        "never avoid" | "never avoid battle" => Instruction::NeverAvoid,
        "never withdraw" => Instruction::NeverWithdraw,
        _ if folded.starts_with("intercept from ") => {
            let body = after("from").unwrap_or_default();
            let (from, into) = at(&body, "into")?;
            Instruction::Intercept {
                from: parse_space(map, &from)?,
                into,
            }
        }
        _ if folded.starts_with("avoid ") => {
            let body = after("to").unwrap_or_default();
            let (to, place) = at(&body, "at")?;
            Instruction::Avoid {
                at: place,
                to: parse_space(map, &to)?,
            }
        }
        _ if folded.starts_with("withdraw") => {
            let body = after("withdraw").unwrap_or_default();
            let (_, place) = at(&body, "at")?;
            Instruction::Withdraw { at: place }
        }
        _ if folded.starts_with("retreat to ") => {
            let body = after("to").unwrap_or_default();
            let (to, from) = at(&body, "from")?;
            Instruction::Retreat {
                from,
                to: parse_space(map, &to)?,
            }
        }
        _ => {
            return Err(msg!("his.parse.no_instruction", text = t));
        }
    })
}
