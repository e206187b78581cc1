//! Conditional orders for a later phase (NJ:syntax, "CONDITIONAL ORDERS"): after `PHASE`, order
//! lines may stand in `IF condition [THEN]` ... `ELSE IF condition [THEN]` ... `ELSE` ...
//! `ENDIF` blocks (ENDIF optional at the end). A condition is `[NOT] [power] [type] province`
//! (power, type and province in any order; the power by its name, adjective, or two letters
//! or more of either), true when such a unit stands in the province at the start of the phase;
//! conditions combine with `AND` and `OR`, left to right, and parentheses.
//!
//! `select` keeps the order lines of the branches taken on a board (every other line made
//! blank, so line numbers stay); without a board it only checks the conditions' words. Never
//! fails: a bad line is a diagnostic.

use crate::diplomacy::map::{Map, NameTarget, ProvinceId};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::unit::UnitKind;
use crate::variant::Variant;

use super::names::lookup;
use super::{Diagnostic, Severity};

/// What a line of conditional text is.
enum Line<'a> {
    If(&'a str),
    ElseIf(&'a str),
    Else,
    EndIf,
    Order,
}

fn classify(line: &str) -> Line<'_> {
    let trimmed = line.trim();
    let upper = trimmed.to_ascii_uppercase();
    let rest = |n: usize| trimmed[n..].trim();
    if upper == "ENDIF" || upper == "END IF" {
        Line::EndIf
    } else if upper == "ELSE" {
        Line::Else
    } else if let Some(tail) = upper.strip_prefix("ELSE IF ") {
        Line::ElseIf(rest(upper.len() - tail.len()))
    } else if let Some(tail) = upper.strip_prefix("ELSEIF ") {
        Line::ElseIf(rest(upper.len() - tail.len()))
    } else if let Some(tail) = upper.strip_prefix("IF ") {
        Line::If(rest(upper.len() - tail.len()))
    } else {
        Line::Order
    }
}

/// Whether the text holds a line of a conditional block (IF, ELSE, ENDIF).
pub fn has_conditions(text: &str) -> bool {
    text.lines()
        .any(|line| !matches!(classify(line), Line::Order))
}

/// One open IF block.
struct Block {
    /// The lines of the block's enclosing branch are taken.
    outer: bool,
    /// A branch of this block was taken already.
    taken: bool,
    /// The lines of the current branch are taken.
    now: bool,
    /// ELSE was seen.
    closed: bool,
}

/// The order lines of `text` that the board selects, as text with the other lines blank, and
/// what was wrong. With no board, every branch is kept (to check all the orders' words).
pub fn select(
    variant: &Variant,
    board: Option<&Position>,
    text: &str,
) -> (String, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut diagnostics = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let taking = |blocks: &[Block]| blocks.last().is_none_or(|b| b.now);
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let mut fail = |message: String| {
            diagnostics.push(Diagnostic::english(number, 1, Severity::Error, message))
        };
        let kept = match classify(line) {
            Line::Order => taking(&blocks).then_some(line),
            Line::If(condition) => {
                let outer = taking(&blocks);
                let holds = match evaluate(variant, board, condition) {
                    Ok(holds) => holds || board.is_none(),
                    Err(why) => {
                        fail(why.to_string());
                        false
                    }
                };
                blocks.push(Block {
                    outer,
                    taken: holds,
                    now: outer && holds,
                    closed: false,
                });
                None
            }
            Line::ElseIf(condition) => {
                let holds = evaluate(variant, board, condition);
                match (blocks.last_mut(), holds) {
                    (Some(block), _) if block.closed => {
                        fail("ELSE IF after ELSE: close the block with ENDIF first".into())
                    }
                    (Some(block), Ok(holds)) => {
                        let holds = holds || board.is_none();
                        block.now = block.outer && (board.is_none() || !block.taken) && holds;
                        block.taken |= holds;
                    }
                    (Some(block), Err(why)) => {
                        block.now = false;
                        fail(why.to_string());
                    }
                    (None, _) => fail("ELSE IF without IF before it".into()),
                }
                None
            }
            Line::Else => {
                match blocks.last_mut() {
                    Some(block) if !block.closed => {
                        block.now = block.outer && (board.is_none() || !block.taken);
                        block.closed = true;
                    }
                    Some(_) => fail("a second ELSE in one IF block".into()),
                    None => fail("ELSE without IF before it".into()),
                }
                None
            }
            Line::EndIf => {
                if blocks.pop().is_none() {
                    fail("ENDIF without IF before it".into());
                }
                None
            }
        };
        out.push(kept.unwrap_or(""));
    }
    (out.join("\n"), diagnostics)
}

