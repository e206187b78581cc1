//! The legend beneath a board: each power's colour, name and counts, the key to the symbols,
//! and Diadochi V's credit, in pieces `layers` can paint alone and keep.

use std::fmt::Write;

use crate::diplomacy::map::Map;
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::report::messages::Words;
use crate::tr;

use super::scene::{Scene, colour_of, power_mark};
use super::svg::{centre_symbol, escape, num};
use crate::atlas::geometry::Point;

/// Height of the legend strip under the map (one row of powers).
const LEGEND: f64 = 64.0;
/// Its height with a line of credits (Diadochi V).
const LEGEND_WITH_CREDIT: f64 = 80.0;
/// Each further row of powers in the legend.
const LEGEND_ROW: f64 = 32.0;
/// The least width of a power's place in the legend, so its name and counts fit.
const LEGEND_POWER_WIDTH: f64 = 132.0;
/// About the width of a letter of a power's name in the legend (12-pixel bold), so a
/// long name (World's Frozen Antarctica) widens every place rather than running on.
const LEGEND_LETTER: f64 = 7.6;

/// The powers in each row of the legend, for a picture `w` wide.
fn legend_per_row(map: &Map, w: f64) -> usize {
    let n = map.powers.len();
    let longest = map
        .powers
        .iter()
        .map(|p| {
            // The longer of its names, so that the layout is the same in every language.
            crate::lang::Lang::ALL
                .iter()
                .map(|l| p.name_in(*l).chars().count())
                .max()
                .unwrap_or(0)
                + if power_mark(map, PowerId(0)).is_some() {
                    2
                } else {
                    0
                }
        })
        .max()
        .unwrap_or(0);
    let place = LEGEND_POWER_WIDTH.max(24.0 + LEGEND_LETTER * longest as f64);
    (((w - 20.0) / place).floor() as usize).clamp(1, n.max(1))
}

/// The legend's height: a row for every `legend_per_row` powers, and a line of credits.
pub(super) fn legend_height(map: &Map, position: &Position, w: f64) -> f64 {
    let n = map.powers.len();
    let rows = n.div_ceil(legend_per_row(map, w)).max(1);
    let base = if position.credits.is_empty() {
        LEGEND
    } else {
        LEGEND_WITH_CREDIT
    };
    base + LEGEND_ROW * (rows - 1) as f64
}

/// The legend beneath the map, piece by piece: each piece one or two whole elements, so that
/// `layers` can paint it alone and keep what recurs from board to board.
pub(super) struct Legend {
    /// Its ground: the background and the line above it.
    pub ground: String,
    /// The board's title (its game and phase).
    pub title: String,
    /// For each power: its id, its centre symbol and name (the same on every board of the
    /// map), and its count of centres and units.
    pub powers: Vec<(String, String, String)>,
    /// The key to the symbols.
    pub key: String,
    /// Diadochi V's credit in force, if any.
    pub credit: Option<String>,
}

/// The legend as the whole picture writes it.
pub(super) fn write_legend(out: &mut String, legend: &Legend) {
    out.push_str(r##"<g id="legend">"##);
    out.push_str(&legend.ground);
    out.push_str(&legend.title);
    for (id, named, count) in &legend.powers {
        let _ = write!(
            out,
            r##"<g class="legend-power" data-power="{}">"##,
            escape(id)
        );
        out.push_str(named);
        out.push_str(count);
        out.push_str("</g>");
    }
    out.push_str(&legend.key);
    if let Some(credit) = &legend.credit {
        out.push_str(credit);
    }
    out.push_str("</g>");
}

pub(super) fn legend(scene: &Scene, words: Words, w: f64, h: f64) -> Legend {
    let (map, position) = (scene.map, scene.position);
    let ground = format!(
        r##"<rect y="{}" width="{}" height="{}" fill="#fbf8f0"/><line x1="0" y1="{}" x2="{}" y2="{}" stroke="#444"/>"##,
        num(h),
        num(w),
        num(legend_height(map, position, w)),
        num(h),
        num(w),
        num(h)
    );
    let title = format!(
        r##"<text x="10" y="{}" font-size="14" fill="#111">{}</text>"##,
        num(h + 20.0),
        escape(&scene.title)
    );
    let per_row = legend_per_row(map, w);
    let step = (w - 20.0) / per_row as f64;
    let powers = map
        .powers
        .iter()
        .enumerate()
        .map(|(i, info)| {
            let power = PowerId(i as u8);
            let x = 10.0 + step * (i % per_row) as f64;
            let y = h + LEGEND_ROW * (i / per_row) as f64;
            let colour = colour_of(map, scene.layout, power);
            let units = position.units.iter().filter(|u| u.power == power).count();
            let centres = position.centres_of(map, power);
            let mut named = String::new();
            centre_symbol(&mut named, Point::new(x + 6.0, y + 43.0), colour);
            let name = match power_mark(map, power) {
                Some(mark) => format!("{mark} {}", info.name_in(words.language())),
                None => info.name_in(words.language()).to_string(),
            };
            let _ = write!(
                named,
                r##"<text x="{}" y="{}" font-size="12" fill="#111">{}</text>"##,
                num(x + 16.0),
                num(y + 40.0),
                escape(&name),
            );
            let count = format!(
                r##"<text x="{}" y="{}" font-size="10" fill="#333">{}</text>"##,
                num(x + 16.0),
                num(y + 54.0),
                escape(&tr!(
                    words,
                    "map.legend_power",
                    centres = centres,
                    units = units
                ))
            );
            (info.id.clone(), named, count)
        })
        .collect();
    let credit: Vec<String> = position
        .credits
        .iter()
        .map(|c| {
            tr!(
                words,
                "map.credit",
                lender = map.power(c.lender).name_in(words.language()),
                borrower = map.power(c.borrower).name_in(words.language()),
                amount = c.amount
            )
        })
        .collect();
    let key = format!(
        r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#333">{}</text>"##,
        num(w - 10.0),
        num(h + 20.0),
        escape(&tr!(words, "map.key"))
    );
    let credit = (!credit.is_empty()).then(|| {
        let rows = map.powers.len().div_ceil(per_row).max(1);
        format!(
            r##"<text class="credit" x="10" y="{}" font-size="11" fill="#333">{}</text>"##,
            num(h + 72.0 + LEGEND_ROW * (rows - 1) as f64),
            escape(&credit.join("; "))
        )
    });
    Legend {
        ground,
        title,
        powers,
        key,
        credit,
    }
}
