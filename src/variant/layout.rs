//! A variant's `[map]` table checked into a `atlas::layout::Layout`: known provinces and
//! powers, longitudes and latitudes in range, links between known places. Shared by the
//! Diplomacy variants and the Here I Stand map file.

use crate::atlas::layout::{Frame, Layout, Link, LinkKind, LonLat, Place, Projection};

use super::file::MapFile;

fn lon_lat(pair: [f64; 2]) -> LonLat {
    LonLat {
        lon: pair[0],
        lat: pair[1],
    }
}

/// The layout of `file`, with each problem as `(key, message)`. `places` are the file's
/// place tables (`provinces` or `spaces`), `known_place` and `known_power` say which ids exist.
pub fn build_layout(
    file: &MapFile,
    table: &str,
    known_place: &dyn Fn(&str) -> bool,
    known_power: &dyn Fn(&str) -> bool,
) -> (Layout, Vec<(String, String)>) {
    let mut problems = Vec::new();
    let is_abstract = file.projection.as_deref() == Some("abstract");
    let frame = match &file.frame {
        Some(f) => Frame {
            west: f.west,
            east: f.east,
            south: f.south,
            north: f.north,
        },
        None => {
            problems.push((
                "map.frame".to_string(),
                "the map needs a frame = { west, east, south, north }".to_string(),
            ));
            Frame {
                west: 0.0,
                east: 1.0,
                south: 0.0,
                north: 1.0,
            }
        }
    };
    let f = &frame;
    let on_globe = f.south > -89.0
        && f.north < 89.0
        && f.west >= -540.0
        && f.east <= 540.0
        && f.east - f.west <= 400.0;
    if !(f.west < f.east && f.south < f.north && (is_abstract || on_globe)) {
        problems.push((
            "map.frame".to_string(),
            "the frame needs west < east (at most 400 degrees apart, within -540..540) and -89 < south < north < 89".to_string(),
        ));
    }
    let projection = match file.projection.as_deref() {
        None | Some("mercator") => Projection::Mercator,
        Some("equirectangular") => Projection::Equirectangular {
            parallel: (f.south + f.north) / 2.0,
        },
        Some("abstract") => Projection::Abstract,
        Some(other) => {
            problems.push((
                "map.projection".to_string(),
                format!("unknown projection {other:?}: mercator, equirectangular or abstract"),
            ));
            Projection::Mercator
        }
    };
    if projection == Projection::Mercator && (f.south < -85.0 || f.north > 85.0) {
        problems.push((
            "map.frame".to_string(),
            "a Mercator map stays within -85 < south < north < 85".to_string(),
        ));
    }
    let width = file.width.unwrap_or(1200.0);
    if !(200.0..=8000.0).contains(&width) {
        problems.push((
            "map.width".to_string(),
            "the width is 200 to 8000 pixels".to_string(),
        ));
    }
    for (power, colour) in &file.colours {
        if !known_power(power) {
            problems.push((format!("map.colours.{power}"), "no such power".to_string()));
        }
        let hex = colour.strip_prefix('#').unwrap_or("");
        if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            problems.push((
                format!("map.colours.{power}"),
                format!("{colour:?} is no colour: write #rrggbb"),
            ));
        }
    }
    let in_range = |p: &[f64; 2]| {
        is_abstract || (-540.0..=540.0).contains(&p[0]) && (-90.0..=90.0).contains(&p[1])
    };
    let places_file = if table == "spaces" {
        &file.spaces
    } else {
        &file.provinces
    };
    let mut places = std::collections::BTreeMap::new();
    for (id, place) in places_file {
        let key = format!("map.{table}.{id}");
        if !known_place(id) {
            problems.push((
                key.clone(),
                format!("no {} has this id", &table[..table.len() - 1]),
            ));
        }
        let sites: Vec<[f64; 2]> = place.at.iter().chain(place.sites.iter()).copied().collect();
        let Some(first) = sites.first().copied() else {
            problems.push((key, "a place needs a site: at = [lon, lat]".to_string()));
            continue;
        };
        let all = sites
            .iter()
            .chain(place.label.iter())
            .chain(place.unit.iter())
            .chain(place.coasts.values());
        if !all.clone().all(in_range) {
            problems.push((
                key.clone(),
                "longitude or latitude out of range".to_string(),
            ));
        }
        places.insert(
            id.clone(),
            Place {
                sites: sites.into_iter().map(lon_lat).collect(),
                label: lon_lat(place.label.unwrap_or(first)),
                unit: lon_lat(place.unit.or(place.label).unwrap_or(first)),
                coasts: place
                    .coasts
                    .iter()
                    .map(|(c, p)| (c.clone(), lon_lat(*p)))
                    .collect(),
                canal: place.canal.iter().copied().map(lon_lat).collect(),
                boxed: place.boxed,
            },
        );
    }
    let mut links = Vec::new();
    for (i, link) in file.links.iter().enumerate() {
        let key = format!("map.links[{i}]");
        let kind = LinkKind::from_word(&link.kind);
        let ends = link.between.split_once('-');
        match (kind, ends) {
            (Some(kind), Some((a, b))) if known_place(a) && known_place(b) => links.push(Link {
                a: a.to_string(),
                b: b.to_string(),
                kind,
                at: link.at.iter().copied().map(lon_lat).collect(),
            }),
            _ => problems.push((
                key,
                "a link is { between = \"a-b\", kind = \"strait\" or \"road\" } between known places"
                    .to_string(),
            )),
        }
    }
    let layout = Layout {
        projection: Some(projection),
        frame: Some(frame),
        width,
        colours: file.colours.clone(),
        places,
        links,
        void_land: file.void_land.iter().copied().map(lon_lat).collect(),
        void_sea: file.void_sea.iter().copied().map(lon_lat).collect(),
        sheet: Default::default(),
    };
    (layout, problems)
}
