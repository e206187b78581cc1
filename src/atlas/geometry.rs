//! Plane geometry for maps: points in picture coordinates (pixels, y down), convex cells and
//! their clipping, segments against rings, and path data as SVG writes it (numbers with one
//! decimal).

use std::fmt::Write;

/// A point of the picture, in pixels from its top left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    pub fn distance2(self, other: Point) -> f64 {
        let (dx, dy) = (self.x - other.x, self.y - other.y);
        dx * dx + dy * dy
    }

    pub fn distance(self, other: Point) -> f64 {
        self.distance2(other).sqrt()
    }

    /// The point `t` of the way from `self` to `other`.
    pub fn lerp(self, other: Point, t: f64) -> Point {
        Point::new(
            self.x + (other.x - self.x) * t,
            self.y + (other.y - self.y) * t,
        )
    }
}

/// A rectangle `[x0, x1] × [y0, y1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Bounds {
    pub fn of(points: &[Point]) -> Bounds {
        let mut b = Bounds {
            x0: f64::INFINITY,
            y0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y1: f64::NEG_INFINITY,
        };
        for p in points {
            b.x0 = b.x0.min(p.x);
            b.y0 = b.y0.min(p.y);
            b.x1 = b.x1.max(p.x);
            b.y1 = b.y1.max(p.y);
        }
        b
    }

    pub fn overlaps(&self, other: &Bounds) -> bool {
        self.x0 <= other.x1 && other.x0 <= self.x1 && self.y0 <= other.y1 && other.y0 <= self.y1
    }
}

/// A closed ring of points (the last joins the first), with its bounds.
#[derive(Clone, Debug)]
pub struct Ring {
    pub points: Vec<Point>,
    pub bounds: Bounds,
}

impl Ring {
    pub fn new(points: Vec<Point>) -> Ring {
        let bounds = Bounds::of(&points);
        Ring { points, bounds }
    }

