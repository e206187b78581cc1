//! A Diplomacy position drawn as SVG: land and sea, supply centres in their owners' colours,
//! units by power and kind, split coasts; Diadochi V's destroyed and restoring centres and
//! credit; the legend beneath (`legend.rs`). The orders of a result and the dislodged units
//! over it are `orders.rs`; what a picture shows and where things go, `scene.rs`.

use std::fmt::Write;

use crate::diplomacy::map::{ProvinceId, Terrain};
use crate::diplomacy::unit::UnitKind;
use crate::report::messages::Words;
use crate::tr;

use super::check::is_sea_in;
use super::legend::{Legend, legend, legend_height, write_legend};
use super::scene::{FAILED, Scene, Spots, colour_of, power_mark};
use super::svg::{arrow_markers, centre_symbol, escape, label, lines_path, num, tint, unit_symbol};
use crate::atlas::geometry::Point;
use crate::atlas::layout::LinkKind;

/// Colours of the map itself (the powers' are the variant's).
const SEA: &str = "#b9d7ea";
/// Under an abstract map (Pure's), which has no sea.
const PAPER: &str = "#fbf8f0";
const LAND: &str = "#f2ead3";
const VOID_LAND: &str = "#dcd6c8";
const IMPASSABLE: &str = "#a9a9a9";
const BORDER: &str = "#6b5a45";

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
    pub(super) sheet: &'a crate::atlas::sheet::Sheet,
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
            spots: Spots::new(map, layout, sheet),
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
        Self::markers(out);
    }

    /// The arrowheads orders use.
    fn markers(out: &mut String) {
        arrow_markers(
            out,
            &[("head", "#222"), ("failed", FAILED), ("retreat", "#c00")],
        );
    }

    /// A document of the board's size, with the arrowheads but no title (the same for every
    /// board of a map), holding what `paint` writes: an order painted alone.
    pub(super) fn marked_document(&self, paint: impl FnOnce(&mut String)) -> String {
        let mut out = String::with_capacity(4096);
        self.open_untitled(&mut out);
        Self::markers(&mut out);
        paint(&mut out);
        out.push_str("</svg>");
        out
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
            for i in 0..sheet.shapes.len() {
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
                    sheet.shape_path(i),
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
                sheet.void_land_path()
            );
        }
        for i in 0..sheet.shapes.len() {
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
                sheet.shape_path(i),
                escape(&province.name)
            );
        }
        out.push_str("</g>");
    }

    pub(super) fn borders(&self, out: &mut String) {
        let [land_borders, sea_borders, coastline] = self.sheet.line_paths();
        // An abstract map's places share no border: each is outlined.
        let outlines = if self.scene.layout.is_abstract() {
            let rings: Vec<Vec<Point>> = self
                .sheet
                .shapes
                .iter()
                .flatten()
                .map(|ring| {
                    let mut closed = ring.clone();
                    closed.extend(ring.first().copied());
                    closed
                })
                .collect();
            lines_path(rings.iter().map(|l| &l[..]))
        } else {
            String::new()
        };
        let land_borders = match (land_borders.is_empty(), outlines.is_empty()) {
            (_, true) => land_borders.clone(),
            (true, false) => outlines,
            (false, false) => format!("{land_borders}{outlines}"),
        };
        let _ = write!(
            out,
            r##"<g id="borders" fill="none"><path d="{land_borders}" stroke="{BORDER}" stroke-width="1.2"/><path d="{sea_borders}" stroke="#6f9fc0" stroke-width="1"/><path d="{coastline}" stroke="#4a4a4a" stroke-width="1.2"/></g>"##,
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
        out.push_str(r##"<g id="centres">"##);
        for piece in self.centre_pieces(words) {
            out.push_str(&piece.svg);
        }
        out.push_str("</g>");
    }

    /// Where each supply centre or build site stands (its piece reaches `PIECE_REACH` from
    /// there): the same on every board of the map.
    pub(super) fn centre_points(&self) -> Vec<Point> {
        let map = self.scene.map;
        (0..map.provinces.len())
            .filter(|i| map.provinces[*i].centre.is_some() || map.provinces[*i].build_site)
            .map(|i| self.spots.centre(ProvinceId(i as u16)))
            .collect()
    }

    /// Each supply centre or build site with its marks, a piece standing at its point.
    pub(super) fn centre_pieces(&self, words: Words) -> Vec<Piece> {
        let (map, layout, position, spots) = (
            self.scene.map,
            self.scene.layout,
            self.scene.position,
            &self.spots,
        );
        let mut pieces = Vec::new();
        for (i, province) in map.provinces.iter().enumerate() {
            let p = ProvinceId(i as u16);
            if province.centre.is_none() && !province.build_site {
                continue;
            }
            let mut out = String::new();
            let at = spots.centre(p);
            let owner = position.owners.get(i).copied().flatten();
            let fill = owner.map(|o| colour_of(map, layout, o)).unwrap_or("#fff");
            if let Some(mark) = owner.and_then(|o| power_mark(map, o)) {
                label(
                    &mut out,
                    Point::new(at.x + 9.0, at.y - 4.0),
                    &mark.to_string(),
                    9.0,
                    "#111",
                    "",
                );
            }
            if province.centre.is_some() {
                centre_symbol(&mut out, at, fill);
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
                    escape(&tr!(
                        words,
                        "map.destroyed",
                        province = province.name_in(words.language())
                    ))
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
                        province = province.name_in(words.language()),
                        power = map.power(r.power).name_in(words.language()),
                        turns = r.turns
                    ))
                );
            }
            pieces.push(Piece { at, svg: out });
        }
        pieces
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
                let at = Point::new(under.x, under.y + crate::atlas::partition::BOX_HALF + 11.0);
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
        self.on_the_map(out, words);
        write_legend(out, &self.legend(words));
    }

    /// What stands on the map: orders, units, the dislodged with their retreats.
    pub(super) fn on_the_map(&self, out: &mut String, words: Words) {
        self.orders(out);
        out.push_str(r##"<g id="units">"##);
        for piece in self.unit_pieces() {
            out.push_str(&piece.svg);
        }
        out.push_str("</g>");
        self.dislodged(out, words);
    }

    /// The orders with what came of them.
    pub(super) fn orders(&self, out: &mut String) {
        super::orders::draw_orders(out, self.scene, &self.spots);
    }

    /// Each order alone (`orders::order_pieces`).
    pub(super) fn order_pieces(&self) -> Vec<String> {
        super::orders::order_pieces(self.scene, &self.spots)
    }

    /// The units dislodged, with their retreats.
    pub(super) fn dislodged(&self, out: &mut String, words: Words) {
        super::orders::draw_dislodged(out, self.scene, &self.spots, words);
    }

    /// Each unit, a piece standing where it is.
    pub(super) fn unit_pieces(&self) -> Vec<Piece> {
        let (scene, spots) = (self.scene, &self.spots);
        let (map, layout, position) = (scene.map, scene.layout, scene.position);
        position
            .units
            .iter()
            .map(|unit| {
                let at = spots.region(unit.region);
                let mut out = String::new();
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
                    &mut out,
                    at,
                    unit.kind == UnitKind::Fleet,
                    colour_of(map, layout, unit.power),
                    false,
                    power_mark(map, unit.power),
                );
                out.push_str("</g>");
                Piece { at, svg: out }
            })
            .collect()
    }

    /// The legend beneath the map, in pieces.
    pub(super) fn legend(&self, words: Words) -> Legend {
        legend(self.scene, words, self.w, self.h)
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

/// A piece of the picture (a centre with its marks, a unit) and the point it stands at: it
/// reaches at most `PIECE_REACH` pixels from it, so `layers` can paint it alone and keep it.
pub(super) struct Piece {
    pub at: Point,
    pub svg: String,
}

/// How far a piece reaches from its point (a fleet is 24 pixels wide, a restoring centre's
/// ring 9 pixels round, a centre's power letter 16 pixels to its right, with their strokes).
pub(super) const PIECE_REACH: f64 = 20.0;
