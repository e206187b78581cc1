//! A Diplomacy position drawn as SVG: land and sea, supply centres in their owners' colours,
//! units by power and kind, split coasts; Diadochi V's destroyed and restoring centres and
//! credit; a legend beneath. The orders of a result and the dislodged units over it are
//! `orders.rs`.

use std::fmt::Write;

use crate::diplomacy::adjudicate::outcome::RetreatOptions;
use crate::diplomacy::map::{Map, ProvinceId, RegionId, Terrain};
use crate::diplomacy::order::Location;
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::unit::UnitKind;
use crate::report::messages::Words;
use crate::tr;

use super::check::is_sea_in;
use super::geometry::Point;
use super::layout::{Layout, LinkKind};
pub use super::orders::{DrawnOrder, drawn_orders};
use super::partition::{Owner, Sheet};
use super::svg::{
    arrow_markers, centre_symbol, escape, label, lines_path, num, rings_path, tint, unit_symbol,
};

/// Colours of the map itself (the powers' are the variant's).
const SEA: &str = "#b9d7ea";
/// Under an abstract map (Pure's), which has no sea.
const PAPER: &str = "#fbf8f0";
const LAND: &str = "#f2ead3";
const VOID_LAND: &str = "#dcd6c8";
const IMPASSABLE: &str = "#a9a9a9";
const BORDER: &str = "#6b5a45";
pub(super) const FAILED: &str = "#c00";
/// The colour of a power the variant gives none.
const NO_COLOUR: &str = "#999999";
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

/// Where powers share colours (more than `palette::MOST_COLOURS` of them: Chaos's 34),
/// units carry their power's letter rather than A or F (the shape tells an army from a
/// fleet), and centres their owner's.
pub(super) fn power_mark(map: &Map, power: PowerId) -> Option<char> {
    (map.powers.len() > super::palette::MOST_COLOURS).then(|| map.power(power).letter)
}

/// The powers in each row of the legend, for a picture `w` wide.
fn legend_per_row(map: &Map, w: f64) -> usize {
    let n = map.powers.len();
    let longest = map
        .powers
        .iter()
        .map(|p| {
            p.name.chars().count()
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
fn legend_height(map: &Map, position: &Position, w: f64) -> f64 {
    let n = map.powers.len();
    let rows = n.div_ceil(legend_per_row(map, w)).max(1);
    let base = if position.credits.is_empty() {
        LEGEND
    } else {
        LEGEND_WITH_CREDIT
    };
    base + LEGEND_ROW * (rows - 1) as f64
}

/// What to draw: a board, with the orders of a phase and the retreats they left, if any.
pub struct Scene<'a> {
    pub map: &'a Map,
    pub layout: &'a Layout,
    pub position: &'a Position,
    /// The heading: game and phase.
    pub title: String,
    pub orders: Vec<DrawnOrder>,
    pub retreats: Vec<RetreatOptions>,
}

impl<'a> Scene<'a> {
    /// A board as it stands, with no orders drawn (a variant's start, or a game's phase
    /// being played, whose orders are secret).
    pub fn board(
        map: &'a Map,
        layout: &'a Layout,
        position: &'a Position,
        title: String,
    ) -> Scene<'a> {
        Scene {
            map,
            layout,
            position,
            title,
            orders: Vec::new(),
            retreats: Vec::new(),
        }
    }
}

/// The colour of `power`.
pub fn colour_of<'a>(map: &Map, layout: &'a Layout, power: PowerId) -> &'a str {
    layout
        .colours
        .get(&map.power(power).id)
        .map(String::as_str)
        .unwrap_or(NO_COLOUR)
}

/// Where things of a province go, in pixels.
pub(super) struct Spots<'a> {
    map: &'a Map,
    layout: &'a Layout,
    sheet: &'a Sheet,
}

