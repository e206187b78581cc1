//! A phase's orders drawn over a board: moves, supports, convoys and holds from where they
//! were given, the failed ones dashed red and crossed with the reason on hover; the units
//! dislodged with the retreats open to them; and the orders as drawn, each with its outcome
//! and its text as the report writes it.

use std::fmt::Write;

use crate::diplomacy::adjudicate::Outcome;
use crate::diplomacy::map::{Map, RegionId};
use crate::diplomacy::order::{Action, Order};
use crate::diplomacy::position::Position;
use crate::diplomacy::unit::UnitKind;
use crate::report::describe::region_name_in;
use crate::report::messages::Words;
use crate::tr;

use super::scene::{DrawnOrder, FAILED, Scene, Spots, colour_of};
use super::svg::{escape, num, toward, unit_symbol};
use crate::atlas::geometry::Point;

fn failed(outcome: &Option<Outcome>) -> bool {
    outcome
        .as_ref()
        .is_some_and(|o| o.result_word() != "succeeds")
}

pub(super) fn draw_orders(out: &mut String, scene: &Scene, spots: &Spots) {
    out.push_str(r##"<g id="orders" fill="none">"##);
    for drawn in &scene.orders {
        draw_order(out, drawn, spots, true);
    }
    out.push_str("</g>");
}

/// Each order drawn alone, as `draw_orders` draws it among the others (in a group without
/// fill): the pieces a picture painted in layers paints one after another. A piece has no
/// title (the order's words and outcome, which no picture paints), so one arrow is one piece
/// however its order fared.
pub(super) fn order_pieces(scene: &Scene, spots: &Spots) -> Vec<String> {
    scene
        .orders
        .iter()
        .map(|drawn| {
            let mut out = String::from(r##"<g fill="none">"##);
            draw_order(&mut out, drawn, spots, false);
            out.push_str("</g>");
            out
        })
        .filter(|piece| piece.len() > r##"<g fill="none"></g>"##.len())
        .collect()
}

/// One order: its arrow, line or circle, crossed out where it failed; `titled`, with its
/// words and outcome as the group's title.
fn draw_order(out: &mut String, drawn: &DrawnOrder, spots: &Spots, titled: bool) {
    let Order::Unit(order) = &drawn.order else {
        return;
    };
    let bad = failed(&drawn.outcome);
    let result = drawn
        .outcome
        .as_ref()
        .map(|o| o.result_word())
        .unwrap_or("ordered");
    let (stroke, head) = if bad {
        (FAILED, "failed")
    } else {
        ("#222", "head")
    };
    let dash = if bad {
        r##" stroke-dasharray="7 4""##
    } else {
        ""
    };
    let from = spots.location(&order.at);
    let _ = write!(
        out,
        r##"<g class="order {}" data-result="{result}">"##,
        action_word(&order.action)
    );
    if titled {
        let _ = write!(out, "<title>{}</title>", escape(&drawn.text));
    }
    let mut cross_at = None;
    match &order.action {
        Action::Move { to, .. } | Action::Retreat { to } => {
            let to = spots.location(to);
            let (a, b) = (toward(from, to, 10.0), toward(to, from, 10.0));
            let _ = write!(
                out,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="3"{dash} marker-end="url(#{head})"/>"##,
                num(a.x),
                num(a.y),
                num(b.x),
                num(b.y)
            );
            cross_at = Some(a.lerp(b, 0.5));
        }
        Action::SupportHold { at, .. } => {
            let to = spots.location(at);
            let (a, b) = (toward(from, to, 10.0), toward(to, from, 13.0));
            let _ = write!(
                out,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="2" stroke-dasharray="{}"/><circle cx="{}" cy="{}" r="13" stroke="{stroke}" stroke-width="2"/>"##,
                num(a.x),
                num(a.y),
                num(b.x),
                num(b.y),
                if bad { "2 3" } else { "5 3" },
                num(to.x),
                num(to.y)
            );
            cross_at = Some(a.lerp(b, 0.5));
        }
        Action::SupportMove {
            from: mover, to, ..
        } => {
            let (m, t) = (spots.location(mover), spots.location(to));
            let aim = m.lerp(t, 0.6);
            let a = toward(from, aim, 10.0);
            let _ = write!(
                out,
                r##"<path d="M{} {}Q{} {} {} {}" stroke="{stroke}" stroke-width="2" stroke-dasharray="{}"/><circle cx="{}" cy="{}" r="3" fill="{stroke}"/>"##,
                num(a.x),
                num(a.y),
                num((a.x + aim.x) / 2.0 + (aim.y - a.y) * 0.15),
                num((a.y + aim.y) / 2.0 - (aim.x - a.x) * 0.15),
                num(aim.x),
                num(aim.y),
                if bad { "2 3" } else { "5 3" },
                num(aim.x),
                num(aim.y)
            );
            cross_at = Some(a.lerp(aim, 0.5));
        }
        Action::Convoy { from: army, to } => {
            let (a, t) = (spots.location(army), spots.location(to));
            let _ = write!(
                out,
                r##"<path d="M{} {}L{} {}L{} {}" stroke="{stroke}" stroke-width="2" stroke-dasharray="1 4" stroke-linecap="round"/>"##,
                num(a.x),
                num(a.y),
                num(from.x),
                num(from.y),
                num(t.x),
                num(t.y)
            );
            cross_at = Some(from);
        }
        Action::Hold | Action::Destroy | Action::Restore => {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="14" stroke="{stroke}" stroke-width="2"{dash}/>"##,
                num(from.x),
                num(from.y)
            );
            if bad {
                cross_at = Some(Point::new(from.x + 12.0, from.y - 12.0));
            }
        }
        Action::Disband => {
            let _ = write!(
                out,
                r##"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{FAILED}" stroke-width="3"/>"##,
                num(from.x - 11.0),
                num(from.y - 11.0),
                num(from.x + 11.0),
                num(from.y + 11.0),
                num(from.x + 11.0),
                num(from.y - 11.0),
                num(from.x - 11.0),
                num(from.y + 11.0)
            );
        }
        Action::Build => {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="15" stroke="{}" stroke-width="3"{dash}/>"##,
                num(from.x),
                num(from.y),
                if bad { FAILED } else { "#1a7f37" }
            );
        }
    }
    if bad && let Some(c) = cross_at {
        let _ = write!(
            out,
            r##"<path class="cross" d="M{} {}L{} {}M{} {}L{} {}" stroke="{FAILED}" stroke-width="3"/>"##,
            num(c.x - 5.0),
            num(c.y - 5.0),
            num(c.x + 5.0),
            num(c.y + 5.0),
            num(c.x + 5.0),
            num(c.y - 5.0),
            num(c.x - 5.0),
            num(c.y + 5.0)
        );
    }
    out.push_str("</g>");
}

fn action_word(action: &Action) -> &'static str {
    match action {
        Action::Hold => "hold",
        Action::Move { .. } => "move",
        Action::SupportHold { .. } | Action::SupportMove { .. } => "support",
        Action::Convoy { .. } => "convoy",
        Action::Retreat { .. } => "retreat",
        Action::Disband => "disband",
        Action::Build => "build",
        Action::Destroy => "destroy",
        Action::Restore => "restore",
    }
}

