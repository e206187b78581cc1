//! Moves, answers and forces as players write them (`MOVE 7 regulars 1 cavalry Suleiman
//! FROM Pressburg TO Vienna`, `INTERCEPT FROM Graz WITH 8 regulars Charles V`, `LOSE 1 cavalry
//! 4 regulars`), and the board and the procedure's state in words. Reading never panics: what
//! cannot be read gives a sentence saying why, in English and Russian.

use super::board::{Board, Force, LeaderPlace, UnitKind, Units};
use super::lang::{Case, Lang, Phrase};
use super::map::{Map, SpaceId, fold_name};
use super::power::Power;
use super::procedure::{Answer, Finish, MoveRequest, Question, Status};
use super::standing::Instruction;

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
pub fn parse_space(map: &Map, text: &str) -> Result<SpaceId, Phrase> {
    let t = text.trim();
    map.find_space(t).ok_or_else(|| {
        Phrase::new(
            format!("no space is called `{t}`"),
            format!("области `{t}` нет"),
        )
    })
}

/// Reads units and leaders: `7 regulars 1 cavalry Suleiman Ibrahim`, `2 hungary-bohemia
/// regulars`. Units without a power name belong to `main`.
pub fn parse_force(map: &Map, text: &str, main: Power) -> Result<Force, Phrase> {
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
                return Err(Phrase::new(
                    format!("`{n}` must be followed by regulars, mercenaries or cavalry"),
                    format!("после `{n}` должно стоять regulars, mercenaries или cavalry"),
                ));
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
                return Err(Phrase::new(
                    format!("`{}` is neither a number of units nor a leader", w[i]),
                    format!("`{}` — не число частей и не полководец", w[i]),
                ));
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
pub fn parse_move(map: &Map, power: Power, text: &str) -> Result<MoveRequest, Phrase> {
    let t = text.trim();
    let rest = match split_at(t, "move") {
        Some((before, after)) if before.trim().is_empty() => after,
        _ => t,
    };
    let form = || {
        Phrase::new(
            "write MOVE <units and leaders> FROM <space> TO <space>",
            "пишите MOVE <части и полководцы> FROM <область> TO <область>",
        )
    };
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
) -> Result<Answer, Phrase> {
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
                    .ok_or_else(|| {
                        Phrase::new(
                            format!("no leader is called `{}`", name.trim()),
                            format!("полководца `{}` нет", name.trim()),
                        )
                    })
            } else {
                Err(answer(
                    "NO CARD, FOUL WEATHER or GOUT <leader>",
                    "NO CARD, FOUL WEATHER или GOUT <полководец>",
                ))
            }
        }
        Question::Intercept { .. } => {
            if no || folded == "decline" {
                return Ok(Answer::Decline);
            }
            let body = split_at(t, "intercept").map(|(_, a)| a).unwrap_or(t);
            let form = || {
                answer(
                    "INTERCEPT FROM <space> WITH <units and leaders>, or DECLINE",
                    "INTERCEPT FROM <область> WITH <части и полководцы> или DECLINE",
                )
            };
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
                return Err(answer(
                    "AVOID TO <space> [WITH <units and leaders>], or STAY",
                    "AVOID TO <область> [WITH <части и полководцы>] или STAY",
                ));
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
            _ => Err(answer("WITHDRAW or STAY", "WITHDRAW или STAY")),
        },
        Question::Janissaries { .. } => {
            if no {
                Ok(Answer::NoCard)
            } else if matches!(folded.as_str(), "janissaries" | "play janissaries" | "yes") {
                Ok(Answer::PlayJanissaries)
            } else {
                Err(answer("JANISSARIES or NO CARD", "JANISSARIES или NO CARD"))
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
            _ => Err(answer("MOVE ON or RETREAT", "MOVE ON или RETREAT")),
        },
    }
}

/// `answer <form>`: how a window is answered.
fn answer(en: &str, ru: &str) -> Phrase {
    Phrase::new(format!("answer {en}"), format!("ответьте {ru}"))
}

/// A space in words: `Vienna (Hapsburg): Hapsburg 7 regulars, Charles V, Ferdinand`, with what
/// is inside, the siege and unrest.
pub fn describe_space(map: &Map, board: &Board, space: SpaceId) -> String {
    describe_space_in(map, board, space, Lang::En)
}

