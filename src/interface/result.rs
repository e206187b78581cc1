//! One case of `strategos adjudicate` adjudicated into its result (`run_case`), the result's
//! entries as they are written back, and what a run of the command is given (`Options`) and
//! comes to (`Summary`, `StreamError`). The reading of the stream and the threads are
//! `adjudicate.rs` and `workers.rs`, over this.

use super::case::{CaseInput, Given};
use super::reading::{read_orders, read_position, read_rules, read_turn};
use crate::diplomacy::adjudicate::{Outcome, Submitted, adjudicate};
use crate::diplomacy::credit::{self, Lapse};
use crate::diplomacy::map::Map;
use crate::diplomacy::position::{Credit, Position};
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::{advance, survivors};
use crate::diplomacy::rules::Rules;
use crate::diplomacy::turn::PhaseKind;
use crate::text::lexicon::Lexicon;
use crate::text::order::OrderReader;
use crate::variant::Variants;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Value, json};
use std::borrow::Cow;

/// What the command-line adds to every case.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Edition for cases that name none (`--rules`); else the variant's default.
    pub rules: Option<Rules>,
    /// Threads adjudicating cases side by side (`--threads`), the calling thread one of
    /// them; 0: one for each of the machine's cores. The results are the same, in the same
    /// order, whatever the number.
    pub threads: usize,
}

/// What `run_stream` did.
#[derive(Debug)]
pub struct Summary {
    /// Results written.
    pub cases: usize,
    /// Some case had an `error`.
    pub any_error: bool,
}

/// Why `run_stream` stopped before the end of its input.
#[derive(Debug)]
pub enum StreamError {
    /// The input could not be read.
    Read(std::io::Error),
    /// The input is not JSON; the results of the cases before the problem are written (and the
    /// list closed) when `cases` > 0.
    NotJson { message: String, cases: usize },
    /// The results could not be written.
    Write(std::io::Error),
}

/// The most threads `run_stream` uses, whatever the machine.
pub(super) const MOST_THREADS: usize = 16;

/// One entry of the output: `{"id": ..., "result": {...}}` or `{"id": ..., "error": "..."}`.
pub(super) struct Entry<'c, 'm> {
    pub(super) id: Cow<'c, Value>,
    pub(super) outcome: Result<CaseResult<'c, 'm>, String>,
}

impl Entry<'_, '_> {
    /// The case gave an `error`.
    pub(super) fn is_error(&self) -> bool {
        self.outcome.is_err()
    }
}

impl Serialize for Entry<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("id", &*self.id)?;
        match &self.outcome {
            Ok(result) => map.serialize_entry("result", result)?,
            Err(message) => map.serialize_entry("error", message)?,
        }
        map.end()
    }
}

/// What a case came to (`docs/adjudicate-json.md`, "Output: a result").
#[derive(Serialize)]
pub(super) struct CaseResult<'c, 'm> {
    pub(super) orders: Vec<OrderResult<'c, 'm>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) dislodged: Option<Vec<&'m str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) retreats: Option<Keyed<&'m str, Vec<&'m str>>>,
    pub(super) positions_after: Vec<UnitResult<'m>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) destroyed_after: Option<Vec<&'m str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) adjustments: Option<Keyed<&'m str, i32>>,
    /// Diadochi V: the credit commands carried out before the phase, with their results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) credit_orders: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) credits: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) credits_lapsed: Option<Value>,
    /// Powers still in the game after the phase.
    pub(super) survivors: Vec<&'m str>,
    /// What the end of the year brought (`null` when the phase does not end a year).
    pub(super) year_end: Option<Value>,
}

#[derive(Serialize)]
pub(super) struct OrderResult<'c, 'm> {
    pub(super) power: &'m str,
    /// The order text exactly as given.
    pub(super) order: &'c str,
    pub(super) result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) message: Option<Cow<'static, str>>,
}

#[derive(Serialize)]
pub(super) struct UnitResult<'m> {
    pub(super) power: &'m str,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) at: &'m str,
}

