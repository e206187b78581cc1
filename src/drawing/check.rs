//! The picture never lies about the rules: the drawn map compared with the variant's borders.
//!
//! Two provinces drawn with a shared border (land border, sea border or coastline at least
//! `LEAST_BORDER` of the picture's width long: 4 pixels in 1,200) must have a border in the rules, an army's or a fleet's; every
//! border of the rules must be drawn, as a shared border or as a link (strait, road); every
//! province must have a place with some land (or water) of its own. Impassable provinces
//! may touch anything: nothing moves there, and they are drawn as such. Every power needs a
//! colour, and the colours must stay apart for colour-blind readers (`palette`).

use crate::diplomacy::map::{Map, ProvinceId, Terrain};

use super::scene::Spots;
use crate::atlas::geometry::{Point, distance_outside};
use crate::atlas::layout::{Layout, LinkKind};
use crate::atlas::partition::{LEAST_BORDER, NEAR_ENOUGH};
use crate::atlas::sheet::{Owner, Sheet};

/// One difference between the picture and the rules, written with the provinces' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch(pub String);

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether a province of `map` is water (for `Layout::sheet`).
pub fn is_sea_in(map: &Map) -> impl Fn(&str) -> bool + '_ {
    move |id: &str| {
        map.province_by_id(id)
            .is_some_and(|p| map.province(p).terrain == Terrain::Sea)
    }
}