/// A space in `lang`: `Vienna (Габсбурги): Габсбурги — 2 регулярные части, Ferdinand`.
pub fn describe_space_in(map: &Map, board: &Board, space: SpaceId, lang: Lang) -> String {
    let s = map.space(space);
    let mut out = format!("{} ({})", s.name, board.controller(space).name_in(lang));
    let part = |inside: bool| {
        let mut items = Vec::new();
        for p in board.powers_in(space, inside) {
            let units = board.units(space, p, inside).describe_in(lang);
            items.push(match lang {
                Lang::En => format!("{} {units}", p.name()),
                Lang::Ru => format!("{} — {units}", p.ru(Case::Nom)),
            });
        }
        for l in board.leaders_in(space, inside) {
            items.push(map.leader(l).name.clone());
        }
        items.join(", ")
    };
    let outside = part(false);
    let inside = part(true);
    out.push(':');
    if outside.is_empty() && inside.is_empty() {
        out.push_str(match lang {
            Lang::En => " empty",
            Lang::Ru => " пусто",
        });
    }
    if !outside.is_empty() {
        out.push(' ');
        out.push_str(&outside);
    }
    if !inside.is_empty() {
        out.push_str(if outside.is_empty() { " " } else { "; " });
        out.push_str(match lang {
            Lang::En => "inside ",
            Lang::Ru => "в укреплениях: ",
        });
        out.push_str(&inside);
    }
    if let Some(siege) = board.siege(space) {
        let by = super::lang::power_list(&siege.besiegers, lang, Case::Nom);
        out.push_str(&match lang {
            Lang::En => format!("; besieged by {by}"),
            Lang::Ru => format!("; осада: {by}"),
        });
    }
    if board.in_unrest(space) {
        out.push_str(match lang {
            Lang::En => "; unrest",
            Lang::Ru => "; беспорядки",
        });
    }
    out
}

/// Where a leader is, in words.
pub fn describe_leader(map: &Map, board: &Board, leader: super::map::LeaderId) -> String {
    describe_leader_in(map, board, leader, Lang::En)
}

/// Where a leader is, in `lang`.
pub fn describe_leader_in(
    map: &Map,
    board: &Board,
    leader: super::map::LeaderId,
    lang: Lang,
) -> String {
    let l = board.leader(leader);
    let name = &map.leader(leader).name;
    let power = l.power.name_in(lang);
    match (lang, l.place) {
        (Lang::En, LeaderPlace::Space { space, inside }) => format!(
            "{name} ({power}) in {}{}",
            map.space(space).name,
            if inside { ", inside" } else { "" }
        ),
        (Lang::Ru, LeaderPlace::Space { space, inside }) => format!(
            "{name} ({power}) в {}{}",
            map.space(space).name,
            if inside {
                ", в укреплениях"
            } else {
                ""
            }
        ),
        (Lang::En, LeaderPlace::Captured { by }) => format!("{name} ({power}) captured by {by}"),
        (Lang::Ru, LeaderPlace::Captured { by }) => {
            format!("{name} ({power}) в плену у {}", by.ru(Case::Gen))
        }
        (Lang::En, LeaderPlace::Away) => format!("{name} ({power}) not on the map"),
        (Lang::Ru, LeaderPlace::Away) => format!("{name} ({power}) не на карте"),
    }
}

/// The procedure's state in one line: the open window and who must answer, the dice awaited,
/// or how it ended.
pub fn describe_status(map: &Map, status: &Status) -> String {
    describe_status_in(map, status, Lang::En)
}

/// The procedure's state in `lang` (a roll's purpose stays as stated, in English).
pub fn describe_status_in(map: &Map, status: &Status, lang: Lang) -> String {
    match (lang, status) {
        (_, Status::Waiting(w)) => {
            let who: Vec<&str> = w.waiting_for().iter().map(|p| p.name_in(lang)).collect();
            let question = w.question.describe_in(map, lang);
            match lang {
                Lang::En => format!("window {} awaits {}: {question}", w.number, who.join(", ")),
                Lang::Ru => format!(
                    "окно {} ждёт ответа: {}; {question}",
                    w.number,
                    who.join(", ")
                ),
            }
        }
        (Lang::En, Status::Rolling(r)) => {
            format!("roll {} awaits {}: {}", r.number, r.dice, r.purpose())
        }
        (Lang::Ru, Status::Rolling(r)) => format!(
            "бросок {} ждёт костей ({}): {}",
            r.number,
            r.dice,
            r.purpose()
        ),
        (Lang::En, Status::Finished(f)) => format!("finished: {f:?}").to_lowercase(),
        (Lang::Ru, Status::Finished(Finish::Done)) => "окончено: выполнено".into(),
        (Lang::Ru, Status::Finished(Finish::Refused)) => "окончено: отвергнуто".into(),
    }
}

/// Reads a standing instruction: `NO CARDS`, `INTERCEPT FROM Graz [INTO Vienna]`, `NEVER
/// INTERCEPT`, `AVOID TO Linz [AT Vienna]`, `NEVER AVOID`, `WITHDRAW [AT Vienna]`, `NEVER
/// WITHDRAW`, `RETREAT TO Linz [FROM Vienna]`.
pub fn parse_instruction(map: &Map, text: &str) -> Result<Instruction, Phrase> {
    let t = text.trim();
    let folded = fold_name(t);
    let at = |body: &str, keyword: &str| -> Result<(String, Option<SpaceId>), Phrase> {
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
            return Err(Phrase::new(
                format!("`{t}` is no standing instruction"),
                format!("`{t}` — не постоянное указание"),
            ));
        }
    })
}
