//! `strategos adjudicate`: cases in JSON (`docs/adjudicate-json.md`), results in JSON.
//!
//! A case that cannot be read gives an `error` entry for that case alone; orders that
//! cannot be read are player mistakes and come back `illegal` with a message.

use serde_json::{Map as JsonMap, Value, json};

use crate::diplomacy::adjudicate::{Outcome, Submitted, adjudicate};
use crate::diplomacy::credit::{self, Lapse};
use crate::diplomacy::map::{Map, ProvinceId};
use crate::diplomacy::order::Order;
use crate::diplomacy::position::{Credit, Dislodgement, Position, Restoration};
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::{advance, survivors};
use crate::diplomacy::rules::{Rules, SwitchValue};
use crate::diplomacy::turn::{PhaseKind, Season, Turn};
use crate::diplomacy::unit::{Unit, UnitKind};
use crate::text::order::parse_order;
use crate::variant::Variant;

/// What the command-line adds to every case.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Edition for cases that name none (`--rules`); else the variant's default.
    pub rules: Option<Rules>,
}

/// Results of a whole input document, and whether any case had an error.
pub struct Report {
    pub results: Value,
    pub any_error: bool,
}

/// Adjudicates one case object or a list of them.
pub fn run(input: &Value, variants: &[Variant], options: &Options) -> Report {
    let cases: Vec<&Value> = match input {
        Value::Array(list) => list.iter().collect(),
        other => vec![other],
    };
    let mut any_error = false;
    let results = cases
        .into_iter()
        .map(|case| {
            let id = case.get("id").cloned().unwrap_or(Value::Null);
            match run_case(case, variants, options) {
                Ok(result) => json!({"id": id, "result": result}),
                Err(message) => {
                    any_error = true;
                    json!({"id": id, "error": message})
                }
            }
        })
        .collect();
    Report {
        results: Value::Array(results),
        any_error,
    }
}

