//! `strategos adjudicate`: cases in JSON (`docs/adjudicate-json.md`), results in JSON.
//!
//! A case that cannot be read gives an `error` entry for that case alone; orders that
//! cannot be read are player mistakes and come back `illegal` with a message.
//!
//! `run_stream` reads the cases one at a time from the input and writes each result as it
//! goes (`stream.rs`), each case read into typed fields (`case.rs`) rather than a tree of
//! values, on as many threads as the machine has cores (`workers.rs`); `run` does the same for a document already read into a `serde_json::Value`.

use std::borrow::Cow;
use std::io::{Read, Write};

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Value, json};

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
use crate::variant::{Variant, Variants};

use super::case::{self, CaseInput, Given};
use super::reading::{read_orders, read_position, read_rules, read_turn};
use super::stream::{CaseReader, InputError, Next, ResultWriter};

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

/// Results of a whole input document, and whether any case had an error.
pub struct Report {
    pub results: Value,
    pub any_error: bool,
}

/// Adjudicates one case object or a list of them, already read.
pub fn run(input: &Value, variants: &(impl Variants + ?Sized), options: &Options) -> Report {
    let cases: Vec<&Value> = match input {
        Value::Array(list) => list.iter().collect(),
        other => vec![other],
    };
    let mut any_error = false;
    let mut reader = OrderReader::default();
    let results = cases
        .into_iter()
        .map(|value| {
            let case = case::from_value(value);
            let entry = run_case(&case, variants, options, &mut reader);
            any_error |= entry.outcome.is_err();
            serde_json::to_value(&entry).expect("results are JSON")
        })
        .collect();
    Report {
        results: Value::Array(results),
        any_error,
    }
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

/// Reads cases from `input` one at a time (a list of cases, or one case) and writes each
/// result to `output` as soon as it is known: memory holds one case and one result,
/// whatever the size of the input. The output is that of `run`, laid out by
/// `serde_json::to_string_pretty`, with a line end.
pub fn run_stream(
    input: impl Read,
    output: impl Write,
    variants: &(impl Variants + ?Sized),
    options: &Options,
) -> Result<Summary, StreamError> {
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(MOST_THREADS)),
        n => n.min(MOST_THREADS),
    };
    if threads > 1 {
        return super::workers::run_on_threads(input, output, variants, options, threads);
    }
    let mut reader = CaseReader::new(input);
    let mut writer = ResultWriter::new(output);
    let mut orders = OrderReader::default();
    let mut any_error = false;
    // One entry's text, laid out before it is written.
    let mut text = Vec::new();
    let problem = loop {
        let case_text = match reader.next_case() {
            Ok(Next::Case(text)) => text,
            Ok(Next::End) => break None,
            Err(InputError::Read(e)) => return Err(StreamError::Read(e)),
            Err(InputError::NotJson(message)) => break Some(message),
        };
        let case = match case::from_json(case_text) {
            Ok(case) => case,
            Err(e) => break Some(e.to_string()),
        };
        let entry = run_case(&case, variants, options, &mut orders);
        any_error |= entry.outcome.is_err();
        text.clear();
        super::writing::write_entry(&mut text, &entry);
        writer.entry_text(&text).map_err(StreamError::Write)?;
    };
    let cases = writer.entries();
    match problem {
        None => {
            writer.finish().map_err(StreamError::Write)?;
            Ok(Summary { cases, any_error })
        }
        Some(message) => {
            if cases > 0 {
                writer.finish().map_err(StreamError::Write)?;
            }
            Err(StreamError::NotJson { message, cases })
        }
    }
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
    let lexicon = Lexicon::of(map);
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
    let orders = read_orders(&case.orders, map, lexicon, turn.kind, reader)?;
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
fn run_credit_orders(
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

/// A case read and adjudicated for drawing (`strategos map --cases`): its id, variant, the
/// board before, the orders given and what came of them.
pub struct CaseBoard<'m> {
    pub id: String,
    pub variant: &'m Variant,
    pub position: Position,
    pub submitted: Vec<Submitted>,
    pub resolution: crate::diplomacy::adjudicate::Resolution,
}

