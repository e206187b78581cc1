//! The water shared among sea provinces by distance through water: a grid over the picture,
//! each water cell given to the sea site nearest by a path that stays at sea (Dijkstra over
//! the cells, eight neighbours), so a sea never reaches past a peninsula to a coast its ships
//! could not sail to. Then each sea's outline and the borders between seas are traced along
//! the cells' sides and simplified (Douglas-Peucker).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::geometry::{Point, Ring};

/// A side of a grid cell, between two grid vertices.
type Side = ((i32, i32), (i32, i32));

/// The side of a grid cell, in pixels.
pub const CELL: f64 = 2.0;
/// No water site's: land.
pub const LAND: u32 = u32::MAX;

/// Water cells and their owners.
pub struct WaterGrid {
    pub columns: usize,
    pub rows: usize,
    /// The index of the water site owning each cell, or `LAND`.
    pub owner: Vec<u32>,
}

impl WaterGrid {
    /// The grid over `width × height` for `land`, its water given to `sites` (pixels).
    pub fn new(width: f64, height: f64, land: &[Ring], sites: &[Point]) -> WaterGrid {
        let columns = (width / CELL).ceil() as usize;
        let rows = (height / CELL).ceil() as usize;
        let mut water = vec![true; columns * rows];
        let edges: Vec<(Point, Point)> = land.iter().flat_map(|r| r.edges()).collect();
        let mut crossings = Vec::new();
        for row in 0..rows {
            let y = (row as f64 + 0.5) * CELL;
            crossings.clear();
            for (a, b) in &edges {
                if (a.y > y) != (b.y > y) {
                    crossings.push(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y));
                }
            }
            crossings.sort_by(f64::total_cmp);
            for pair in crossings.chunks(2) {
                if let [x0, x1] = pair {
                    let from = ((x0 / CELL) - 0.5).ceil().max(0.0) as usize;
                    let to = ((x1 / CELL) - 0.5).floor().min(columns as f64 - 1.0);
                    if to < 0.0 {
                        continue;
                    }
                    for column in from..=(to as usize) {
                        water[row * columns + column] = false;
                    }
                }
            }
        }
        let mut grid = WaterGrid {
            columns,
            rows,
            owner: vec![LAND; columns * rows],
        };
        let mut distance = vec![u32::MAX; columns * rows];
        let mut heap = BinaryHeap::new();
        for (i, site) in sites.iter().enumerate() {
            if let Some(cell) = grid.nearest_water(&water, *site) {
                distance[cell] = 0;
                grid.owner[cell] = i as u32;
                heap.push(Reverse((0u32, cell)));
            }
        }
        // Steps of 10 and 14: the eight neighbours at their distances, in integers.
        let steps: [(isize, isize, u32); 8] = [
            (1, 0, 10),
            (-1, 0, 10),
            (0, 1, 10),
            (0, -1, 10),
            (1, 1, 14),
            (1, -1, 14),
            (-1, 1, 14),
            (-1, -1, 14),
        ];
        while let Some(Reverse((d, cell))) = heap.pop() {
            if d > distance[cell] {
                continue;
            }
            let (x, y) = ((cell % columns) as isize, (cell / columns) as isize);
            for (dx, dy, cost) in steps {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= columns as isize || ny >= rows as isize {
                    continue;
                }
                let next = ny as usize * columns + nx as usize;
                if !water[next] || d + cost >= distance[next] {
                    continue;
                }
                distance[next] = d + cost;
                grid.owner[next] = grid.owner[cell];
                heap.push(Reverse((d + cost, next)));
            }
        }
        // Water no site reaches (a lake, a fjord the grid closes): the owner of the nearest
        // water that is reached, by a second search that crosses land.
        let mut near = vec![u32::MAX; columns * rows];
        let mut heap = BinaryHeap::new();
        for (cell, owner) in grid.owner.iter().enumerate() {
            if *owner != LAND {
                near[cell] = 0;
                heap.push(Reverse((0u32, cell)));
            }
        }
        let mut label = grid.owner.clone();
        while let Some(Reverse((d, cell))) = heap.pop() {
            if d > near[cell] {
                continue;
            }
            let (x, y) = ((cell % columns) as isize, (cell / columns) as isize);
            for (dx, dy, cost) in steps {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= columns as isize || ny >= rows as isize {
                    continue;
                }
                let next = ny as usize * columns + nx as usize;
                if d + cost >= near[next] {
                    continue;
                }
                near[next] = d + cost;
                label[next] = label[cell];
                heap.push(Reverse((d + cost, next)));
            }
        }
        for (cell, owner) in grid.owner.iter_mut().enumerate() {
            if water[cell] && *owner == LAND {
                *owner = label[cell];
            }
        }
        grid
    }

    fn centre(&self, cell: usize) -> Point {
        Point::new(
            ((cell % self.columns) as f64 + 0.5) * CELL,
            ((cell / self.columns) as f64 + 0.5) * CELL,
        )
    }

    fn cell_at(&self, p: Point) -> Option<(usize, usize)> {
        let (x, y) = ((p.x / CELL).floor(), (p.y / CELL).floor());
        (x >= 0.0 && y >= 0.0 && (x as usize) < self.columns && (y as usize) < self.rows)
            .then_some((x as usize, y as usize))
    }

    /// The water cell nearest `p` within a few cells, if any.
    fn nearest_water(&self, water: &[bool], p: Point) -> Option<usize> {
        let (cx, cy) = self.cell_at(p)?;
        let mut best: Option<(f64, usize)> = None;
        for radius in 0..12isize {
            for dy in -radius..=radius {
                for dx in -radius..=radius {
                    let (x, y) = (cx as isize + dx, cy as isize + dy);
                    if x < 0 || y < 0 || x >= self.columns as isize || y >= self.rows as isize {
                        continue;
                    }
                    let cell = y as usize * self.columns + x as usize;
                    if water[cell] {
                        let d = self.centre(cell).distance2(p);
                        if best.is_none_or(|(bd, _)| d < bd) {
                            best = Some((d, cell));
                        }
                    }
                }
            }
            if best.is_some() {
                return best.map(|(_, c)| c);
            }
        }
        None
    }

    /// The owner of the water next to `p` (a point on the coast), if any within a few cells.
    pub fn owner_near(&self, p: Point) -> Option<u32> {
        let (cx, cy) = self.cell_at(p)?;
        let mut best: Option<(f64, u32)> = None;
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let (x, y) = (cx as isize + dx, cy as isize + dy);
                if x < 0 || y < 0 || x >= self.columns as isize || y >= self.rows as isize {
                    continue;
                }
                let cell = y as usize * self.columns + x as usize;
                if self.owner[cell] != LAND {
                    let d = self.centre(cell).distance2(p);
                    if best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, self.owner[cell]));
                    }
                }
            }
        }
        best.map(|(_, o)| o)
    }

    fn at(&self, x: isize, y: isize) -> u32 {
        if x < 0 || y < 0 || x >= self.columns as isize || y >= self.rows as isize {
            LAND
        } else {
            self.owner[y as usize * self.columns + x as usize]
        }
    }

    /// Sides of cells between two owners `(a, b)` with `a < b` (water on both sides), as
    /// grid-vertex segments.
    pub fn borders(&self, group: &dyn Fn(u32) -> u32) -> BTreeMap<(u32, u32), Vec<Vec<Point>>> {
        let mut segments: BTreeMap<(u32, u32), Vec<Side>> = BTreeMap::new();
        for y in 0..self.rows as isize {
            for x in 0..self.columns as isize {
                let here = self.at(x, y);
                if here == LAND {
                    continue;
                }
                for (dx, dy) in [(1isize, 0isize), (0, 1)] {
                    let there = self.at(x + dx, y + dy);
                    if there == LAND || group(there) == group(here) {
                        continue;
                    }
                    let (a, b) = (group(here).min(group(there)), group(here).max(group(there)));
                    let seg = if dx == 1 {
                        ((x as i32 + 1, y as i32), (x as i32 + 1, y as i32 + 1))
                    } else {
                        ((x as i32, y as i32 + 1), (x as i32 + 1, y as i32 + 1))
                    };
                    segments.entry((a, b)).or_default().push(seg);
                }
            }
        }
        segments
            .into_iter()
            .map(|(key, segs)| {
                (
                    key,
                    chain(&segs)
                        .into_iter()
                        .map(|l| simplify(&l, 0.8))
                        .collect(),
                )
            })
            .collect()
    }

    /// The outline of each group's water, as rings (fill even-odd).
    pub fn outlines(&self, group: &dyn Fn(u32) -> u32) -> BTreeMap<u32, Vec<Vec<Point>>> {
        let mut segments: BTreeMap<u32, Vec<Side>> = BTreeMap::new();
        for y in -1..self.rows as isize {
            for x in -1..self.columns as isize {
                let here = self.at(x, y);
                for (dx, dy) in [(1isize, 0isize), (0, 1)] {
                    let there = self.at(x + dx, y + dy);
                    let (g1, g2) = (
                        (here != LAND).then(|| group(here)),
                        (there != LAND).then(|| group(there)),
                    );
                    if g1 == g2 {
                        continue;
                    }
                    let seg = if dx == 1 {
                        ((x as i32 + 1, y as i32), (x as i32 + 1, y as i32 + 1))
                    } else {
                        ((x as i32, y as i32 + 1), (x as i32 + 1, y as i32 + 1))
                    };
                    for g in [g1, g2].into_iter().flatten() {
                        segments.entry(g).or_default().push(seg);
                    }
                }
            }
        }
        segments
            .into_iter()
            .map(|(g, segs)| {
                (
                    g,
                    chain(&segs)
                        .into_iter()
                        .map(|l| simplify(&l, 0.8))
                        .collect(),
                )
            })
            .collect()
    }
}