fn run_case(case: &Value, variants: &[Variant], options: &Options) -> Result<Value, String> {
    let case = case.as_object().ok_or("a case must be a JSON object")?;
    let variant_id = match case.get("variant") {
        None | Some(Value::Null) => "standard",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err("'variant' must be a string".into()),
    };
    let variant = variants
        .iter()
        .find(|v| v.id.eq_ignore_ascii_case(variant_id))
        .ok_or_else(|| format!("unknown variant '{variant_id}'"))?;
    let map = &variant.map;
    let default = options
        .rules
        .clone()
        .unwrap_or_else(|| variant.rules.clone());
    let rules = read_rules(case.get("rules"), default)?;
    let turn = read_turn(case.get("phase"))?;
    let mut position = read_position(case, variant, turn)?;
    let credit_results = run_credit_orders(case.get("credit_orders"), map, &rules, &mut position)?;
    let orders = read_orders(case.get("orders"), map, turn.kind)?;
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
    let orders_out: Vec<Value> = orders
        .iter()
        .map(|o| {
            let mut entry = JsonMap::new();
            entry.insert("power".into(), json!(map.power(o.power).id));
            entry.insert("order".into(), json!(o.text));
            match (&o.order, &o.problem) {
                (Some(_), _) => {
                    let outcome = outcomes.next().expect("one outcome per order");
                    entry.insert("result".into(), json!(outcome.result_word()));
                    if let Some(reason) = outcome.reason_word() {
                        entry.insert("reason".into(), json!(reason));
                    }
                    if let Outcome::Illegal(why) = outcome {
                        entry.insert("message".into(), json!(why.explain()));
                    }
                }
                (None, problem) => {
                    entry.insert("result".into(), json!("illegal"));
                    entry.insert("reason".into(), json!("unreadable"));
                    entry.insert("message".into(), json!(problem));
                }
            }
            Value::Object(entry)
        })
        .collect();
    let mut result = JsonMap::new();
    result.insert("orders".into(), Value::Array(orders_out));
    if turn.kind == PhaseKind::Movement {
        let dislodged: Vec<Value> = resolution
            .dislodged
            .iter()
            .map(|d| json!(map.region_id(d.dislodgement.unit.region)))
            .collect();
        let mut retreats = JsonMap::new();
        for d in &resolution.dislodged {
            let at = map.region_id(d.dislodgement.unit.region);
            let options: Vec<Value> = d
                .retreats
                .iter()
                .map(|r| json!(map.region_id(*r)))
                .collect();
            retreats.insert(at, Value::Array(options));
        }
        result.insert("dislodged".into(), Value::Array(dislodged));
        result.insert("retreats".into(), Value::Object(retreats));
    }
    let after: Vec<Value> = resolution
        .after
        .units
        .iter()
        .map(|u| unit_json(map, u))
        .collect();
    result.insert("positions_after".into(), Value::Array(after));
    if rules.destroy_and_restore {
        let destroyed: Vec<Value> = resolution
            .after
            .destroyed
            .iter()
            .map(|p| json!(map.province(*p).id))
            .collect();
        result.insert("destroyed_after".into(), Value::Array(destroyed));
    }
    if !credit_results.is_empty() {
        result.insert("credit_orders".into(), Value::Array(credit_results));
    }
    if rules.supply_credit && turn.kind == PhaseKind::Adjustment {
        let ledger = credit::ledger(map, &position);
        result.insert("credits".into(), credits_json(map, &ledger.in_force));
        result.insert("credits_lapsed".into(), lapses_json(map, &ledger.lapsed));
    }
    let progress = advance(
        map,
        &variant.calendar,
        &variant.victory(),
        &position,
        &resolution,
    );
    let powers = |list: Vec<PowerId>| -> Value {
        Value::Array(list.iter().map(|p| json!(map.power(*p).id)).collect())
    };
    result.insert("survivors".into(), powers(survivors(map, &progress.next)));
    if let Some(year) = &progress.year_end {
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
        result.insert(
            "year_end".into(),
            json!({
                "supply": by_power(&|i| standing.tallies[i].supply),
                "centres": by_power(&|i| standing.tallies[i].centres),
                "winner": standing.winner.map(|p| map.power(p).id.clone()),
                "eliminated": powers(standing.eliminated.clone()),
                "credits": credits_json(map, &year.board.credits),
                "credits_lapsed": lapses_json(map, &year.lapsed),
            }),
        );
    } else {
        result.insert("year_end".into(), Value::Null);
    }
    if turn.kind == PhaseKind::Adjustment {
        let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, &position);
        let adjustments: JsonMap<String, Value> = map
            .powers
            .iter()
            .zip(owed)
            .filter(|(_, n)| *n != 0)
            .map(|(p, n)| (p.id.clone(), json!(n)))
            .collect();
        result.insert("adjustments".into(), Value::Object(adjustments));
    }
    Ok(Value::Object(result))
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
    rules: &Rules,
    position: &mut Position,
) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for (i, c) in list(value, "credit_orders")?.iter().enumerate() {
        let what = format!("credit_orders[{i}]");
        let power = read_power(map, c.get("power"), &what)?;
        let to = c
            .get("to")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{what}: 'to' must be a string"))?;
        let other = map
            .power_by_id(to)
            .ok_or_else(|| format!("{what}: unknown power '{to}'"))?;
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

fn unit_json(map: &Map, unit: &Unit) -> Value {
    json!({"power": map.power(unit.power).id, "type": unit.kind.word(), "at": map.region_id(unit.region)})
}

/// `"2000"`, or `{"edition": "2000", "retreat_to_convoy_origin": true, ...}`: an edition
/// (by default the variant's) with single switches changed.
fn read_rules(value: Option<&Value>, default: Rules) -> Result<Rules, String> {
    let edition = |name: &str| {
        Rules::edition(name).ok_or_else(|| format!("unknown rules edition '{name}' (2000 or 2023)"))
    };
    match value {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(name)) => edition(name),
        Some(Value::Number(n)) => edition(&n.to_string()),
        Some(Value::Object(fields)) => {
            let mut rules = match fields.get("edition") {
                None => default,
                Some(Value::String(name)) => edition(name)?,
                Some(Value::Number(n)) => edition(&n.to_string())?,
                Some(_) => return Err("rules.edition must be a string such as \"2000\"".into()),
            };
            for (name, value) in fields.iter().filter(|(k, _)| *k != "edition") {
                let value = match value {
                    Value::Bool(b) => SwitchValue::Bool(*b),
                    Value::Number(n) => SwitchValue::Int(n.as_i64().unwrap_or(-1)),
                    Value::String(s) => SwitchValue::Text(s.clone()),
                    _ => SwitchValue::Text(String::new()),
                };
                rules
                    .set_switch(name, &value)
                    .map_err(|e| format!("rules: {e}"))?;
            }
            Ok(rules)
        }
        Some(_) => {
            Err("'rules' must be an edition such as \"2000\" or an object of switches".into())
        }
    }
}