/// Each case of `input` (one object or a list) read and adjudicated, or why it could not be.
pub fn case_boards<'m>(
    input: &Value,
    variants: &'m [Variant],
    options: &Options,
) -> Vec<Result<CaseBoard<'m>, String>> {
    let cases: Vec<&Value> = match input {
        Value::Array(list) => list.iter().collect(),
        other => vec![other],
    };
    let mut reader = OrderReader::default();
    cases
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let Given::Is(case) = case::from_value(value) else {
                return Err(format!("case {}: a case must be a JSON object", i + 1));
            };
            let id = match value.get("id") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => format!("case-{}", i + 1),
                Some(other) => other.to_string(),
            };
            let variant_id = match &case.variant {
                Given::Is(s) => s.as_ref(),
                _ => "standard",
            };
            let variant = variants
                .iter()
                .find(|v| v.id.eq_ignore_ascii_case(variant_id))
                .ok_or_else(|| format!("{id}: unknown variant '{variant_id}'"))?;
            let map = &variant.map;
            let lexicon = Lexicon::of(map);
            let default = options.rules.as_ref().unwrap_or(&variant.rules).clone();
            let rules = match &case.rules {
                None => default,
                Some(value) => read_rules(value, default).map_err(|e| format!("{id}: {e}"))?,
            };
            let turn = read_turn(&case.phase).map_err(|e| format!("{id}: {e}"))?;
            let mut position =
                read_position(&case, variant, lexicon, turn).map_err(|e| format!("{id}: {e}"))?;
            run_credit_orders(
                case.credit_orders.as_ref(),
                map,
                lexicon,
                &rules,
                &mut position,
            )
            .map_err(|e| format!("{id}: {e}"))?;
            let orders = read_orders(&case.orders, map, lexicon, turn.kind, &mut reader)
                .map_err(|e| format!("{id}: {e}"))?;
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
            Ok(CaseBoard {
                id,
                variant,
                position,
                submitted,
                resolution,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variants() -> Vec<Variant> {
        crate::variant::embedded().expect("embedded variants load")
    }

    /// Runs `input` through `run_stream`, and checks it gives what `run` gives the same text.
    fn streamed(input: &str) -> (Result<Summary, StreamError>, String) {
        let variants = variants();
        let mut out = Vec::new();
        let result = run_stream(input.as_bytes(), &mut out, &variants, &threads(1));
        // On several threads, the same bytes and the same end.
        let mut on_threads = Vec::new();
        let parallel = run_stream(input.as_bytes(), &mut on_threads, &variants, &threads(3));
        assert_eq!(
            String::from_utf8_lossy(&on_threads),
            String::from_utf8_lossy(&out)
        );
        assert_eq!(format!("{parallel:?}"), format!("{result:?}"));
        (result, String::from_utf8(out).unwrap())
    }

    fn threads(threads: usize) -> Options {
        Options {
            threads,
            ..Options::default()
        }
    }

    /// A case that is not JSON deep in a long list: the cases before it are written, on one
    /// thread or several, and none after it.
    #[test]
    fn many_cases_on_threads_stop_at_the_first_that_is_not_json() {
        let case = |n: usize| {
            format!(
                r#"{{"id": {n}, "phase": {{"season": "spring", "year": 1901, "kind": "movement"}},
                "units": [{{"power": "france", "type": "army", "at": "par"}}],
                "orders": {{"france": ["A PAR - BUR"]}}}}"#
            )
        };
        let mut cases: Vec<String> = (0..300).map(case).collect();
        let (result, out) = streamed(&format!("[{}]", cases.join(",")));
        assert_eq!(result.unwrap().cases, 300);
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(results[299]["id"], 299, "in the input's order");
        cases[170] = "{\"id\": }".to_string();
        let (result, out) = streamed(&format!("[{}]", cases.join(",")));
        assert!(matches!(
            result,
            Err(StreamError::NotJson { cases: 170, .. })
        ));
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(results.as_array().map(Vec::len), Some(170));
    }

    #[test]
    fn a_region_stands_for_its_province_where_the_coast_does_not_matter() {
        let case = r#"{"id": "r", "phase": {"season": "spring", "year": 1901, "kind": "retreat"},
            "units": [{"power": "turkey", "type": "fleet", "at": "rum"}],
            "dislodged": [{"power": "russia", "type": "fleet", "at": "rum", "attacker_from": "BUL/EC"}],
            "contested": ["stp/nc"], "centers": {"russia": ["stp/sc"]},
            "orders": {"russia": ["F RUM R BUL"]}}"#;
        let (result, out) = streamed(case);
        let summary = result.unwrap();
        assert!(!summary.any_error, "{out}");
        let results: Value = serde_json::from_str(&out).unwrap();
        let order = &results[0]["result"]["orders"][0];
        assert_eq!(
            order["result"], "illegal",
            "no retreat to where the attacker came from"
        );
        let case = case.replace("BUL/EC", "bul/xx");
        let (result, out) = streamed(&case);
        assert!(result.unwrap().any_error);
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            results[0]["error"],
            "dislodged[0]: unknown province 'bul/xx'"
        );
    }

    #[test]
    fn the_stream_writes_what_run_gives_and_stops_where_the_json_does() {
        let input = r#"[{"id": 1, "phase": {"season": "fall", "kind": "movement"},
              "units": [{"power": "england", "type": "army", "at": "lon"}],
              "orders": {"england": ["A LON - WAL", "A LON - Lodnon"]}},
            {"id": [2], "variant": 7}, "three"]"#;
        let (result, out) = streamed(input);
        let summary = result.unwrap();
        assert_eq!((summary.cases, summary.any_error), (3, true));
        let whole: Value = serde_json::from_str(input).unwrap();
        let report = run(&whole, &variants(), &Options::default());
        assert!(report.any_error);
        assert_eq!(
            out,
            serde_json::to_string_pretty(&report.results).unwrap() + "\n"
        );
        let (result, out) = streamed(&input.replace("\"three\"]", "\"three\" {}]"));
        match result {
            Err(StreamError::NotJson { cases: 3, .. }) => {}
            other => panic!("{other:?}"),
        }
        let written: Value = serde_json::from_str(&out).expect("the list is closed");
        assert_eq!(written.as_array().map(Vec::len), Some(3));
        let (result, out) = streamed("[{\"id\": }]");
        assert!(matches!(result, Err(StreamError::NotJson { cases: 0, .. })));
        assert_eq!(
            out, "",
            "nothing is written when the first case is not JSON"
        );
    }
}
