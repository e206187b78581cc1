//! Convoy routes: chains of fleets at sea from an army's province to its destination.
//!
//! Routes are searched over provinces: two places are linked when a fleet could sail
//! between some region of one and some region of the other.

use crate::diplomacy::map::{Map, ProvinceId, Terrain};

/// Whether a fleet could sail directly between some region of `a` and some region of `b`.
pub fn sea_link(map: &Map, a: ProvinceId, b: ProvinceId) -> bool {
    let pa = map.province(a);
    std::iter::once(pa.region)
        .chain(pa.coasts.iter().copied())
        .any(|r| {
            map.region(r)
                .fleet_neighbours
                .iter()
                .any(|n| map.province_of(*n) == b)
        })
}

/// Whether a fleet in this province may convoy: at sea, or in a province that is land and
/// sea at once (`Province::convoys`: Baleares).
pub fn can_convoy_from(map: &Map, province: ProvinceId) -> bool {
    let p = map.province(province);
    p.terrain == Terrain::Sea || p.convoys
}

/// Whether a chain of the `fleets` (provinces holding convoying fleets) links `from` to `to`.
/// `usable` says which of them may be used.
pub fn route_exists(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    fleets: &[ProvinceId],
    usable: impl Fn(usize) -> bool,
) -> bool {
    if map.province(from).terrain == Terrain::Sea || map.province(to).terrain == Terrain::Sea {
        return false;
    }
    let mut reached = vec![false; fleets.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, f) in fleets.iter().enumerate() {
        if usable(i) && sea_link(map, from, *f) {
            reached[i] = true;
            stack.push(i);
        }
    }
    while let Some(i) = stack.pop() {
        if sea_link(map, fleets[i], to) {
            return true;
        }
        for (j, f) in fleets.iter().enumerate() {
            if !reached[j] && usable(j) && sea_link(map, fleets[i], *f) {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    false
}

/// Which of `fleets` lie on some minimal route from `from` to `to`: a route no fleet of
/// which could be left out (DATC 4.E.1 and 6.G.19: a convoy no route needs is illegal).
/// A minimal route is a chordless path, so this walks chordless paths only.
pub fn on_minimal_route(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    fleets: &[ProvinceId],
) -> Vec<bool> {
    let mut on_route = vec![false; fleets.len()];
    if map.province(from).terrain == Terrain::Sea || map.province(to).terrain == Terrain::Sea {
        return on_route;
    }
    let n = fleets.len();
    // links[i][j] between fleets; start[i] from `from`; end[i] to `to`.
    let start: Vec<bool> = fleets.iter().map(|f| sea_link(map, from, *f)).collect();
    let end: Vec<bool> = fleets.iter().map(|f| sea_link(map, *f, to)).collect();
    let links: Vec<Vec<bool>> = fleets
        .iter()
        .map(|a| {
            fleets
                .iter()
                .map(|b| a != b && sea_link(map, *a, *b))
                .collect()
        })
        .collect();
    let mut path = Vec::with_capacity(n);
    let mut budget = 100_000usize;
    for first in 0..n {
        if start[first] {
            path.push(first);
            walk(&links, &start, &end, &mut path, &mut on_route, &mut budget);
            path.pop();
        }
    }
    on_route
}

fn walk(
    links: &[Vec<bool>],
    start: &[bool],
    end: &[bool],
    path: &mut Vec<usize>,
    on_route: &mut [bool],
    budget: &mut usize,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let last = *path.last().expect("walk starts with one fleet");
    if end[last] {
        // The destination must touch only the last fleet, or the path has a chord.
        if path[..path.len() - 1].iter().all(|p| !end[*p]) {
            for p in path.iter() {
                on_route[*p] = true;
            }
        }
        return;
    }
    for next in 0..links.len() {
        if !links[last][next] || path.contains(&next) || start[next] {
            continue;
        }
        let chord = path[..path.len() - 1].iter().any(|p| links[*p][next]);
        if chord {
            continue;
        }
        path.push(next);
        walk(links, start, end, path, on_route, budget);
        path.pop();
    }
}