fn read_turn(phase: Option<&Value>) -> Result<Turn, String> {
    let phase = phase
        .and_then(Value::as_object)
        .ok_or("a case needs a 'phase' object")?;
    let season = match phase
        .get("season")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("spring") => Season::Spring,
        Some("fall" | "autumn") => Season::Fall,
        Some("winter") => Season::Winter,
        _ => return Err("phase.season must be spring, fall or winter".into()),
    };
    let kind = match phase
        .get("kind")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("movement") => PhaseKind::Movement,
        Some("retreat" | "retreats") => PhaseKind::Retreat,
        Some("adjustment" | "adjustments" | "build" | "builds") => PhaseKind::Adjustment,
        _ => return Err("phase.kind must be movement, retreat or adjustment".into()),
    };
    let year = match phase.get("year") {
        None => 1901,
        Some(y) => y
            .as_i64()
            .and_then(|y| i32::try_from(y).ok())
            .ok_or("phase.year must be a whole number")?,
    };
    Ok(Turn { year, season, kind })
}

fn read_power(map: &Map, value: Option<&Value>, what: &str) -> Result<PowerId, String> {
    let name = value
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{what}: 'power' must be a string"))?;
    map.power_by_id(name)
        .ok_or_else(|| format!("{what}: unknown power '{name}'"))
}

fn read_province(map: &Map, name: &str, what: &str) -> Result<ProvinceId, String> {
    map.province_by_id(name)
        .ok_or_else(|| format!("{what}: unknown province '{name}'"))
}

fn read_unit(map: &Map, value: &Value, what: &str) -> Result<Unit, String> {
    let power = read_power(map, value.get("power"), what)?;
    let kind = match value
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("army" | "a") => UnitKind::Army,
        Some("fleet" | "f") => UnitKind::Fleet,
        _ => return Err(format!("{what}: 'type' must be army or fleet")),
    };
    let at = value
        .get("at")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{what}: 'at' must be a string"))?;
    let (name, coast) = match at.split_once('/') {
        Some((p, c)) => (p, Some(c.to_ascii_lowercase())),
        None => (at, None),
    };
    let province = read_province(map, name, what)?;
    let regions = map.regions_for(province, kind);
    let region = match (&coast, regions.as_slice()) {
        (_, []) => return Err(format!("{what}: {} cannot stand in {at}", kind.word())),
        (None, [only]) => *only,
        (None, _) => return Err(format!("{what}: a fleet in {at} must name its coast")),
        (Some(c), _) if kind == UnitKind::Fleet => map
            .coast_region(province, c)
            .ok_or_else(|| format!("{what}: {name} has no coast '{c}'"))?,
        (Some(_), [first, ..]) => *first,
    };
    Ok(Unit {
        power,
        kind,
        region,
    })
}

fn list<'a>(value: Option<&'a Value>, what: &str) -> Result<&'a [Value], String> {
    match value {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(format!("'{what}' must be a list")),
    }
}

