//! The land: Natural Earth's 1:50m land polygons of the whole world (public domain), as
//! `geography/extract.py` writes them in `geography/land.txt`, which is compiled in. Each
//! line is a ring, `outer` or `hole` (the Caspian), of `lon,lat` pairs; a ring that crosses
//! the antimeridian runs on east of +180 (Chukotka at -170 is written 190).

use std::sync::OnceLock;

/// A place on the globe: longitude and latitude in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LonLat {
    pub lon: f64,
    pub lat: f64,
}

/// The text of `geography/land.txt`.
pub const LAND_TEXT: &str = include_str!("../../geography/land.txt");

/// A ring of the land as read: whether it is a hole, its points, and the box round them
/// (so a map skips at once the rings far from its frame).
#[derive(Debug)]
pub struct LandRing {
    pub hole: bool,
    pub points: Vec<LonLat>,
    pub west: f64,
    pub east: f64,
    pub south: f64,
    pub north: f64,
}

/// The land rings of `text` (lines of `outer`/`hole` and `lon,lat` pairs; `#` comments).
pub fn read_land(text: &str) -> Vec<LandRing> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let hole = words.next()? == "hole";
            let points: Vec<LonLat> = words
                .filter_map(|pair| {
                    let (lon, lat) = pair.split_once(',')?;
                    Some(LonLat {
                        lon: lon.parse().ok()?,
                        lat: lat.parse().ok()?,
                    })
                })
                .collect();
            let (mut west, mut east) = (f64::INFINITY, f64::NEG_INFINITY);
            let (mut south, mut north) = (f64::INFINITY, f64::NEG_INFINITY);
            for p in &points {
                west = west.min(p.lon);
                east = east.max(p.lon);
                south = south.min(p.lat);
                north = north.max(p.lat);
            }
            Some(LandRing {
                hole,
                points,
                west,
                east,
                south,
                north,
            })
        })
        .collect()
}

/// The compiled-in land, read once.
pub fn land() -> &'static [LandRing] {
    static LAND: OnceLock<Vec<LandRing>> = OnceLock::new();
    LAND.get_or_init(|| read_land(LAND_TEXT))
}