/// A condition's words and parentheses.
fn tokens(condition: &str) -> Vec<String> {
    let spaced = condition.replace('(', " ( ").replace(')', " ) ");
    let mut words: Vec<String> = spaced.split_whitespace().map(str::to_string).collect();
    if words.last().is_some_and(|w| w.eq_ignore_ascii_case("then")) {
        words.pop();
    }
    words
}

/// Why an IF condition cannot be read; its `Display` says so to the writer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ConditionError {
    Missing,
    OutOfPlace(String),
    EndsTooSoon,
    Unclosed,
    NoProvince(String),
}

impl std::fmt::Display for ConditionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConditionError::Missing => {
                f.write_str("IF needs a condition, like: IF NOT French Army Ruhr")
            }
            ConditionError::OutOfPlace(word) => {
                write!(f, "'{word}' is out of place in the condition")
            }
            ConditionError::EndsTooSoon => f.write_str("the condition ends too soon"),
            ConditionError::Unclosed => f.write_str("a '(' in the condition is not closed"),
            ConditionError::NoProvince(words) => write!(
                f,
                "'{words}' names no province in the condition: write [power] [type] province, like: IF NOT French Army Ruhr"
            ),
        }
    }
}

/// Whether the condition holds on the board (`false` when there is none); its words read.
fn evaluate(
    variant: &Variant,
    board: Option<&Position>,
    condition: &str,
) -> Result<bool, ConditionError> {
    let words = tokens(condition);
    if words.is_empty() {
        return Err(ConditionError::Missing);
    }
    let mut at = 0;
    let value = expression(variant, board, &words, &mut at)?;
    match words.get(at) {
        None => Ok(value),
        Some(word) => Err(ConditionError::OutOfPlace(shown(word))),
    }
}

fn is_word(word: &str, keyword: &str) -> bool {
    word.eq_ignore_ascii_case(keyword)
}

/// `term ((AND|OR) term)*`, left to right.
fn expression(
    variant: &Variant,
    board: Option<&Position>,
    words: &[String],
    at: &mut usize,
) -> Result<bool, ConditionError> {
    let mut value = term(variant, board, words, at)?;
    while let Some(word) = words.get(*at) {
        let and = is_word(word, "and");
        if !and && !is_word(word, "or") {
            break;
        }
        *at += 1;
        let next = term(variant, board, words, at)?;
        value = if and { value && next } else { value || next };
    }
    Ok(value)
}

/// `NOT term`, `( expression )` or a unit's description.
fn term(
    variant: &Variant,
    board: Option<&Position>,
    words: &[String],
    at: &mut usize,
) -> Result<bool, ConditionError> {
    match words.get(*at).map(String::as_str) {
        None => Err(ConditionError::EndsTooSoon),
        Some(word) if is_word(word, "not") => {
            *at += 1;
            term(variant, board, words, at).map(|v| !v)
        }
        Some("(") => {
            *at += 1;
            let value = expression(variant, board, words, at)?;
            if words.get(*at).map(String::as_str) != Some(")") {
                return Err(ConditionError::Unclosed);
            }
            *at += 1;
            Ok(value)
        }
        Some(_) => {
            let end = words[*at..]
                .iter()
                .position(|w| {
                    w == "("
                        || w == ")"
                        || is_word(w, "and")
                        || is_word(w, "or")
                        || is_word(w, "not")
                })
                .map_or(words.len(), |n| *at + n);
            let unit = describe(variant, &words[*at..end])?;
            *at = end;
            Ok(board.is_some_and(|b| unit.stands(&variant.map, b)))
        }
    }
}

/// A unit a condition asks about.
struct Wanted {
    power: Option<PowerId>,
    kind: Option<UnitKind>,
    province: ProvinceId,
}

impl Wanted {
    fn stands(&self, map: &Map, board: &Position) -> bool {
        board.units.iter().any(|u| {
            map.province_of(u.region) == self.province
                && self.power.is_none_or(|p| p == u.power)
                && self.kind.is_none_or(|k| k == u.kind)
        })
    }
}