fn read_position(
    case: &JsonMap<String, Value>,
    variant: &Variant,
    turn: Turn,
) -> Result<Position, String> {
    let map = &variant.map;
    let mut position = Position::empty(map, turn);
    for (i, u) in list(case.get("units"), "units")?.iter().enumerate() {
        let unit = read_unit(map, u, &format!("units[{i}]"))?;
        let province = map.province_of(unit.region);
        if position.unit_in(map, province).is_some() {
            return Err(format!(
                "units[{i}]: two units in {}",
                map.province(province).id
            ));
        }
        position.units.push(unit);
    }
    for (i, d) in list(case.get("dislodged"), "dislodged")?.iter().enumerate() {
        let what = format!("dislodged[{i}]");
        let unit = read_unit(map, d, &what)?;
        let from = d
            .get("attacker_from")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{what}: 'attacker_from' must be a string"))?;
        let attacker_from = read_province(map, from, &what)?;
        let by_convoy = d.get("by_convoy").and_then(Value::as_bool).unwrap_or(false);
        position.dislodged.push(Dislodgement {
            unit,
            attacker_from,
            by_convoy,
        });
    }
    for (i, c) in list(case.get("contested"), "contested")?.iter().enumerate() {
        let name = c
            .as_str()
            .ok_or_else(|| format!("contested[{i}] must be a string"))?;
        position
            .contested
            .push(read_province(map, name, &format!("contested[{i}]"))?);
    }
    match case.get("centers").or_else(|| case.get("centres")) {
        None | Some(Value::Null) => position.owners = variant.start.owners.clone(),
        Some(Value::Object(owners)) => {
            for (power, provinces) in owners {
                let id = map
                    .power_by_id(power)
                    .ok_or_else(|| format!("centers: unknown power '{power}'"))?;
                for (i, p) in list(Some(provinces), "centers")?.iter().enumerate() {
                    let name = p
                        .as_str()
                        .ok_or_else(|| format!("centers.{power}[{i}] must be a string"))?;
                    let province = read_province(map, name, &format!("centers.{power}[{i}]"))?;
                    position.owners[province.index()] = Some(id);
                }
            }
        }
        Some(_) => return Err("'centers' must be an object of power: [provinces]".into()),
    }
    read_variant_state(case, map, &mut position)?;
    Ok(position)
}

/// Diadochi V's state: destroyed centres, restorations under way, credits.
fn read_variant_state(
    case: &JsonMap<String, Value>,
    map: &Map,
    position: &mut Position,
) -> Result<(), String> {
    for (i, c) in list(case.get("destroyed"), "destroyed")?.iter().enumerate() {
        let name = c
            .as_str()
            .ok_or_else(|| format!("destroyed[{i}] must be a string"))?;
        position
            .destroyed
            .push(read_province(map, name, &format!("destroyed[{i}]"))?);
    }
    for (i, r) in list(case.get("restoring"), "restoring")?.iter().enumerate() {
        let what = format!("restoring[{i}]");
        let name = r
            .get("province")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{what}: 'province' must be a string"))?;
        position.restoring.push(Restoration {
            province: read_province(map, name, &what)?,
            power: read_power(map, r.get("power"), &what)?,
            turns: r.get("turns").and_then(Value::as_u64).unwrap_or(1).min(9) as u8,
        });
    }
    for (i, c) in list(case.get("credits"), "credits")?.iter().enumerate() {
        let what = format!("credits[{i}]");
        let amount = c
            .get("amount")
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("{what}: 'amount' must be a number"))?;
        position.credits.push(Credit {
            lender: read_power(map, c.get("lender"), &what)?,
            borrower: read_power(map, c.get("borrower"), &what)?,
            amount: amount.min(1000) as u32,
        });
    }
    Ok(())
}

/// One order as given, read or not.
struct GivenOrder {
    power: PowerId,
    text: String,
    order: Option<Order>,
    problem: String,
}

fn read_orders(
    value: Option<&Value>,
    map: &Map,
    kind: PhaseKind,
) -> Result<Vec<GivenOrder>, String> {
    let orders = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(orders)) => orders,
        Some(_) => return Err("'orders' must be an object of power: [orders]".into()),
    };
    let mut out = Vec::new();
    for (power, texts) in orders {
        let id = map
            .power_by_id(power)
            .ok_or_else(|| format!("orders: unknown power '{power}'"))?;
        for (i, text) in list(Some(texts), "orders")?.iter().enumerate() {
            let text = text
                .as_str()
                .ok_or_else(|| format!("orders.{power}[{i}] must be a string"))?;
            let (order, diagnostics) = parse_order(map, kind, text);
            let problem = diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; ");
            out.push(GivenOrder {
                power: id,
                text: text.to_string(),
                order,
                problem,
            });
        }
    }
    Ok(out)
}
