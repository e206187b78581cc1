//! A Here I Stand board drawn as SVG on the same geography: spaces as cities (their kind by
//! shape, their controller by colour), connections as lines (passes dashed), sea zones
//! named on the water, and in each space the units and leaders of each power, sieges, and
//! the move under way as an arrow. The check: every space placed in the frame, and no
//! connection drawn through a city it does not join.

use std::fmt::Write;

use crate::his::board::{Board, LeaderPlace};
use crate::his::map::{Crossing, Map, SpaceId, SpaceKind};
use crate::his::power::Power;
use crate::report::messages::Words;
use crate::tr;

use super::check::Mismatch;
use super::svg::{escape, label, lines_path, num, rings_path, tint, toward};
use crate::atlas::geometry::Point;
use crate::atlas::layout::Layout;

const SEA: &str = "#b9d7ea";
const LAND: &str = "#f2ead3";
/// A connection passing nearer than this (pixels) to a city it does not join reads as
/// joining it.
const CLEARANCE: f64 = 5.0;
/// Height of the legend strip under the map.
const LEGEND: f64 = 64.0;

/// The layout of the Here I Stand map, compiled in from `variants/his/here-i-stand.toml`.
pub fn layout() -> Option<&'static Layout> {
    crate::variant::his::embedded_layout()
}

/// A move under way: from one space to another, by a power.
#[derive(Clone, Debug)]
pub struct MoveShown {
    pub power: Power,
    pub from: SpaceId,
    pub to: SpaceId,
    pub text: String,
}

fn colour(layout: &Layout, power: Power) -> &str {
    layout
        .colours
        .get(power.id())
        .map(String::as_str)
        .unwrap_or("#bbbbbb")
}

/// Every mismatch between the drawn Here I Stand map and its connections.
pub fn check_his(map: &Map, layout: &Layout) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let (w, h) = layout.size();
    let at = |s: SpaceId| {
        layout
            .places
            .get(&map.space(s).id)
            .map(|p| layout.project(p.label))
    };
    for id in map.space_ids() {
        match at(id) {
            None => out.push(Mismatch(format!(
                "{} has no place on the map",
                map.space(id).name
            ))),
            Some(p) if p.x < 0.0 || p.y < 0.0 || p.x > w || p.y > h => out.push(Mismatch(format!(
                "{} lies outside the frame",
                map.space(id).name
            ))),
            _ => {}
        }
    }
    if !out.is_empty() {
        return out;
    }
    let majors: Vec<(&str, &str)> = Power::ALL
        .into_iter()
        .filter(|p| p.is_major())
        .map(|p| (p.id(), colour(layout, p)))
        .collect();
    for (sight, a, b, d) in super::palette::too_alike(&majors) {
        out.push(Mismatch(format!(
            "the colours of {a} and {b} are too alike for readers with {sight} (difference {d:.0})"
        )));
    }
    for a in map.space_ids() {
        for &(b, _) in &map.space(a).land {
            if b.0 < a.0 {
                continue;
            }
            let (pa, pb) = (at(a).expect("placed"), at(b).expect("placed"));
            for c in map
                .space_ids()
                .filter(|c| *c != a && *c != b && !map.space(*c).is_sea())
            {
                let pc = at(c).expect("placed");
                if distance_to_segment(pc, pa, pb) < CLEARANCE {
                    out.push(Mismatch(format!(
                        "the connection {} - {} is drawn through {}",
                        map.space(a).name,
                        map.space(b).name,
                        map.space(c).name
                    )));
                }
            }
        }
    }
    out
}

fn distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    if len2 < 1e-12 {
        return p.distance(a);
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0);
    p.distance(a.lerp(b, t))
}

/// `at`, moved in from the picture's sides so that a label of `text` centred there stays
/// whole (a sea's name in another language may be longer than the place was chosen for).
fn within(at: Point, text: &str, size: f64, w: f64) -> Point {
    let half = text.chars().count() as f64 * size * 0.34 + 6.0;
    Point::new(at.x.clamp(half, (w - half).max(half)), at.y)
}

