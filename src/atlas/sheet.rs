//! The shapes of a map, in pixels (`Sheet`): each place's rings, the borders between places,
//! the coasts, the coastline, where centre markers go, and their SVG path data written once.
//! `partition` makes a sheet of a `Layout`.

use std::collections::BTreeMap;

use super::geometry::{Bounds, Point, Ring, lines_path, rings_path};

/// Who owns a site: a place (by its index in `Sheet::places`) or nobody (void).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Owner {
    Place(usize),
    Void,
}

/// A border drawn between two owners (`a < b`), with its pieces and their length.
#[derive(Clone, Debug)]
pub struct Border {
    pub a: Owner,
    pub b: Owner,
    pub water: bool,
    pub pieces: Vec<(Point, Point)>,
    pub length: f64,
}

impl Border {
    /// The middle of its longest piece.
    pub fn middle(&self) -> Option<Point> {
        self.pieces
            .iter()
            .max_by(|a, b| a.0.distance(a.1).total_cmp(&b.0.distance(b.1)))
            .map(|(a, b)| a.lerp(*b, 0.5))
    }
}

/// The shapes of a map, in pixels.
#[derive(Debug)]
pub struct Sheet {
    pub width: f64,
    pub height: f64,
    /// The place ids, in the order owners refer to.
    pub places: Vec<String>,
    /// Whether each place is water.
    pub water: Vec<bool>,
    /// The land, clipped to the frame.
    pub land: Vec<Ring>,
    /// The rings of each place: land pieces (fill even-odd) or water cells.
    pub shapes: Vec<Vec<Vec<Point>>>,
    /// Land outside play.
    pub void_land: Vec<Vec<Point>>,
    pub borders: Vec<Border>,
    /// Coastline length shared by a land place and a water place: `(land, water) -> pixels`.
    pub coasts: BTreeMap<(usize, usize), f64>,
    /// A point of each such coast.
    pub coast_points: BTreeMap<(usize, usize), Point>,
    /// Coastline (not the frame's edge) to draw, as polylines.
    pub coastline: Vec<Vec<Point>>,
    /// Where each place's supply-centre marker goes (`centre_marks`).
    pub centre_marks: Vec<Point>,
    /// The shapes and lines as SVG path data, written on first use and kept.
    pub(super) written: Written,
}

/// A sheet's shapes and lines as SVG path data: every picture of the map writes the same
/// numbers (the coastline's twenty thousand of them), so they are written once.
#[derive(Debug, Default)]
pub(super) struct Written {
    shapes: std::sync::OnceLock<Vec<String>>,
    void_land: std::sync::OnceLock<String>,
    /// Land borders, sea borders, the coastline.
    lines: std::sync::OnceLock<[String; 3]>,
}

impl Sheet {
    /// The path data of shape `i` (`svg::rings_path`).
    pub fn shape_path(&self, i: usize) -> &str {
        let paths = self
            .written
            .shapes
            .get_or_init(|| self.shapes.iter().map(|s| rings_path(s)).collect());
        paths.get(i).map_or("", String::as_str)
    }

    /// The path data of the land outside play.
    pub fn void_land_path(&self) -> &str {
        self.written
            .void_land
            .get_or_init(|| rings_path(&self.void_land))
    }

    /// The path data of the borders between land places, those between water places, and
    /// the coastline.
    pub fn line_paths(&self) -> &[String; 3] {
        self.written.lines.get_or_init(|| {
            let mut land_borders = Vec::new();
            let mut sea_borders = Vec::new();
            for border in &self.borders {
                let list = if border.water {
                    &mut sea_borders
                } else {
                    &mut land_borders
                };
                if border.a != Owner::Void || border.b != Owner::Void {
                    list.extend(border.pieces.iter().map(|(a, b)| [*a, *b]));
                }
            }
            [
                lines_path(land_borders.iter().map(|s| &s[..])),
                lines_path(sea_borders.iter().map(|s| &s[..])),
                lines_path(self.coastline.iter().map(|l| &l[..])),
            ]
        })
    }

    /// The index of place `id`.
    pub fn place(&self, id: &str) -> Option<usize> {
        self.places.iter().position(|p| p == id)
    }

    /// The bounds of a place's shape.
    pub fn bounds_of(&self, place: usize) -> Option<Bounds> {
        let points: Vec<Point> = self.shapes[place].iter().flatten().copied().collect();
        (!points.is_empty()).then(|| Bounds::of(&points))
    }
}