impl Spots<'_> {
    pub(super) fn new<'a>(map: &'a Map, layout: &'a Layout, sheet: &'a Sheet) -> Spots<'a> {
        Spots { map, layout, sheet }
    }

    pub(super) fn unit(&self, province: ProvinceId) -> Point {
        self.layout
            .places
            .get(&self.map.province(province).id)
            .map(|p| self.layout.project(p.unit))
            .unwrap_or(Point::new(-50.0, -50.0))
    }

    pub(super) fn label(&self, province: ProvinceId) -> Point {
        let Some(place) = self.layout.places.get(&self.map.province(province).id) else {
            return Point::new(-50.0, -50.0);
        };
        let at = self.layout.project(place.label);
        if place.label == place.unit {
            Point::new(at.x, at.y - 13.0)
        } else {
            at
        }
    }

    pub(super) fn region(&self, region: RegionId) -> Point {
        let r = self.map.region(region);
        let place = self.layout.places.get(&self.map.province(r.province).id);
        match (place, &r.coast) {
            (Some(place), Some(coast)) => place
                .coasts
                .get(coast)
                .map(|c| self.layout.project(*c))
                .unwrap_or_else(|| self.unit(r.province)),
            _ => self.unit(r.province),
        }
    }

    pub(super) fn location(&self, at: &Location) -> Point {
        match at.coast {
            Some(region) => self.region(region),
            None => self.unit(at.province),
        }
    }

    /// A supply centre's marker: where the sheet puts it (`partition::centre_marks`: beside
    /// the unit, or below the label when the label has a place of its own).
    pub(super) fn centre(&self, province: ProvinceId) -> Point {
        match self.sheet.place(&self.map.province(province).id) {
            Some(i) => self.sheet.centre_marks[i],
            None => Point::new(-50.0, -50.0),
        }
    }
}

/// The scene as an SVG document, `layout`'s width wide.
pub fn draw(scene: &Scene, words: Words) -> String {
    let board = Board::new(scene);
    board.document(true, |out| {
        board.sea(out);
        board.seas(out);
        board.land(out, Lands::All);
        board.borders(out);
        board.links(out);
        board.centres(out, words);
        board.labels(out);
        board.on_top(out, words);
    })
}

/// Which land provinces `Board::land` draws.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Lands {
    /// Every one, each in its colour (and the land of no province).
    All,
    /// Those whose colour never changes (no supply centre, or impassable), and the land of no
    /// province.
    Unchanging,
    /// Only the province of the sheet's shape `i`, in white: its outline as a mask.
    Shape(usize),
}

/// A board's picture, group by group of the SVG in the order they are painted (`draw` writes
/// them all; `layers` paints the unchanging ones once per map).
pub(super) struct Board<'s, 'a> {
    pub(super) scene: &'s Scene<'a>,
    pub(super) sheet: &'a super::partition::Sheet,
    spots: Spots<'a>,
    /// The map's size, without the legend beneath.
    pub(super) w: f64,
    pub(super) h: f64,
    /// The legend's height.
    pub(super) legend: f64,
}

impl<'s, 'a> Board<'s, 'a> {
    pub(super) fn new(scene: &'s Scene<'a>) -> Board<'s, 'a> {
        let (map, layout) = (scene.map, scene.layout);
        let is_sea = is_sea_in(map);
        let sheet = layout.sheet(&is_sea);
        Board {
            scene,
            sheet,
            spots: Spots { map, layout, sheet },
            w: sheet.width,
            h: sheet.height,
            legend: legend_height(map, scene.position, sheet.width),
        }
    }

    /// A whole SVG document of the groups `paint` writes: opened with its size, title and
    /// the arrowheads orders use, or (not `titled`) with its size alone, the same for every
    /// board of the map.
    pub(super) fn document(&self, titled: bool, paint: impl FnOnce(&mut String)) -> String {
        let mut out = String::with_capacity(256 * 1024);
        if titled {
            self.open(&mut out);
        } else {
            self.open_untitled(&mut out);
        }
        paint(&mut out);
        out.push_str("</svg>");
        out
    }

    /// The document's opening: its size, title, and the arrowheads orders use.
    fn open(&self, out: &mut String) {
        self.open_untitled(out);
        let _ = write!(out, "<title>{}</title>", escape(&self.scene.title));
        arrow_markers(
            out,
            &[("head", "#222"), ("failed", FAILED), ("retreat", "#c00")],
        );
    }