/// The board as SVG, with the move under way if any; `None` if the map has no layout.
pub fn draw_board(
    map: &Map,
    board: &Board,
    moving: Option<&MoveShown>,
    words: Words,
) -> Option<String> {
    let layout = layout()?;
    let sheet = layout.sheet(&|id: &str| map.find_space(id).is_some_and(|s| map.space(s).is_sea()));
    let (w, h) = (sheet.width, sheet.height);
    let at = |s: SpaceId| {
        layout
            .places
            .get(&map.space(s).id)
            .map(|p| layout.project(p.label))
            .unwrap_or(Point::new(-50.0, -50.0))
    };
    let mut out = String::with_capacity(256 * 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="DejaVu Sans" font-weight="bold">"##,
        num(w),
        num(h + LEGEND),
        num(w),
        num(h + LEGEND)
    );
    let title = tr!(
        words,
        "map.title_his",
        name = map.name,
        turn = board.turn,
        impulse = board.impulse
    );
    let _ = write!(out, "<title>{}</title>", escape(&title));
    super::svg::arrow_markers(&mut out, &[("head", "#222")]);
    let _ = write!(
        out,
        r##"<rect width="{}" height="{}" fill="{SEA}"/>"##,
        num(w),
        num(h)
    );
    let land: Vec<Vec<Point>> = sheet.land.iter().map(|r| r.points.clone()).collect();
    let _ = write!(
        out,
        r##"<path d="{}" fill="{LAND}" fill-rule="evenodd" stroke="#4a4a4a" stroke-width="1"/>"##,
        rings_path(&land)
    );

    out.push_str(r##"<g id="connections" fill="none">"##);
    let mut normal = Vec::new();
    let mut passes = Vec::new();
    for a in map.space_ids() {
        for &(b, crossing) in &map.space(a).land {
            if b.0 < a.0 {
                continue;
            }
            let line = [at(a), at(b)];
            match crossing {
                Crossing::Pass => passes.push(line),
                _ => normal.push(line),
            }
        }
    }
    let _ = write!(
        out,
        r##"<path class="connections" d="{}" stroke="#6b5a45" stroke-width="1.6"/><path class="passes" d="{}" stroke="#7a3b00" stroke-width="2.2" stroke-dasharray="5 3"/>"##,
        lines_path(normal.iter().map(|l| &l[..])),
        lines_path(passes.iter().map(|l| &l[..]))
    );
    out.push_str("</g>");

    out.push_str(r##"<g id="spaces">"##);
    for id in map.space_ids() {
        let space = map.space(id);
        let p = at(id);
        if space.is_sea() {
            let _ = write!(
                out,
                r##"<g class="space sea" id="space-{}">"##,
                escape(&space.id)
            );
            let name = space.name_in(words.language());
            label(
                &mut out,
                within(p, name, 12.0, w),
                name,
                12.0,
                "#1d4f7a",
                r##" font-style="italic""##,
            );
            out.push_str("</g>");
            continue;
        }
        let controller = board.controller(id);
        let fill = if board.in_unrest(id) {
            "#777"
        } else {
            colour(layout, controller)
        };
        let _ = write!(
            out,
            r##"<g class="space" id="space-{}" data-control="{}"><title>{}</title>"##,
            escape(&space.id),
            controller.id(),
            escape(space.name_in(words.language()))
        );
        match space.kind {
            SpaceKind::Unfortified => {
                let _ = write!(
                    out,
                    r##"<circle cx="{}" cy="{}" r="4" fill="{}" stroke="#222" stroke-width="1.2"/>"##,
                    num(p.x),
                    num(p.y),
                    if board.in_unrest(id) {
                        fill.to_string()
                    } else {
                        tint(fill, 0.2)
                    }
                );
            }
            SpaceKind::Fortress => {
                let _ = write!(
                    out,
                    r##"<path d="M{} {}L{} {}L{} {}L{} {}Z" fill="{fill}" stroke="#222" stroke-width="1.5"/>"##,
                    num(p.x),
                    num(p.y - 7.0),
                    num(p.x + 7.0),
                    num(p.y),
                    num(p.x),
                    num(p.y + 7.0),
                    num(p.x - 7.0),
                    num(p.y)
                );
            }
            kind => {
                let r = if kind == SpaceKind::Capital { 8.0 } else { 6.5 };
                let _ = write!(
                    out,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#222" stroke-width="{}"/>"##,
                    num(p.x - r),
                    num(p.y - r),
                    num(2.0 * r),
                    num(2.0 * r),
                    if kind == SpaceKind::Electorate {
                        "3"
                    } else {
                        "1.5"
                    }
                );
            }
        }
        if board.sieges.iter().any(|s| s.space == id) {
            let _ = write!(
                out,
                r##"<circle class="siege" cx="{}" cy="{}" r="11" fill="none" stroke="#c00" stroke-width="2" stroke-dasharray="3 2"><title>{}</title></circle>"##,
                num(p.x),
                num(p.y),
                escape(&tr!(
                    words,
                    "map.siege",
                    space = space.name_in(words.language())
                ))
            );
        }
        let below = Point::new(p.x, p.y + 17.0);
        label(
            &mut out,
            below,
            space.name_in(words.language()),
            10.0,
            "#2b2118",
            "",
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");

    if let Some(m) = moving {
        let (a, b) = (
            toward(at(m.from), at(m.to), 10.0),
            toward(at(m.to), at(m.from), 10.0),
        );
        let _ = write!(
            out,
            r##"<g id="move" class="order move"><title>{}</title><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="5" marker-end="url(#head)"/></g>"##,
            escape(&m.text),
            num(a.x),
            num(a.y),
            num(b.x),
            num(b.y),
            colour(layout, m.power)
        );
    }

    out.push_str(r##"<g id="units">"##);
    for id in map.space_ids() {
        let here: Vec<_> = board
            .detachments
            .iter()
            .filter(|d| d.space == id && !d.units.is_empty())
            .collect();
        let leaders: Vec<_> = board
            .leaders
            .iter()
            .filter(|l| matches!(l.place, LeaderPlace::Space { space, .. } if space == id))
            .collect();
        if here.is_empty() && leaders.is_empty() {
            continue;
        }
        let p = at(id);
        let mut y = p.y - 12.0;
        for d in &here {
            let c = colour(layout, d.power);
            let mut text = format!("{}", d.units.regulars);
            if d.units.mercenaries > 0 {
                let _ = write!(text, "+{}m", d.units.mercenaries);
            }
            if d.units.cavalry > 0 {
                let _ = write!(text, "+{}c", d.units.cavalry);
            }
            let names: Vec<String> = leaders
                .iter()
                .filter(|l| l.power == d.power)
                .map(|l| map.leader(l.id).name.clone())
                .collect();
            if !names.is_empty() {
                let _ = write!(text, " {}", names.join(", "));
            }
            let width = 8.0 + 6.5 * text.chars().count() as f64;
            let _ = write!(
                out,
                r##"<g class="detachment" data-power="{}" data-space="{}"><title>{}</title><rect x="{}" y="{}" width="{}" height="14" rx="3" fill="{c}" stroke="{}" stroke-width="1.5"{}/><text x="{}" y="{}" font-size="10" text-anchor="middle" fill="{}">{}</text></g>"##,
                d.power.id(),
                escape(&map.space(id).id),
                escape(&format!(
                    "{} {}: {}",
                    d.power.id(),
                    map.space(id).name,
                    crate::report::Words::english().message(&d.units.describe())
                )),
                num(p.x + 8.0),
                num(y - 7.0),
                num(width),
                if d.inside { "#222" } else { "#fff" },
                if d.inside {
                    r##" stroke-dasharray="2 2""##
                } else {
                    ""
                },
                num(p.x + 8.0 + width / 2.0),
                num(y + 3.5),
                super::svg::ink_on(c),
                escape(&text)
            );
            y -= 16.0;
        }
        for l in leaders
            .iter()
            .filter(|l| !here.iter().any(|d| d.power == l.power))
        {
            let c = colour(layout, l.power);
            let name = &map.leader(l.id).name;
            let width = 8.0 + 6.5 * name.chars().count() as f64;
            let _ = write!(
                out,
                r##"<g class="leader" data-power="{}"><rect x="{}" y="{}" width="{}" height="14" rx="7" fill="{c}" stroke="#fff" stroke-width="1.5"/><text x="{}" y="{}" font-size="10" text-anchor="middle" fill="{}">{}</text></g>"##,
                l.power.id(),
                num(p.x + 8.0),
                num(y - 7.0),
                num(width),
                num(p.x + 8.0 + width / 2.0),
                num(y + 3.5),
                super::svg::ink_on(c),
                escape(name)
            );
            y -= 16.0;
        }
    }
    out.push_str("</g>");

    let _ = write!(
        out,
        r##"<g id="legend"><rect y="{}" width="{}" height="{LEGEND}" fill="#fbf8f0"/><text x="10" y="{}" font-size="14" fill="#111">{}</text>"##,
        num(h),
        num(w),
        num(h + 20.0),
        escape(&title)
    );
    let powers: Vec<(&String, &String)> = layout.colours.iter().collect();
    let step = (w - 20.0) / powers.len().max(1) as f64;
    for (i, (power, c)) in powers.iter().enumerate() {
        let x = 10.0 + step * i as f64;
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="12" height="12" fill="{c}" stroke="#222"/><text x="{}" y="{}" font-size="11" fill="#111">{}</text>"##,
            num(x),
            num(h + 34.0),
            num(x + 16.0),
            num(h + 44.0),
            escape(
                &Power::from_word(power)
                    .map(|p| match words.language() {
                        crate::lang::Lang::Ru => p.ru(crate::his::lang::Case::Nom).to_string(),
                        crate::lang::Lang::En => p.name().to_string(),
                    })
                    .unwrap_or_else(|| power.to_string())
            )
        );
    }
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#333">{}</text></g>"##,
        num(w - 10.0),
        num(h + 20.0),
        escape(&tr!(words, "map.key_his"))
    );
    out.push_str("</svg>");
    Some(out)
}