    /// The ring's edges, each once.
    pub fn edges(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    /// Whether a ray from `p` to the right crosses this ring an odd number of times.
    pub fn winds_around(&self, p: Point) -> bool {
        if p.x < self.bounds.x0
            || p.x > self.bounds.x1
            || p.y < self.bounds.y0
            || p.y > self.bounds.y1
        {
            return false;
        }
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
                if x > p.x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Twice the signed area (positive when the ring turns clockwise on screen).
    pub fn area(&self) -> f64 {
        self.edges()
            .map(|(a, b)| a.x * b.y - b.x * a.y)
            .sum::<f64>()
            / 2.0
    }
}

/// Whether `p` is inside an odd number of `rings` (land with its lakes as holes).
pub fn inside_rings(rings: &[Ring], p: Point) -> bool {
    rings.iter().filter(|r| r.winds_around(p)).count() % 2 == 1
}

/// A convex polygon whose edges each know what made them: the edge from vertex `i` to vertex
/// `i + 1` has `edges[i]`, the index of the site on its other side, or `None` on the frame.
#[derive(Clone, Debug)]
pub struct Cell {
    pub vertices: Vec<Point>,
    pub edges: Vec<Option<usize>>,
}

impl Cell {
    /// The rectangle `width × height` as a cell.
    pub fn frame(width: f64, height: f64) -> Cell {
        Cell {
            vertices: vec![
                Point::new(0.0, 0.0),
                Point::new(width, 0.0),
                Point::new(width, height),
                Point::new(0.0, height),
            ],
            edges: vec![None; 4],
        }
    }

    /// The part of the cell on `site`'s side of the bisector between `site` and `other`
    /// (index `other_index`): the cut is marked with `other_index`.
    pub fn cut(&self, site: Point, other: Point, other_index: usize) -> Cell {
        let mid = site.lerp(other, 0.5);
        let normal = Point::new(other.x - site.x, other.y - site.y);
        let side = |p: Point| (p.x - mid.x) * normal.x + (p.y - mid.y) * normal.y;
        let n = self.vertices.len();
        let mut out = Cell {
            vertices: Vec::with_capacity(n + 1),
            edges: Vec::with_capacity(n + 1),
        };
        for i in 0..n {
            let (a, b) = (self.vertices[i], self.vertices[(i + 1) % n]);
            let (sa, sb) = (side(a), side(b));
            let crossing = || a.lerp(b, sa / (sa - sb));
            match (sa <= 0.0, sb <= 0.0) {
                (true, true) => {
                    out.vertices.push(a);
                    out.edges.push(self.edges[i]);
                }
                (true, false) => {
                    out.vertices.push(a);
                    out.edges.push(self.edges[i]);
                    out.vertices.push(crossing());
                    out.edges.push(Some(other_index));
                }
                (false, true) => {
                    out.vertices.push(crossing());
                    out.edges.push(self.edges[i]);
                }
                (false, false) => {}
            }
        }
        out
    }

    /// The greatest distance from `p` to a vertex.
    pub fn reach(&self, p: Point) -> f64 {
        self.vertices
            .iter()
            .map(|v| v.distance(p))
            .fold(0.0, f64::max)
    }

    pub fn bounds(&self) -> Bounds {
        Bounds::of(&self.vertices)
    }

    /// `subject` clipped to this (convex, clockwise or not) cell, Sutherland-Hodgman; the
    /// result may hold zero-width slivers along the cell's edges, which fill nothing.
    pub fn clip(&self, subject: &[Point]) -> Vec<Point> {
        let n = self.vertices.len();
        if n < 3 {
            return Vec::new();
        }
        let orientation = Ring::new(self.vertices.clone()).area().signum();
        let mut points = subject.to_vec();
        for i in 0..n {
            if points.is_empty() {
                break;
            }
            let (a, b) = (self.vertices[i], self.vertices[(i + 1) % n]);
            let side =
                |p: Point| ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) * orientation;
            let mut out = Vec::with_capacity(points.len() + 4);
            for j in 0..points.len() {
                let (p, q) = (points[j], points[(j + 1) % points.len()]);
                let (sp, sq) = (side(p), side(q));
                if sp >= 0.0 {
                    out.push(p);
                }
                if (sp >= 0.0) != (sq >= 0.0) {
                    out.push(p.lerp(q, sp / (sp - sq)));
                }
            }
            points = out;
        }
        points
    }
}

/// The parameters `t` in (0, 1) where segment `a`–`b` crosses the edges of `rings`.
pub fn crossings(rings: &[Ring], a: Point, b: Point) -> Vec<f64> {
    let bounds = Bounds::of(&[a, b]);
    let mut ts = Vec::new();
    let d = Point::new(b.x - a.x, b.y - a.y);
    for ring in rings.iter().filter(|r| r.bounds.overlaps(&bounds)) {
        for (p, q) in ring.edges() {
            if p.x.max(q.x) < bounds.x0
                || p.x.min(q.x) > bounds.x1
                || p.y.max(q.y) < bounds.y0
                || p.y.min(q.y) > bounds.y1
            {
                continue;
            }
            let e = Point::new(q.x - p.x, q.y - p.y);
            let denominator = d.x * e.y - d.y * e.x;
            if denominator.abs() < 1e-12 {
                continue;
            }
            let w = Point::new(p.x - a.x, p.y - a.y);
            let t = (w.x * e.y - w.y * e.x) / denominator;
            let u = (w.x * d.y - w.y * d.x) / denominator;
            if (0.0..=1.0).contains(&u) && t > 0.0 && t < 1.0 {
                ts.push(t);
            }
        }
    }
    ts.sort_by(f64::total_cmp);
    ts
}

/// The pieces of segment `a`–`b` inside the rings (`inside`) or outside them.
pub fn segment_pieces(rings: &[Ring], a: Point, b: Point, inside: bool) -> Vec<(Point, Point)> {
    let mut ts = vec![0.0];
    ts.extend(crossings(rings, a, b));
    ts.push(1.0);
    let mut pieces: Vec<(Point, Point)> = Vec::new();
    for w in ts.windows(2) {
        if w[1] - w[0] < 1e-9 {
            continue;
        }
        let mid = a.lerp(b, (w[0] + w[1]) / 2.0);
        if inside_rings(rings, mid) == inside {
            let (p, q) = (a.lerp(b, w[0]), a.lerp(b, w[1]));
            match pieces.last_mut() {
                Some(last) if last.1 == p => last.1 = q,
                _ => pieces.push((p, q)),
            }
        }
    }
    pieces
}

/// How far `at` is outside `shape`, a place's pieces filled even-odd: 0 inside.
pub fn distance_outside(shape: &[Vec<Point>], at: Point) -> f64 {
    let inside = shape
        .iter()
        .filter(|piece| Ring::new(piece.to_vec()).winds_around(at))
        .count()
        % 2
        == 1;
    if inside {
        return 0.0;
    }
    shape
        .iter()
        .flat_map(|piece| {
            let n = piece.len();
            (0..n).map(move |k| (piece[k], piece[(k + 1) % n]))
        })
        .map(|(a, b)| {
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let length2 = dx * dx + dy * dy;
            let t = if length2 == 0.0 {
                0.0
            } else {
                (((at.x - a.x) * dx + (at.y - a.y) * dy) / length2).clamp(0.0, 1.0)
            };
            at.distance(Point::new(a.x + t * dx, a.y + t * dy))
        })
        .fold(f64::INFINITY, f64::min)
}

/// `num(x)` written at the end of `out`: in tenths as a whole number, without the float
/// formatting a picture's 20,000 coastline numbers would otherwise each pay for.
pub fn push_num(out: &mut String, x: f64) {
    let tenths = (x * 10.0).round();
    if !tenths.is_finite() || tenths.abs() >= 1e15 {
        let r = tenths / 10.0;
        let _ = if r == r.trunc() && r.is_finite() {
            write!(out, "{}", r as i64)
        } else {
            write!(out, "{r:.1}")
        };
        return;
    }
    let tenths = tenths as i64;
    let (whole, tenth) = (tenths / 10, (tenths % 10).abs());
    if tenth == 0 {
        let _ = write!(out, "{whole}");
    } else {
        if tenths < 0 && whole == 0 {
            out.push('-');
        }
        let _ = write!(out, "{whole}.{tenth}");
    }
}

/// Path data of closed rings.
pub fn rings_path(rings: &[Vec<Point>]) -> String {
    let mut d = String::new();
    for ring in rings {
        for (i, p) in ring.iter().enumerate() {
            d.push(if i == 0 { 'M' } else { 'L' });
            push_num(&mut d, p.x);
            d.push(' ');
            push_num(&mut d, p.y);
        }
        d.push('Z');
    }
    d
}

/// Path data of open polylines.
pub fn lines_path<'a>(lines: impl IntoIterator<Item = &'a [Point]>) -> String {
    let mut d = String::new();
    for line in lines {
        for (i, p) in line.iter().enumerate() {
            d.push(if i == 0 { 'M' } else { 'L' });
            push_num(&mut d, p.x);
            d.push(' ');
            push_num(&mut d, p.y);
        }
    }
    d
}