    /// The document's opening, its size alone: the same for every board of a map.
    fn open_untitled(&self, out: &mut String) {
        let (w, h) = (self.w, self.h + self.legend);
        let _ = write!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="DejaVu Sans" font-weight="bold">"##,
            num(w),
            num(h),
            num(w),
            num(h)
        );
    }

    /// The sea under everything (paper, on an abstract map).
    pub(super) fn sea(&self, out: &mut String) {
        let fill = if self.scene.layout.is_abstract() {
            PAPER
        } else {
            SEA
        };
        let _ = write!(
            out,
            r##"<rect width="{}" height="{}" fill="{fill}"/>"##,
            num(self.w),
            num(self.h)
        );
    }

    fn province_of(&self, i: usize) -> Option<ProvinceId> {
        self.scene.map.province_by_id(&self.sheet.places[i])
    }

    pub(super) fn seas(&self, out: &mut String) {
        let (map, sheet) = (self.scene.map, self.sheet);
        out.push_str(r##"<g id="seas">"##);
        // Off-board boxes after the seas they stand in, outlined.
        for boxes in [false, true] {
            for (i, shape) in sheet.shapes.iter().enumerate() {
                if !sheet.water[i] || self.boxed(i) != boxes {
                    continue;
                }
                let Some(p) = self.province_of(i) else {
                    continue;
                };
                let outline = if boxes {
                    r##" stroke="#1d4f7a" stroke-width="1.5""##
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    r##"<path id="province-{}" class="sea" d="{}" fill="{SEA}"{outline}><title>{}</title></path>"##,
                    escape(&map.province(p).id),
                    rings_path(shape),
                    escape(&map.province(p).name)
                );
            }
        }
        out.push_str("</g>");
    }

    /// Whether the sheet's place `i` is an off-board box.
    fn boxed(&self, i: usize) -> bool {
        self.scene
            .layout
            .places
            .get(&self.sheet.places[i])
            .is_some_and(|place| place.boxed)
    }

    /// Whether the land province of the sheet's shape `i` changes colour with its owner.
    pub(super) fn changes_colour(&self, i: usize) -> bool {
        let map = self.scene.map;
        !self.sheet.water[i]
            && self.province_of(i).is_some_and(|p| {
                let province = map.province(p);
                province.terrain != Terrain::Impassable && province.centre.is_some()
            })
    }

    /// The colour of the land province of the sheet's shape `i` on this board.
    pub(super) fn land_colour(&self, i: usize) -> Option<String> {
        let (map, layout, position) = (self.scene.map, self.scene.layout, self.scene.position);
        let p = self.province_of(i)?;
        let province = map.province(p);
        Some(if province.terrain == Terrain::Impassable {
            IMPASSABLE.to_string()
        } else {
            match position.owners.get(p.index()).copied().flatten() {
                Some(owner) if province.centre.is_some() => {
                    tint(colour_of(map, layout, owner), 0.55)
                }
                _ => LAND.to_string(),
            }
        })
    }

    pub(super) fn land(&self, out: &mut String, which: Lands) {
        let (map, sheet) = (self.scene.map, self.sheet);
        out.push_str(r##"<g id="land">"##);
        if !matches!(which, Lands::Shape(_)) {
            let _ = write!(
                out,
                r##"<path d="{}" fill="{VOID_LAND}"/>"##,
                rings_path(&sheet.void_land)
            );
        }
        for (i, shape) in sheet.shapes.iter().enumerate() {
            if sheet.water[i] {
                continue;
            }
            let fill = match which {
                Lands::All => self.land_colour(i),
                Lands::Unchanging if !self.changes_colour(i) => self.land_colour(i),
                Lands::Shape(only) if only == i => Some("#fff".to_string()),
                _ => None,
            };
            let (Some(fill), Some(p)) = (fill, self.province_of(i)) else {
                continue;
            };
            let province = map.province(p);
            let _ = write!(
                out,
                r##"<path id="province-{}" class="land" d="{}" fill="{fill}" fill-rule="evenodd"><title>{}</title></path>"##,
                escape(&province.id),
                rings_path(shape),
                escape(&province.name)
            );
        }
        out.push_str("</g>");
    }

    pub(super) fn borders(&self, out: &mut String) {
        let mut land_borders = Vec::new();
        let mut sea_borders = Vec::new();
        for border in &self.sheet.borders {
            let list = if border.water {
                &mut sea_borders
            } else {
                &mut land_borders
            };
            if border.a != Owner::Void || border.b != Owner::Void {
                list.extend(border.pieces.iter().map(|(a, b)| [*a, *b]));
            }
        }
        // An abstract map's places share no border: each is outlined.
        let outlines: Vec<Vec<Point>> = if self.scene.layout.is_abstract() {
            self.sheet
                .shapes
                .iter()
                .flatten()
                .map(|ring| {
                    let mut closed = ring.clone();
                    closed.extend(ring.first().copied());
                    closed
                })
                .collect()
        } else {
            Vec::new()
        };
        let _ = write!(
            out,
            r##"<g id="borders" fill="none"><path d="{}" stroke="{BORDER}" stroke-width="1.2"/><path d="{}" stroke="#6f9fc0" stroke-width="1"/><path d="{}" stroke="#4a4a4a" stroke-width="1.2"/></g>"##,
            lines_path(
                land_borders
                    .iter()
                    .map(|s| &s[..])
                    .chain(outlines.iter().map(|l| &l[..]))
            ),
            lines_path(sea_borders.iter().map(|s| &s[..])),
            lines_path(self.sheet.coastline.iter().map(|l| &l[..])),
        );
    }

    /// Straits, roads and canals.
    pub(super) fn links(&self, out: &mut String) {
        let (map, layout, spots) = (self.scene.map, self.scene.layout, &self.spots);
        out.push_str(r##"<g id="links" fill="none">"##);
        for link in &layout.links {
            let (Some(a), Some(b)) = (map.province_by_id(&link.a), map.province_by_id(&link.b))
            else {
                continue;
            };
            let dash = match link.kind {
                LinkKind::Strait => "6 3",
                LinkKind::Road => "2 3",
            };
            let mut line: Vec<Point> = if link.at.len() >= 2 {
                link.at.iter().map(|p| layout.project(*p)).collect()
            } else {
                vec![spots.unit(a), spots.unit(b)]
            };
            // A strait a few pixels wide is drawn at least 14 pixels long, to be seen.
            if let [p, q] = line[..] {
                let d = p.distance(q);
                if d < 14.0 {
                    let mid = p.lerp(q, 0.5);
                    let (ux, uy) = if d < 1e-9 {
                        (1.0, 0.0)
                    } else {
                        ((q.x - p.x) / d, (q.y - p.y) / d)
                    };
                    line = vec![
                        Point::new(mid.x - ux * 7.0, mid.y - uy * 7.0),
                        Point::new(mid.x + ux * 7.0, mid.y + uy * 7.0),
                    ];
                }
            }
            let _ = write!(
                out,
                r##"<path class="link" d="{}" stroke="#7a3b00" stroke-width="3" stroke-dasharray="{dash}"><title>{}: {} - {}</title></path>"##,
                lines_path([&line[..]]),
                link.kind.word(),
                escape(&map.province(a).name),
                escape(&map.province(b).name)
            );
        }
        for province in &map.provinces {
            let Some(place) = layout.places.get(&province.id) else {
                continue;
            };
            if place.canal.len() < 2 {
                continue;
            }
            let canal: Vec<Point> = place.canal.iter().map(|c| layout.project(*c)).collect();
            let _ = write!(
                out,
                r##"<path class="canal" d="{}" stroke="#2b6cb0" stroke-width="2.5"><title>{}</title></path>"##,
                lines_path([&canal[..]]),
                escape(&province.name)
            );
        }
        out.push_str("</g>");
    }

    /// Supply centres and build sites in their owners' colours; destroyed and restoring
    /// centres (Diadochi V).
    pub(super) fn centres(&self, out: &mut String, words: Words) {
        let (map, layout, position, spots) = (
            self.scene.map,
            self.scene.layout,
            self.scene.position,
            &self.spots,
        );
        out.push_str(r##"<g id="centres">"##);
        for (i, province) in map.provinces.iter().enumerate() {
            let p = ProvinceId(i as u16);
            if province.centre.is_none() && !province.build_site {
                continue;
            }
            let at = spots.centre(p);
            let owner = position.owners.get(i).copied().flatten();
            let fill = owner.map(|o| colour_of(map, layout, o)).unwrap_or("#fff");
            if let Some(mark) = owner.and_then(|o| power_mark(map, o)) {
                label(
                    out,
                    Point::new(at.x + 9.0, at.y - 4.0),
                    &mark.to_string(),
                    9.0,
                    "#111",
                    "",
                );
            }
            if province.centre.is_some() {
                centre_symbol(out, at, fill);
            } else {
                let _ = write!(
                    out,
                    r##"<rect x="{}" y="{}" width="8" height="8" fill="{fill}" stroke="#222" stroke-width="1.5"/>"##,
                    num(at.x - 4.0),
                    num(at.y - 4.0)
                );
            }
            if position.destroyed.contains(&p) {
                let _ = write!(
                    out,
                    r##"<path class="destroyed" d="M{} {}L{} {}M{} {}L{} {}" stroke="#000" stroke-width="2.5"><title>{}</title></path>"##,
                    num(at.x - 7.0),
                    num(at.y - 7.0),
                    num(at.x + 7.0),
                    num(at.y + 7.0),
                    num(at.x + 7.0),
                    num(at.y - 7.0),
                    num(at.x - 7.0),
                    num(at.y + 7.0),
                    escape(&tr!(words, "map.destroyed", province = province.name))
                );
            }
            for r in position.restoring.iter().filter(|r| r.province == p) {
                let _ = write!(
                    out,
                    r##"<circle class="restoring" cx="{}" cy="{}" r="9" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="3 2"><title>{}</title></circle>"##,
                    num(at.x),
                    num(at.y),
                    colour_of(map, layout, r.power),
                    escape(&tr!(
                        words,
                        "map.restoring",
                        province = province.name,
                        power = map.power(r.power).name,
                        turns = r.turns
                    ))
                );
            }
        }
        out.push_str("</g>");
    }

    /// Each province's short name.
    pub(super) fn labels(&self, out: &mut String) {
        let (map, layout, spots) = (self.scene.map, self.scene.layout, &self.spots);
        out.push_str(r##"<g id="labels">"##);
        for (i, province) in map.provinces.iter().enumerate() {
            if !layout.places.contains_key(&province.id) {
                continue;
            }
            let at = spots.label(ProvinceId(i as u16));
            let short = short_name(&province.id);
            let fill = if province.terrain == Terrain::Sea {
                "#1d4f7a"
            } else {
                "#2b2118"
            };
            label(out, at, &short, 11.0, fill, "");
            // An off-board box names the boxes it borders beneath it.
            if layout.places[&province.id].boxed {
                let p = ProvinceId(i as u16);
                let others: Vec<String> = (0..map.n_provinces())
                    .map(|j| ProvinceId(j as u16))
                    .filter(|&q| {
                        q != p
                            && map.provinces_touch(p, q)
                            && layout
                                .places
                                .get(&map.province(q).id)
                                .is_some_and(|place| place.boxed)
                    })
                    .map(|q| short_name(&map.province(q).id))
                    .collect();
                let under = spots.unit(p);
                let at = Point::new(under.x, under.y + super::partition::BOX_HALF + 11.0);
                label(
                    out,
                    at,
                    &format!("\u{2194} {}", others.join(" ")),
                    9.0,
                    fill,
                    "",
                );
            }
        }
        out.push_str("</g>");
    }

    /// What stands on the board: orders, units, the dislodged with their retreats, and the
    /// legend beneath.
    pub(super) fn on_top(&self, out: &mut String, words: Words) {
        let (scene, spots) = (self.scene, &self.spots);
        let (map, layout, position) = (scene.map, scene.layout, scene.position);
        super::orders::draw_orders(out, scene, spots);

        out.push_str(r##"<g id="units">"##);
        for unit in &position.units {
            let at = spots.region(unit.region);
            let _ = write!(
                out,
                r##"<g class="unit" id="unit-{}" data-power="{}"><title>{} {} {}</title>"##,
                escape(&map.region_id(unit.region).replace('/', "-")),
                escape(&map.power(unit.power).id),
                escape(&map.power(unit.power).adjective),
                unit.kind.word(),
                escape(&map.region_name(unit.region))
            );
            unit_symbol(
                out,
                at,
                unit.kind == UnitKind::Fleet,
                colour_of(map, layout, unit.power),
                false,
                power_mark(map, unit.power),
            );
            out.push_str("</g>");
        }
        out.push_str("</g>");

        super::orders::draw_dislodged(out, scene, spots, words);
        draw_legend(out, scene, words, self.w, self.h);
    }
}

/// `stp` as `Stp`: the classic boards' abbreviations.
fn short_name(id: &str) -> String {
    let mut chars = id.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn draw_legend(out: &mut String, scene: &Scene, words: Words, w: f64, h: f64) {
    let (map, position) = (scene.map, scene.position);
    let _ = write!(
        out,
        r##"<g id="legend"><rect y="{}" width="{}" height="{}" fill="#fbf8f0"/><line x1="0" y1="{}" x2="{}" y2="{}" stroke="#444"/>"##,
        num(h),
        num(w),
        num(legend_height(map, position, w)),
        num(h),
        num(w),
        num(h)
    );
    let _ = write!(
        out,
        r##"<text x="10" y="{}" font-size="14" fill="#111">{}</text>"##,
        num(h + 20.0),
        escape(&scene.title)
    );
    let per_row = legend_per_row(map, w);
    let step = (w - 20.0) / per_row as f64;
    for (i, info) in map.powers.iter().enumerate() {
        let power = PowerId(i as u8);
        let x = 10.0 + step * (i % per_row) as f64;
        let y = h + LEGEND_ROW * (i / per_row) as f64;
        let colour = colour_of(map, scene.layout, power);
        let units = position.units.iter().filter(|u| u.power == power).count();
        let centres = position.centres_of(map, power);
        let _ = write!(
            out,
            r##"<g class="legend-power" data-power="{}">"##,
            escape(&info.id)
        );
        centre_symbol(out, Point::new(x + 6.0, y + 43.0), colour);
        let name = match power_mark(map, power) {
            Some(mark) => format!("{mark} {}", info.name),
            None => info.name.clone(),
        };
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="12" fill="#111">{}</text><text x="{}" y="{}" font-size="10" fill="#333">{}</text></g>"##,
            num(x + 16.0),
            num(y + 40.0),
            escape(&name),
            num(x + 16.0),
            num(y + 54.0),
            escape(&tr!(
                words,
                "map.legend_power",
                centres = centres,
                units = units
            ))
        );
    }
    let credit: Vec<String> = position
        .credits
        .iter()
        .map(|c| {
            tr!(
                words,
                "map.credit",
                lender = map.power(c.lender).name,
                borrower = map.power(c.borrower).name,
                amount = c.amount
            )
        })
        .collect();
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#333">{}</text>"##,
        num(w - 10.0),
        num(h + 20.0),
        escape(&tr!(words, "map.key"))
    );
    if !credit.is_empty() {
        let rows = map.powers.len().div_ceil(per_row).max(1);
        let _ = write!(
            out,
            r##"<text class="credit" x="10" y="{}" font-size="11" fill="#333">{}</text>"##,
            num(h + 72.0 + LEGEND_ROW * (rows - 1) as f64),
            escape(&credit.join("; "))
        );
    }
    out.push_str("</g>");
}
