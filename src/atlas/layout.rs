//! What a variant file says about its map: the projection and frame, one colour per power,
//! and for each province (or Here I Stand space) its sites, label, unit and coast points in
//! longitude and latitude; the links drawn across water; the land and water outside play.
//!
//! This is data, with the projection that lays it on the picture; `partition` makes its shapes
//! (the `Sheet` kept here once made), `drawing::check` compares them with the rules.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

pub use super::geography::LonLat;
use super::geometry::Point;
use super::sheet::Sheet;

/// How the globe is laid flat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    /// Mercator: angles kept, the north stretched (the look of most Diplomacy boards).
    Mercator,
    /// Longitude scaled by the cosine of `parallel`, latitude as it is.
    Equirectangular { parallel: f64 },
    /// No geography: sites are points of a plane (`lon` east, `lat` north, in any unit the
    /// frame uses) and each place is a disc round its site, its borders drawn as links
    /// (Pure's seven spaces, every one touching every other).
    Abstract,
}

/// The part of the globe drawn, in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub west: f64,
    pub east: f64,
    pub south: f64,
    pub north: f64,
}

/// Where a province (or space) is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// The points whose nearest land (or water) is the province's; at least one.
    pub sites: Vec<LonLat>,
    /// Where its name goes.
    pub label: LonLat,
    /// Where a unit stands (on a split-coast province, an army).
    pub unit: LonLat,
    /// Where a fleet stands on each named coast.
    pub coasts: BTreeMap<String, LonLat>,
    /// A canal through the province, drawn as a line (Diadochi V's Alexandria, Athens).
    pub canal: Vec<LonLat>,
    /// An off-board box (Youngstown's): a sea of no geography, drawn as a square at its
    /// first site, inside the sea it borders, with the boxes it borders named beneath.
    pub boxed: bool,
}

/// What a link drawn across water or land is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// A strait: armies and fleets cross it (Diadochi V's Gibraltar, Messina...).
    Strait,
    /// A road: armies only (Diadochi V's Via Maris).
    Road,
}

impl LinkKind {
    pub fn word(self) -> &'static str {
        match self {
            LinkKind::Strait => "strait",
            LinkKind::Road => "road",
        }
    }

    pub fn from_word(word: &str) -> Option<LinkKind> {
        match word {
            "strait" => Some(LinkKind::Strait),
            "road" => Some(LinkKind::Road),
            _ => None,
        }
    }
}

/// A border of the rules drawn as a line between two places rather than as a shared edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub a: String,
    pub b: String,
    pub kind: LinkKind,
    /// Where it is drawn, if not between the two places' unit points.
    pub at: Vec<LonLat>,
}

/// A variant's map as data; its shapes are computed on first use and kept.
#[derive(Debug, Default)]
pub struct Layout {
    pub projection: Option<Projection>,
    pub frame: Option<Frame>,
    /// The picture's width in pixels; its height follows from the projection.
    pub width: f64,
    /// `#rrggbb` per power id.
    pub colours: BTreeMap<String, String>,
    /// Per province id (Diplomacy) or space id (Here I Stand).
    pub places: BTreeMap<String, Place>,
    pub links: Vec<Link>,
    /// Sites of land that belongs to no province (beyond the edge of play).
    pub void_land: Vec<LonLat>,
    /// Sites of water that belongs to no sea province (lakes, gulfs beyond play).
    pub void_sea: Vec<LonLat>,
    #[doc(hidden)]
    pub sheet: OnceLock<Arc<Sheet>>,
}

impl Clone for Layout {
    fn clone(&self) -> Layout {
        Layout {
            projection: self.projection,
            frame: self.frame,
            width: self.width,
            colours: self.colours.clone(),
            places: self.places.clone(),
            links: self.links.clone(),
            void_land: self.void_land.clone(),
            void_sea: self.void_sea.clone(),
            sheet: OnceLock::new(),
        }
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.same_shapes(other) && self.colours == other.colours
    }
}

impl Layout {
    /// Whether the two layouts make the same shapes (their colours aside): variants made
    /// from one map (France-Austria, Chaos) share its `Sheet`.
    pub fn same_shapes(&self, other: &Layout) -> bool {
        self.projection == other.projection
            && self.frame == other.frame
            && self.width == other.width
            && self.places == other.places
            && self.links == other.links
            && self.void_land == other.void_land
            && self.void_sea == other.void_sea
    }
}