/// Every mismatch between `layout` drawn and `map`'s borders; none for a true picture.
pub fn check_map(map: &Map, layout: &Layout) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let name = |p: ProvinceId| map.province(p).name.clone();
    for p in (0..map.n_provinces()).map(|i| ProvinceId(i as u16)) {
        if !layout.places.contains_key(&map.province(p).id) {
            out.push(Mismatch(format!("{} has no place on the map", name(p))));
        }
    }
    if !out.is_empty() {
        return out;
    }
    let is_sea = is_sea_in(map);
    let sheet: &Sheet = layout.sheet(&is_sea);
    let province = |i: usize| map.province_by_id(&sheet.places[i]);
    let least = LEAST_BORDER * sheet.width;
    for (i, shape) in sheet.shapes.iter().enumerate() {
        if shape.is_empty() {
            let p = province(i).expect("places are provinces");
            out.push(Mismatch(format!(
                "{} gets no {} of its own: move its sites",
                name(p),
                if sheet.water[i] { "water" } else { "land" }
            )));
        }
    }
    let impassable = |p: ProvinceId| map.province(p).terrain == Terrain::Impassable;
    // A unit or a supply centre drawn in another province (or at sea) would say it is there:
    // each must stand in its own province, or within `NEAR_ENOUGH` of it.
    let spots = Spots::new(map, layout, sheet);
    let near_enough = NEAR_ENOUGH * sheet.width;
    for i in 0..sheet.shapes.len() {
        let Some(p) = province(i) else { continue };
        if impassable(p) || sheet.shapes[i].is_empty() {
            continue;
        }
        let mut outside = |what: &str, at: Point| {
            let away = distance_outside(&sheet.shapes[i], at);
            if away > near_enough {
                let near = layout.unproject(at);
                out.push(Mismatch(format!(
                    "{}'s {what} is drawn outside it ({away:.0} px, near {:.1}, {:.1}): move it into the province",
                    name(p),
                    near.lon,
                    near.lat
                )));
            }
        };
        outside("unit", spots.unit(p));
        if let Some(place) = layout.places.get(&map.province(p).id) {
            for (coast, at) in &place.coasts {
                outside(&format!("fleet point for /{coast}"), layout.project(*at));
            }
        }
        if map.province(p).centre.is_some() {
            outside("supply centre", spots.centre(p));
        }
    }
    let mut drawn: Vec<(ProvinceId, ProvinceId, f64, &str, Option<Point>)> = Vec::new();
    for border in &sheet.borders {
        if let (Owner::Place(a), Owner::Place(b)) = (border.a, border.b)
            && let (Some(a), Some(b)) = (province(a), province(b))
            && border.length >= least
        {
            let what = if border.water {
                "sea border"
            } else {
                "land border"
            };
            drawn.push((a, b, border.length, what, border.middle()));
        }
    }
    for (&(l, w), &length) in &sheet.coasts {
        if length >= least
            && let (Some(a), Some(b)) = (province(l), province(w))
        {
            drawn.push((
                a,
                b,
                length,
                "coast",
                sheet.coast_points.get(&(l, w)).copied(),
            ));
        }
    }
    for &(a, b, length, what, at) in &drawn {
        if impassable(a) || impassable(b) || map.provinces_touch(a, b) {
            continue;
        }
        let near = at
            .map(|p| layout.unproject(p))
            .map(|p| format!(", near {:.1}, {:.1}", p.lon, p.lat))
            .unwrap_or_default();
        out.push(Mismatch(format!(
            "{} and {} share a drawn {what} ({length:.0} px{near}) but no unit can move between them",
            name(a),
            name(b)
        )));
    }
    let linked = |a: ProvinceId, b: ProvinceId| {
        layout.links.iter().any(|l| {
            let (x, y) = (map.province_by_id(&l.a), map.province_by_id(&l.b));
            (x, y) == (Some(a), Some(b)) || (x, y) == (Some(b), Some(a))
        })
    };
    for link in &layout.links {
        let (Some(a), Some(b)) = (map.province_by_id(&link.a), map.province_by_id(&link.b)) else {
            continue;
        };
        if !map.provinces_touch(a, b) {
            out.push(Mismatch(format!(
                "the {} drawn between {} and {} is no border of the rules",
                link.kind.word(),
                name(a),
                name(b)
            )));
        } else if link.kind == LinkKind::Road && !map.army_neighbours[a.index()].contains(&b) {
            out.push(Mismatch(format!(
                "the road drawn between {} and {} is no army border",
                name(a),
                name(b)
            )));
        }
    }
    // Where powers share colours (more than MOST_COLOURS powers, told apart by their
    // letters), the colours used must still stay apart: each is checked once.
    let mut colours: Vec<(&str, &str)> = layout
        .colours
        .iter()
        .map(|(power, colour)| (power.as_str(), colour.as_str()))
        .collect();
    if map.powers.len() > super::palette::MOST_COLOURS {
        let mut seen = std::collections::BTreeSet::new();
        colours.retain(|(_, c)| seen.insert(c.to_ascii_lowercase()));
    }
    for (sight, a, b, d) in super::palette::too_alike(&colours) {
        out.push(Mismatch(format!(
            "the colours of {a} and {b} are too alike for readers with {sight} (difference {d:.0}, at least {} wanted)",
            super::palette::LEAST_DIFFERENCE
        )));
    }
    for power in &map.powers {
        if !layout.colours.contains_key(&power.id) {
            out.push(Mismatch(format!("{} has no colour", power.name)));
        }
    }
    let n = map.n_provinces();
    for a in (0..n).map(|i| ProvinceId(i as u16)) {
        for b in (a.0 as usize + 1..n).map(|i| ProvinceId(i as u16)) {
            if !map.provinces_touch(a, b) && !map.provinces_touch(b, a) {
                continue;
            }
            let shown = drawn
                .iter()
                .any(|&(x, y, _, _, _)| (x, y) == (a, b) || (x, y) == (b, a));
            // Off-board boxes name the boxes they border beneath them.
            let boxed = |p: ProvinceId| {
                layout
                    .places
                    .get(&map.province(p).id)
                    .is_some_and(|place| place.boxed)
            };
            let boxes = boxed(a) && boxed(b);
            if !(shown || linked(a, b) || boxes) {
                out.push(Mismatch(format!(
                    "{} and {} border in the rules but are not drawn together",
                    name(a),
                    name(b)
                )));
            }
        }
    }
    out
}