/// Grid segments joined into polylines (closed ones end where they start), in pixels.
fn chain(segments: &[Side]) -> Vec<Vec<Point>> {
    let mut at: BTreeMap<(i32, i32), Vec<usize>> = BTreeMap::new();
    for (i, (a, b)) in segments.iter().enumerate() {
        at.entry(*a).or_default().push(i);
        at.entry(*b).or_default().push(i);
    }
    let mut used = vec![false; segments.len()];
    let mut lines = Vec::new();
    // Open chains first (from vertices of odd degree), then loops.
    let mut starts: Vec<(i32, i32)> = at
        .iter()
        .filter(|(_, list)| list.len() % 2 == 1)
        .map(|(v, _)| *v)
        .collect();
    starts.extend(at.keys().copied());
    for start in starts {
        while let Some(&first) = at[&start].iter().find(|i| !used[**i]) {
            let mut line = vec![start];
            let mut vertex = start;
            let mut next = Some(first);
            while let Some(i) = next {
                used[i] = true;
                let (a, b) = segments[i];
                vertex = if a == vertex { b } else { a };
                line.push(vertex);
                next = at[&vertex].iter().copied().find(|j| !used[*j]);
            }
            lines.push(
                line.into_iter()
                    .map(|(x, y)| Point::new(x as f64 * CELL, y as f64 * CELL))
                    .collect(),
            );
        }
    }
    lines
}

/// Douglas-Peucker: the line with points nearer than `tolerance` cells to it dropped.
fn simplify(line: &[Point], tolerance: f64) -> Vec<Point> {
    if line.len() < 3 {
        return line.to_vec();
    }
    let tolerance = tolerance * CELL;
    let mut keep = vec![false; line.len()];
    keep[0] = true;
    keep[line.len() - 1] = true;
    let mut stack = vec![(0, line.len() - 1)];
    while let Some((a, b)) = stack.pop() {
        let (pa, pb) = (line[a], line[b]);
        let mut worst = (0.0, a);
        for (i, p) in line.iter().enumerate().take(b).skip(a + 1) {
            let d = if pa == pb {
                p.distance(pa)
            } else {
                let (dx, dy) = (pb.x - pa.x, pb.y - pa.y);
                ((p.x - pa.x) * dy - (p.y - pa.y) * dx).abs() / (dx * dx + dy * dy).sqrt()
            };
            if d > worst.0 {
                worst = (d, i);
            }
        }
        if worst.0 > tolerance {
            keep[worst.1] = true;
            stack.push((a, worst.1));
            stack.push((worst.1, b));
        }
    }
    line.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(p, _)| *p)
        .collect()
}
