//! The land: Natural Earth's 1:50m land polygons for Europe, the Mediterranean and the Near
//! East (public domain), as `geography/extract.py` writes them in `geography/land.txt`, which
//! is compiled in. Each line is a ring, `outer` or `hole` (the Caspian), of `lon,lat` pairs.

use std::sync::OnceLock;

use super::layout::LonLat;

/// The text of `geography/land.txt`.
pub const LAND_TEXT: &str = include_str!("../../geography/land.txt");

/// A ring of the land as read: whether it is a hole, and its points.
#[derive(Debug)]
pub struct LandRing {
    pub hole: bool,
    pub points: Vec<LonLat>,
}

/// The land rings of `text` (lines of `outer`/`hole` and `lon,lat` pairs; `#` comments).
pub fn read_land(text: &str) -> Vec<LandRing> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let hole = words.next()? == "hole";
            let points = words
                .filter_map(|pair| {
                    let (lon, lat) = pair.split_once(',')?;
                    Some(LonLat {
                        lon: lon.parse().ok()?,
                        lat: lat.parse().ok()?,
                    })
                })
                .collect();
            Some(LandRing { hole, points })
        })
        .collect()
}

/// The compiled-in land, read once.
pub fn land() -> &'static [LandRing] {
    static LAND: OnceLock<Vec<LandRing>> = OnceLock::new();
    LAND.get_or_init(|| read_land(LAND_TEXT))
}