fn unit_kind(word: &str) -> Option<UnitKind> {
    match word.to_ascii_lowercase().as_str() {
        "a" | "army" => Some(UnitKind::Army),
        "f" | "fleet" => Some(UnitKind::Fleet),
        _ => None,
    }
}

/// The power a word names: its id, name or adjective, or two letters or more of them.
fn power(map: &Map, word: &str) -> Option<PowerId> {
    let word = word.to_lowercase();
    if word.chars().count() < 2 {
        return None;
    }
    let found: Vec<usize> = map
        .powers
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            [&p.id, &p.name, &p.adjective]
                .into_iter()
                .chain(&p.ru)
                .any(|n| {
                    let n = n.to_lowercase();
                    n == word || n.starts_with(&word)
                })
        })
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [one] => Some(PowerId(*one as u8)),
        _ => None,
    }
}

fn province(variant: &Variant, words: &[&str]) -> Option<ProvinceId> {
    match lookup(variant, &words.join(" "))? {
        NameTarget::Province(p) => Some(p),
        NameTarget::Region(r) => Some(variant.map.province_of(r)),
    }
}

/// `[power] [type] province`, in any order.
fn describe(variant: &Variant, words: &[String]) -> Result<Wanted, ConditionError> {
    let mut kind = None;
    let mut rest: Vec<&str> = Vec::new();
    for word in words {
        match unit_kind(word) {
            Some(k) if kind.is_none() => kind = Some(k),
            _ => rest.push(word),
        }
    }
    // A word naming a power, if the others then name a province; else all name the province.
    for (i, word) in rest.iter().enumerate() {
        if let Some(p) = power(&variant.map, word) {
            let others: Vec<&str> = rest
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, w)| *w)
                .collect();
            if !others.is_empty()
                && let Some(province) = province(variant, &others)
            {
                return Ok(Wanted {
                    power: Some(p),
                    kind,
                    province,
                });
            }
        }
    }
    match province(variant, &rest) {
        Some(province) if !rest.is_empty() => Ok(Wanted {
            power: None,
            kind,
            province,
        }),
        _ => Err(ConditionError::NoProvince(shown(&words.join(" ")))),
    }
}

fn shown(text: &str) -> String {
    text.chars().take(30).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::embedded;

    fn standard() -> crate::variant::Variant {
        embedded()
            .unwrap()
            .into_iter()
            .find(|v| v.id == "standard")
            .unwrap()
    }

    #[test]
    fn njudge_s_example_picks_the_branch_the_board_calls_for() {
        let variant = standard();
        let board = &variant.start;
        let text = "IF NOT French Army Ruhr AND (Russian Prussia OR Russian Silesia)\n\
                    A Kie - Ber\n\
                    ELSE\n\
                    A Kie - Ruh\n\
                    ENDIF";
        // At the start no French army stands in Ruhr and no Russian unit in Prussia or Silesia.
        let (kept, problems) = select(&variant, Some(board), text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(kept, "\n\n\nA Kie - Ruh\n");
        let text = "IF Russian Army Moscow THEN\nA Mun H\nELSE IF German Fleet Kiel\nA Mun - Bur\nELSE\nA Mun - Ruh";
        let (kept, _) = select(&variant, Some(board), text);
        assert_eq!(kept, "\nA Mun H\n\n\n\n");
        let text = "IF NOT Mos\nA Mun H\nELSE IF Ge F kie\nA Mun - Bur";
        let (kept, _) = select(&variant, Some(board), text);
        assert_eq!(kept, "\n\n\nA Mun - Bur");
    }

    #[test]
    fn without_a_board_every_branch_is_kept_and_bad_conditions_are_told() {
        let variant = standard();
        let text = "IF Ruhr\nA Mun H\nELSE\nA Mun - Ruh\nENDIF";
        let (kept, problems) = select(&variant, None, text);
        assert!(problems.is_empty());
        assert_eq!(kept, "\nA Mun H\n\nA Mun - Ruh\n");
        let (_, problems) = select(
            &variant,
            None,
            "IF French Atlantis\nA Mun H\nELSE\nELSE\nENDIF\nENDIF",
        );
        let lines: Vec<usize> = problems.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![1, 4, 6], "{problems:?}");
        assert!(has_conditions("A Mun H\nif Ruhr"));
        assert!(!has_conditions("A Mun H"));
    }
}
