//! A case's fields read into the rules core's types for `strategos adjudicate`: the rules
//! edition and its switches, the turn, powers, provinces and regions (a region where a
//! province is asked for), units, the position with its dislodged units and centres, and the
//! orders, each problem said with where it is (`units[3].at`).

use std::borrow::Cow;
use std::fmt::{self, Display};

use serde_json::Value;

use crate::diplomacy::map::{Map, NameTarget, ProvinceId};
use crate::diplomacy::order::Order;
use crate::diplomacy::position::{Credit, Dislodgement, Position, Restoration};
use crate::diplomacy::power::PowerId;
use crate::diplomacy::rules::{Rules, SwitchValue};
use crate::diplomacy::turn::{PhaseKind, Season, Turn};
use crate::diplomacy::unit::{Unit, UnitKind};
use crate::text::lexicon::Lexicon;
use crate::text::order::OrderReader;
use crate::variant::Variant;

use super::case::{self, CaseInput, Given, Pairs, Text, UnitInput};

/// `"2000"`, or `{"edition": "2000", "retreat_to_convoy_origin": true, ...}`: an edition
/// (by default the variant's) with single switches changed.
pub(super) fn read_rules(value: &Value, default: Rules) -> Result<Rules, String> {
    let edition = |name: &str| {
        Rules::edition(name).ok_or_else(|| format!("unknown rules edition '{name}' (2000 or 2023)"))
    };
    match value {
        Value::Null => Ok(default),
        Value::String(name) => edition(name),
        Value::Number(n) => edition(&n.to_string()),
        Value::Object(fields) => {
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
        _ => Err("'rules' must be an edition such as \"2000\" or an object of switches".into()),
    }
}

/// A word of the input in lower case, borrowed when it is already.
pub(super) fn lower<'a>(word: &'a Given<Text<'_>>) -> Option<Cow<'a, str>> {
    let word = word.get()?;
    Some(if word.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(word.to_ascii_lowercase())
    } else {
        Cow::Borrowed(word.as_ref())
    })
}

pub(super) fn read_turn(phase: &Given<case::PhaseInput<'_>>) -> Result<Turn, String> {
    let phase = phase.get().ok_or("a case needs a 'phase' object")?;
    let season = match lower(&phase.season).as_deref() {
        Some("spring") => Season::Spring,
        Some("fall" | "autumn") => Season::Fall,
        Some("winter") => Season::Winter,
        _ => return Err("phase.season must be spring, fall or winter".into()),
    };
    let kind = match lower(&phase.kind).as_deref() {
        Some("movement") => PhaseKind::Movement,
        Some("retreat" | "retreats") => PhaseKind::Retreat,
        Some("adjustment" | "adjustments" | "build" | "builds") => PhaseKind::Adjustment,
        _ => return Err("phase.kind must be movement, retreat or adjustment".into()),
    };
    let year = match &phase.year {
        Given::Absent => 1901,
        other => other
            .get()
            .and_then(|y| y.as_i64())
            .and_then(|y| i32::try_from(y).ok())
            .ok_or("phase.year must be a whole number")?,
    };
    Ok(Turn { year, season, kind })
}

/// Where in a case a value is (`units[3]`), written out only for a problem.
#[derive(Clone, Copy)]
pub(super) struct At<'a>(&'a str, usize);

impl Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

pub(super) fn read_power(
    lexicon: &Lexicon,
    value: &Given<Text<'_>>,
    what: impl Display,
) -> Result<PowerId, String> {
    let name = value
        .get()
        .ok_or_else(|| format!("{what}: 'power' must be a string"))?;
    lexicon
        .power_by_id(name)
        .ok_or_else(|| format!("{what}: unknown power '{name}'"))
}

/// A province given by its id (`bul`), or by a region of it where the coast does not
/// matter (`bul/ec`, as other tools write where an attacker came from).
pub(super) fn read_province(
    map: &Map,
    lexicon: &Lexicon,
    name: &str,
    what: impl Display,
) -> Result<ProvinceId, String> {
    match lexicon.place_by_id(name) {
        Some(NameTarget::Province(p)) => Ok(p),
        Some(NameTarget::Region(r)) => Ok(map.province_of(r)),
        None => Err(format!("{what}: unknown province '{name}'")),
    }
}