/// A JSON object written from pairs, in their order.
pub(super) struct Keyed<K, V>(pub(super) Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Keyed<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

pub(super) fn run_case<'c, 'm>(
    case: &'c Given<CaseInput<'c>>,
    variants: &'m (impl Variants + ?Sized),
    options: &Options,
    reader: &mut OrderReader,
) -> Entry<'c, 'm> {
    let Given::Is(case) = case else {
        return Entry {
            id: Cow::Owned(Value::Null),
            outcome: Err("a case must be a JSON object".into()),
        };
    };
    Entry {
        id: case
            .id
            .as_ref()
            .map_or(Cow::Owned(Value::Null), Cow::Borrowed),
        outcome: adjudicate_case(case, variants, options, reader),
    }
}

fn adjudicate_case<'c, 'm>(
    case: &'c CaseInput<'c>,
    variants: &'m (impl Variants + ?Sized),
    options: &Options,
    reader: &mut OrderReader,
) -> Result<CaseResult<'c, 'm>, String> {
    let variant_id = match &case.variant {
        Given::Absent | Given::Null => "standard",
        Given::Is(s) => s.as_ref(),
        Given::Wrong => return Err("'variant' must be a string".into()),
    };
    let variant = variants
        .find(variant_id)
        .ok_or_else(|| format!("unknown variant '{variant_id}'"))?;
    let map = &variant.map;
    let lexicon = variant.lexicon();
    let rules = match &case.rules {
        None => options.rules.as_ref().unwrap_or(&variant.rules).clone(),
        Some(value) => {
            let default = options.rules.as_ref().unwrap_or(&variant.rules);
            read_rules(value, default.clone())?
        }
    };
    let turn = read_turn(&case.phase)?;
    let mut position = read_position(case, variant, lexicon, turn)?;
    let credit_results = run_credit_orders(
        case.credit_orders.as_ref(),
        map,
        lexicon,
        &rules,
        &mut position,
    )?;
    let orders = read_orders(&case.orders, variant, turn.kind, reader)?;
    let submitted: Vec<Submitted> = orders
        .iter()
        .filter_map(|o| {
            o.order.clone().map(|order| Submitted {
                power: o.power,
                order,
            })
        })
        .collect();
    let resolution = adjudicate(map, &rules, &position, &submitted);
    let mut outcomes = resolution.outcomes.iter();
    let orders_out = orders
        .into_iter()
        .map(|o| {
            let power = map.power(o.power).id.as_str();
            match o.order {
                Some(_) => {
                    let outcome = outcomes.next().expect("one outcome per order");
                    let message = match outcome {
                        Outcome::Illegal(why) => Some(Cow::Borrowed(why.explain())),
                        _ => None,
                    };
                    OrderResult {
                        power,
                        order: o.text,
                        result: outcome.result_word(),
                        reason: outcome.reason_word(),
                        message,
                    }
                }
                None => OrderResult {
                    power,
                    order: o.text,
                    result: "illegal",
                    reason: Some("unreadable"),
                    message: Some(Cow::Owned(o.problem)),
                },
            }
        })
        .collect();
    let region = |r| lexicon.region_id(r);
    let (dislodged, retreats) = if turn.kind == PhaseKind::Movement {
        let dislodged = resolution
            .dislodged
            .iter()
            .map(|d| region(d.dislodgement.unit.region))
            .collect();
        let retreats = resolution
            .dislodged
            .iter()
            .map(|d| {
                let options = d.retreats.iter().map(|r| region(*r)).collect();
                (region(d.dislodgement.unit.region), options)
            })
            .collect();
        (Some(dislodged), Some(Keyed(retreats)))
    } else {
        (None, None)
    };
    let positions_after = resolution
        .after
        .units
        .iter()
        .map(|u| UnitResult {
            power: map.power(u.power).id.as_str(),
            kind: u.kind.word(),
            at: region(u.region),
        })
        .collect();
    let destroyed_after = rules.destroy_and_restore.then(|| {
        resolution
            .after
            .destroyed
            .iter()
            .map(|p| map.province(*p).id.as_str())
            .collect()
    });
    let adjustments = (turn.kind == PhaseKind::Adjustment).then(|| {
        let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, &position);
        Keyed(
            map.powers
                .iter()
                .zip(owed)
                .filter(|(_, n)| *n != 0)
                .map(|(p, n)| (p.id.as_str(), n))
                .collect(),
        )
    });
    let credit_orders = (!credit_results.is_empty()).then_some(credit_results);
    let (credits, credits_lapsed) = if rules.supply_credit && turn.kind == PhaseKind::Adjustment {
        let ledger = credit::ledger(map, &position);
        (
            Some(credits_json(map, &ledger.in_force)),
            Some(lapses_json(map, &ledger.lapsed)),
        )
    } else {
        (None, None)
    };
    let progress = advance(
        map,
        &variant.calendar,
        &variant.victory(),
        &position,
        &resolution,
    );
    let powers = |list: &[PowerId]| -> Value {
        Value::Array(list.iter().map(|p| json!(map.power(*p).id)).collect())
    };
    let survivors = survivors(map, &progress.next)
        .iter()
        .map(|p| map.power(*p).id.as_str())
        .collect();
    let year_end = progress.year_end.as_ref().map(|year| {
        let by_power = |f: &dyn Fn(usize) -> u32| -> Value {
            Value::Object(
                map.powers
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.id.clone(), json!(f(i))))
                    .collect(),
            )
        };
        let standing = &year.standing;
        json!({
            "supply": by_power(&|i| standing.tallies[i].supply),
            "centres": by_power(&|i| standing.tallies[i].centres),
            "winner": standing.winner.map(|p| map.power(p).id.clone()),
            "eliminated": powers(&standing.eliminated),
            "credits": credits_json(map, &year.board.credits),
            "credits_lapsed": lapses_json(map, &year.lapsed),
        })
    });
    Ok(CaseResult {
        orders: orders_out,
        dislodged,
        retreats,
        positions_after,
        destroyed_after,
        adjustments,
        credit_orders,
        credits,
        credits_lapsed,
        survivors,
        year_end,
    })
}