impl Layout {
    fn projection(&self) -> Projection {
        self.projection.unwrap_or(Projection::Mercator)
    }

    /// The frame, or the default one when none was given.
    pub fn frame_or_default(&self) -> Frame {
        self.frame()
    }

    fn frame(&self) -> Frame {
        self.frame.unwrap_or(Frame {
            west: -12.0,
            east: 45.0,
            south: 30.0,
            north: 71.0,
        })
    }

    /// Whether the map is a plane with no geography (`Projection::Abstract`).
    pub fn is_abstract(&self) -> bool {
        self.projection() == Projection::Abstract
    }

    /// `lon` moved by whole turns of the globe to the copy nearest the frame's middle, so a
    /// map whose frame crosses the antimeridian takes places written either way round.
    pub fn wrapped(&self, lon: f64) -> f64 {
        if self.is_abstract() {
            return lon;
        }
        let f = self.frame();
        let middle = (f.west + f.east) / 2.0;
        lon - ((lon - middle) / 360.0).round() * 360.0
    }

    /// Every copy of `lon`, a whole number of turns of the globe apart, that falls within
    /// the frame (or `margin` degrees of it): one on most maps, two in the strip a map that
    /// goes all the way round draws twice.
    pub fn copies(&self, lon: f64, margin: f64) -> Vec<f64> {
        if self.is_abstract() {
            return vec![lon];
        }
        let f = self.frame();
        let out: Vec<f64> = (-2..=2)
            .map(|k| lon + 360.0 * f64::from(k))
            .filter(|l| (f.west - margin..=f.east + margin).contains(l))
            .collect();
        if out.is_empty() {
            vec![self.wrapped(lon)]
        } else {
            out
        }
    }

    /// Projected, unscaled coordinates (x east, y north).
    fn raw(&self, p: LonLat) -> (f64, f64) {
        match self.projection() {
            Projection::Abstract => (p.lon, p.lat),
            Projection::Mercator => {
                let lat = p.lat.clamp(-85.0, 85.0).to_radians();
                (
                    p.lon.to_radians(),
                    (std::f64::consts::FRAC_PI_4 + lat / 2.0).tan().ln(),
                )
            }
            Projection::Equirectangular { parallel } => (
                p.lon.to_radians() * parallel.to_radians().cos(),
                p.lat.to_radians(),
            ),
        }
    }

    fn scale(&self) -> (f64, (f64, f64), (f64, f64)) {
        let f = self.frame();
        let (x0, y0) = self.raw(LonLat {
            lon: f.west,
            lat: f.south,
        });
        let (x1, y1) = self.raw(LonLat {
            lon: f.east,
            lat: f.north,
        });
        (self.width / (x1 - x0), (x0, y0), (x1, y1))
    }

    /// The picture's size in pixels.
    pub fn size(&self) -> (f64, f64) {
        let (k, (_, y0), (_, y1)) = self.scale();
        (self.width, ((y1 - y0) * k).round())
    }

    /// Where `p` falls in the picture (its copy nearest the frame's middle: `wrapped`).
    pub fn project(&self, p: LonLat) -> Point {
        self.project_exact(LonLat {
            lon: self.wrapped(p.lon),
            lat: p.lat,
        })
    }

    /// Where `p` falls in the picture, its longitude taken as it is.
    pub fn project_exact(&self, p: LonLat) -> Point {
        let (k, (x0, _), (_, y1)) = self.scale();
        let (x, y) = self.raw(p);
        Point::new((x - x0) * k, (y1 - y) * k)
    }

    /// The place on the globe drawn at `p`.
    pub fn unproject(&self, p: Point) -> LonLat {
        let (k, (x0, _), (_, y1)) = self.scale();
        let (x, y) = (p.x / k + x0, y1 - p.y / k);
        match self.projection() {
            Projection::Abstract => LonLat { lon: x, lat: y },
            Projection::Mercator => LonLat {
                lon: x.to_degrees(),
                lat: y.sinh().atan().to_degrees(),
            },
            Projection::Equirectangular { parallel } => LonLat {
                lon: (x / parallel.to_radians().cos()).to_degrees(),
                lat: y.to_degrees(),
            },
        }
    }
}