pub(super) fn read_unit(
    map: &Map,
    lexicon: &Lexicon,
    unit: &UnitInput<'_>,
    what: At<'_>,
) -> Result<Unit, String> {
    let power = read_power(lexicon, &unit.power, what)?;
    let kind = match lower(&unit.kind).as_deref() {
        Some("army" | "a") => UnitKind::Army,
        Some("fleet" | "f") => UnitKind::Fleet,
        _ => return Err(format!("{what}: 'type' must be army or fleet")),
    };
    let at = unit
        .at
        .get()
        .ok_or_else(|| format!("{what}: 'at' must be a string"))?;
    let (name, coast) = match at.split_once('/') {
        Some((p, c)) => (p, Some(c.to_ascii_lowercase())),
        None => (at.as_ref(), None),
    };
    let province = match lexicon.place_by_id(name) {
        Some(NameTarget::Province(p)) => p,
        _ => return Err(format!("{what}: unknown province '{name}'")),
    };
    let regions = map.regions_for(province, kind);
    let region = match (&coast, regions) {
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

/// The items of a list field; absent or null is an empty list.
pub(super) fn list<'a, T>(value: &'a Given<Vec<T>>, what: &str) -> Result<&'a [T], String> {
    match value {
        Given::Absent | Given::Null => Ok(&[]),
        Given::Is(items) => Ok(items),
        Given::Wrong => Err(format!("'{what}' must be a list")),
    }
}

/// A unit object of a list; one that is no object reads as having none of its fields.
pub(super) fn unit_fields<'a, 'c>(unit: &'a Given<UnitInput<'c>>) -> Cow<'a, UnitInput<'c>> {
    match unit {
        Given::Is(u) => Cow::Borrowed(u),
        _ => Cow::Owned(UnitInput::default()),
    }
}

pub(super) fn read_position(
    case: &CaseInput<'_>,
    variant: &Variant,
    lexicon: &Lexicon,
    turn: Turn,
) -> Result<Position, String> {
    let map = &variant.map;
    let mut position = Position::empty(map, turn);
    let mut occupied = vec![false; map.n_provinces()];
    for (i, u) in list(&case.units, "units")?.iter().enumerate() {
        let unit = read_unit(map, lexicon, &unit_fields(u), At("units", i))?;
        let province = map.province_of(unit.region);
        if std::mem::replace(&mut occupied[province.index()], true) {
            return Err(format!(
                "units[{i}]: two units in {}",
                map.province(province).id
            ));
        }
        position.units.push(unit);
    }
    for (i, d) in list(&case.dislodged, "dislodged")?.iter().enumerate() {
        let what = At("dislodged", i);
        let d = unit_fields(d);
        let unit = read_unit(map, lexicon, &d, what)?;
        let from = d
            .attacker_from
            .get()
            .ok_or_else(|| format!("{what}: 'attacker_from' must be a string"))?;
        let attacker_from = read_province(map, lexicon, from, what)?;
        let by_convoy = d.by_convoy.get().copied().unwrap_or(false);
        position.dislodged.push(Dislodgement {
            unit,
            attacker_from,
            by_convoy,
        });
    }
    for (i, c) in list(&case.contested, "contested")?.iter().enumerate() {
        let name = c
            .get()
            .ok_or_else(|| format!("contested[{i}] must be a string"))?;
        position
            .contested
            .push(read_province(map, lexicon, name, At("contested", i))?);
    }
    let centers = match case.centers {
        Given::Absent => &case.centres,
        _ => &case.centers,
    };
    match centers {
        Given::Absent | Given::Null => position.owners = variant.start.owners.clone(),
        Given::Is(Pairs(owners)) => {
            for (power, provinces) in owners {
                let id = lexicon
                    .power_by_id(power)
                    .ok_or_else(|| format!("centers: unknown power '{power}'"))?;
                for (i, p) in list(provinces, "centers")?.iter().enumerate() {
                    let name = p
                        .get()
                        .ok_or_else(|| format!("centers.{power}[{i}] must be a string"))?;
                    let what = At(&format!("centers.{power}"), i);
                    let province = read_province(map, lexicon, name, what)?;
                    position.owners[province.index()] = Some(id);
                }
            }
        }
        Given::Wrong => return Err("'centers' must be an object of power: [provinces]".into()),
    }
    read_variant_state(case, map, lexicon, &mut position)?;
    Ok(position)
}