fn credits_json(map: &Map, credits: &[Credit]) -> Value {
    Value::Array(
        credits
            .iter()
            .map(|c| {
                json!({"lender": map.power(c.lender).id, "borrower": map.power(c.borrower).id,
                    "amount": c.amount})
            })
            .collect(),
    )
}

fn lapses_json(map: &Map, lapsed: &[Lapse]) -> Value {
    Value::Array(
        lapsed
            .iter()
            .map(|l| {
                json!({"lender": map.power(l.lender).id, "borrower": map.power(l.borrower).id,
                    "amount": l.amount, "reason": l.reason.word()})
            })
            .collect(),
    )
}

/// Diadochi V's credit commands, carried out in order on the position before the phase is
/// adjudicated (as the judge carries them out when they arrive): `{"power": "syria",
/// "action": "pass", "amount": 1, "to": "macedonia"}`, with `grant`, `pass`, `end` or
/// `ask`. Each comes back with `result` (`succeeds` or `refused`) and a `reason` word.
pub(super) fn run_credit_orders(
    value: Option<&Value>,
    map: &Map,
    lexicon: &Lexicon,
    rules: &Rules,
    position: &mut Position,
) -> Result<Vec<Value>, String> {
    let orders: &[Value] = match value {
        None | Some(Value::Null) => &[],
        Some(Value::Array(items)) => items,
        Some(_) => return Err("'credit_orders' must be a list".into()),
    };
    let mut out = Vec::new();
    for (i, c) in orders.iter().enumerate() {
        let what = format!("credit_orders[{i}]");
        let power_named = |field: &str| {
            let name = c
                .get(field)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{what}: '{field}' must be a string"))?;
            lexicon
                .power_by_id(name)
                .ok_or_else(|| format!("{what}: unknown power '{name}'"))
        };
        let power = power_named("power")?;
        let other = power_named("to")?;
        let amount = c
            .get("amount")
            .and_then(Value::as_u64)
            .unwrap_or(0)
            .min(1000) as u32;
        let action = c.get("action").and_then(Value::as_str).unwrap_or("");
        let done = match action {
            "grant" => credit::grant(map, rules, position, power, other, amount),
            "pass" => credit::pass(map, rules, position, power, other, amount),
            "end" => credit::end(rules, position, power, other).map(|_| ()),
            "ask" => credit::ask(map, rules, position, power, other, amount),
            _ => return Err(format!("{what}: 'action' must be grant, pass, end or ask")),
        };
        let mut entry = c.as_object().cloned().unwrap_or_default();
        match done {
            Ok(()) => {
                entry.insert("result".into(), json!("succeeds"));
            }
            Err(why) => {
                entry.insert("result".into(), json!("refused"));
                entry.insert("reason".into(), json!(why.word()));
            }
        }
        out.push(Value::Object(entry));
    }
    Ok(out)
}