pub(super) fn draw_dislodged(out: &mut String, scene: &Scene, spots: &Spots, words: Words) {
    let map = scene.map;
    out.push_str(r##"<g id="dislodged">"##);
    let mut shown: Vec<(&crate::diplomacy::unit::Unit, Vec<RegionId>)> = scene
        .retreats
        .iter()
        .map(|r| (&r.dislodgement.unit, r.retreats.clone()))
        .collect();
    for d in &scene.position.dislodged {
        if !shown.iter().any(|(u, _)| **u == d.unit) {
            shown.push((&d.unit, Vec::new()));
        }
    }
    for (unit, retreats) in shown {
        let base = spots.region(unit.region);
        let at = Point::new(base.x + 13.0, base.y - 13.0);
        let options: Vec<String> = retreats
            .iter()
            .map(|r| region_name_in(words, map, *r))
            .collect();
        let power = map.power(unit.power);
        let text = tr!(
            words,
            "map.dislodged",
            adjective = power.adjective,
            kind = match unit.kind {
                UnitKind::Army => tr!(words, "unit.army"),
                UnitKind::Fleet => tr!(words, "unit.fleet"),
            },
            power = power.name_in(words.language()),
            province = region_name_in(words, map, unit.region),
            options = if options.is_empty() {
                tr!(words, "map.no_retreat")
            } else {
                options.join(", ")
            }
        );
        let _ = write!(
            out,
            r##"<g class="dislodged" id="dislodged-{}"><title>{}</title>"##,
            escape(&map.region_id(unit.region).replace('/', "-")),
            escape(&text)
        );
        for r in &retreats {
            let to = spots.region(*r);
            let (a, b) = (toward(at, to, 10.0), toward(to, at, 10.0));
            let _ = write!(
                out,
                r##"<line class="retreat-option" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#c00" stroke-width="1.5" stroke-dasharray="2 3" marker-end="url(#retreat)"/>"##,
                num(a.x),
                num(a.y),
                num(b.x),
                num(b.y)
            );
        }
        unit_symbol(
            out,
            at,
            unit.kind == UnitKind::Fleet,
            colour_of(map, scene.layout, unit.power),
            true,
            super::scene::power_mark(map, unit.power),
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

/// The orders of a phase as drawn: each with its outcome and its text as the report writes
/// it (`before` is the board they were given on).
pub fn drawn_orders(
    words: Words,
    map: &Map,
    before: &Position,
    submitted: &[crate::diplomacy::adjudicate::Submitted],
    outcomes: &[Outcome],
) -> Vec<DrawnOrder> {
    submitted
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let outcome = outcomes.get(i).cloned();
            let mut text =
                crate::report::describe::describe_order_in(words, map, before, s.power, &s.order);
            if let Some(o) = &outcome {
                let note = crate::report::describe::note_in(words, map, o);
                if !note.is_empty() {
                    text = format!("{text} ({note})");
                }
            }
            DrawnOrder {
                power: s.power,
                order: s.order.clone(),
                outcome,
                text,
            }
        })
        .collect()
}