/// Diadochi V's state: destroyed centres, restorations under way, credits.
pub(super) fn read_variant_state(
    case: &CaseInput<'_>,
    map: &Map,
    lexicon: &Lexicon,
    position: &mut Position,
) -> Result<(), String> {
    for (i, c) in list(&case.destroyed, "destroyed")?.iter().enumerate() {
        let name = c
            .get()
            .ok_or_else(|| format!("destroyed[{i}] must be a string"))?;
        position
            .destroyed
            .push(read_province(map, lexicon, name, At("destroyed", i))?);
    }
    for (i, r) in list(&case.restoring, "restoring")?.iter().enumerate() {
        let what = At("restoring", i);
        let r = match r {
            Given::Is(r) => Cow::Borrowed(r),
            _ => Cow::Owned(case::RestorationInput::default()),
        };
        let name = r
            .province
            .get()
            .ok_or_else(|| format!("{what}: 'province' must be a string"))?;
        position.restoring.push(Restoration {
            province: read_province(map, lexicon, name, what)?,
            power: read_power(lexicon, &r.power, what)?,
            turns: r.turns.get().and_then(|t| t.as_u64()).unwrap_or(1).min(9) as u8,
        });
    }
    for (i, c) in list(&case.credits, "credits")?.iter().enumerate() {
        let what = At("credits", i);
        let c = match c {
            Given::Is(c) => Cow::Borrowed(c),
            _ => Cow::Owned(case::CreditInput::default()),
        };
        let amount = c
            .amount
            .get()
            .and_then(|n| n.as_u64())
            .ok_or_else(|| format!("{what}: 'amount' must be a number"))?;
        position.credits.push(Credit {
            lender: read_power(lexicon, &c.lender, what)?,
            borrower: read_power(lexicon, &c.borrower, what)?,
            amount: amount.min(1000) as u32,
        });
    }
    Ok(())
}

/// One order as given, read or not.
pub(super) struct GivenOrder<'c> {
    pub(super) power: PowerId,
    pub(super) text: &'c str,
    pub(super) order: Option<Order>,
    pub(super) problem: String,
}

pub(super) fn read_orders<'c>(
    value: &'c Given<Pairs<'c, Given<Vec<Given<Text<'c>>>>>>,
    variant: &Variant,
    kind: PhaseKind,
    reader: &mut OrderReader,
) -> Result<Vec<GivenOrder<'c>>, String> {
    let lexicon = variant.lexicon();
    let orders = match value {
        Given::Absent | Given::Null => return Ok(Vec::new()),
        Given::Is(Pairs(orders)) => orders,
        Given::Wrong => return Err("'orders' must be an object of power: [orders]".into()),
    };
    let mut out = Vec::with_capacity(
        orders
            .iter()
            .map(|(_, t)| t.get().map_or(0, Vec::len))
            .sum(),
    );
    for (power, texts) in orders {
        let id = lexicon
            .power_by_id(power)
            .ok_or_else(|| format!("orders: unknown power '{power}'"))?;
        for (i, text) in list(texts, "orders")?.iter().enumerate() {
            let text = text
                .get()
                .ok_or_else(|| format!("orders.{power}[{i}] must be a string"))?;
            let (order, diagnostics) = reader.parse_order(variant, kind, text);
            let problem = match diagnostics.as_slice() {
                [] => String::new(),
                [one] => one.message.clone(),
                many => many
                    .iter()
                    .map(|d| d.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            out.push(GivenOrder {
                power: id,
                text,
                order,
                problem,
            });
        }
    }
    Ok(out)
}
