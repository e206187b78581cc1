//! A case of `strategos adjudicate` read, adjudicated and drawn (`strategos map --cases`):
//! the JSON interface gives the drawing plain boards (a `Scene`), above it.

use serde_json::Value;

use crate::diplomacy::adjudicate::{Submitted, adjudicate};
use crate::diplomacy::position::Position;
use crate::drawing::orders::drawn_orders;
use crate::drawing::{Scene, draw, phase_in};
use crate::report::messages::Words;
use crate::text::order::OrderReader;
use crate::tr;
use crate::variant::Variant;

use super::case::{self, Given};
use super::reading::{read_orders, read_position, read_rules, read_turn};
use super::result::{Options, run_credit_orders};

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
            let lexicon = variant.lexicon();
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
            let orders = read_orders(&case.orders, variant, turn.kind, &mut reader)
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

/// A case of `strategos adjudicate` drawn: the board it gives, its orders with their
/// outcomes, and the units dislodged with their retreats.
pub fn draw_case(case: &CaseBoard, words: Words) -> Result<String, String> {
    let variant = case.variant;
    let layout = variant
        .layout
        .as_ref()
        .ok_or_else(|| format!("variant '{}' has no [map] table", variant.id))?;
    let orders = drawn_orders(
        words,
        &variant.map,
        &case.position,
        &case.submitted,
        &case.resolution.outcomes,
    );
    let title = tr!(
        words,
        "map.title_case",
        case = case.id,
        phase = phase_in(words, variant, &case.position)
    );
    Ok(draw(
        &Scene {
            map: &variant.map,
            layout,
            position: &case.position,
            title,
            orders,
            retreats: case.resolution.dislodged.clone(),
        },
        words,
    ))
}
