//! The borders of a variant file: army and fleet adjacency, each border listed once, as
//! `a-b` (both ways) or `a>b` (from a to b only), and the fleet borders crossed at half
//! strength.

use std::collections::BTreeSet;

use toml::Spanned;

use super::file::AdjacencyFile;
use super::problems::{Problems, RegionIndex};
use crate::diplomacy::map::{Map, RegionId, Terrain};

/// A border as written: its two ends and whether it is crossed one way only.
fn split_pair(text: &str) -> Option<(&str, &str, bool)> {
    let (a, b, one_way) = match text.split_once('>') {
        Some((a, b)) => (a, b, true),
        None => {
            let (a, b) = text.split_once('-')?;
            (a, b, false)
        }
    };
    let (a, b) = (a.trim(), b.trim());
    let clean = |s: &str| !s.is_empty() && !s.contains(['-', '>']);
    (clean(a) && clean(b)).then_some((a, b, one_way))
}

/// The two regions a border `a-b` (or `a>b`) joins and whether it is one way, or `None`
/// with the problem reported.
fn border_ends(
    pair: &Spanned<String>,
    key: &str,
    index: &RegionIndex,
    map: &Map,
    problems: &mut Problems,
) -> Option<(RegionId, RegionId, bool)> {
    let Some((a, b, one_way)) = split_pair(pair.get_ref()) else {
        let message = format!(
            "'{}' is not a border written as a-b (or a>b, one way)",
            pair.get_ref()
        );
        problems.at(pair, key, message);
        return None;
    };
    let ra = resolve_end(a, index, map, pair, key, problems);
    let rb = resolve_end(b, index, map, pair, key, problems);
    Some((ra?, rb?, one_way))
}

pub(super) fn build_adjacency(
    adjacency: &AdjacencyFile,
    map: &mut Map,
    index: &RegionIndex,
    problems: &mut Problems,
) {
    let mut seen = BTreeSet::new();
    for (i, pair) in adjacency.army.iter().enumerate() {
        let key = format!("adjacency.army[{i}]");
        let Some((ra, rb, one_way)) = border_ends(pair, &key, index, map, problems) else {
            continue;
        };
        let (pa, pb) = (map.province_of(ra), map.province_of(rb));
        if map.region(ra).coast.is_some() || map.region(rb).coast.is_some() {
            problems.at(pair, &key, "army borders join provinces, not coasts");
            continue;
        }
        for p in [pa, pb] {
            if !matches!(map.province(p).terrain, Terrain::Land | Terrain::Coast) {
                problems.at(
                    pair,
                    &key,
                    format!("an army cannot stand in {}", map.province(p).id),
                );
            }
        }
        if pa == pb {
            problems.at(pair, &key, "a province does not border itself");
            continue;
        }
        if !seen.insert(('a', pa.min(pb).0, pa.max(pb).0)) {
            problems.at(
                pair,
                &key,
                format!("the army border {} is listed twice", pair.get_ref()),
            );
            continue;
        }
        map.army_neighbours[pa.index()].push(pb);
        if !one_way {
            map.army_neighbours[pb.index()].push(pa);
        }
    }
    let mut fleet_borders = BTreeSet::new();
    for (i, pair) in adjacency.fleet.iter().enumerate() {
        let key = format!("adjacency.fleet[{i}]");
        let Some((ra, rb, one_way)) = fleet_border(pair, &key, index, map, problems) else {
            continue;
        };
        if !seen.insert(('f', ra.min(rb).0, ra.max(rb).0)) {
            problems.at(
                pair,
                &key,
                format!("the fleet border {} is listed twice", pair.get_ref()),
            );
            continue;
        }
        fleet_borders.insert((ra, rb));
        map.regions[ra.index()].fleet_neighbours.push(rb);
        if !one_way {
            fleet_borders.insert((rb, ra));
            map.regions[rb.index()].fleet_neighbours.push(ra);
        }
    }
    for (i, pair) in adjacency.half_strength.iter().enumerate() {
        let key = format!("adjacency.half_strength[{i}]");
        let Some((ra, rb, one_way)) = fleet_border(pair, &key, index, map, problems) else {
            continue;
        };
        let ways: &[(RegionId, RegionId)] = if one_way {
            &[(ra, rb)]
        } else {
            &[(ra, rb), (rb, ra)]
        };
        for &(from, to) in ways {
            if !fleet_borders.contains(&(from, to)) {
                problems.at(
                    pair,
                    &key,
                    format!(
                        "{} to {} is no fleet border: list it among the fleet borders too",
                        map.region_id(from),
                        map.region_id(to)
                    ),
                );
                continue;
            }
            map.half_strength
                .push((map.province_of(from), map.province_of(to)));
        }
    }
}

/// A fleet border's two regions, each a place a fleet may stand (a coast named on a split
/// province), or `None` with the problem reported.
fn fleet_border(
    pair: &Spanned<String>,
    key: &str,
    index: &RegionIndex,
    map: &Map,
    problems: &mut Problems,
) -> Option<(RegionId, RegionId, bool)> {
    let (ra, rb, one_way) = border_ends(pair, key, index, map, problems)?;
    let mut ok = true;
    for r in [ra, rb] {
        let p = map.province(map.province_of(r));
        if !matches!(p.terrain, Terrain::Sea | Terrain::Coast) {
            problems.at(pair, key, format!("a fleet cannot stand in {}", p.id));
            ok = false;
        } else if !p.coasts.is_empty() && map.region(r).coast.is_none() {
            problems.at(
                pair,
                key,
                format!(
                    "{} has several coasts: name one, like {}/{}",
                    p.id,
                    p.id,
                    map.region(p.coasts[0]).coast.as_deref().unwrap_or("nc")
                ),
            );
            ok = false;
        }
    }
    if ok && map.province_of(ra) == map.province_of(rb) {
        problems.at(pair, key, "a province does not border itself");
        ok = false;
    }
    ok.then_some((ra, rb, one_way))
}
fn resolve_end(
    name: &str,
    index: &RegionIndex,
    map: &Map,
    pair: &Spanned<String>,
    key: &str,
    problems: &mut Problems,
) -> Option<RegionId> {
    match index.get(name) {
        Some(r) => Some(*r),
        None => {
            let province = name.split('/').next().unwrap_or(name);
            let message = if name.contains('/') && map.provinces.iter().any(|p| p.id == province) {
                format!(
                    "{province} has no coast '{}'",
                    name.split('/').nth(1).unwrap_or("")
                )
            } else {
                format!("'{name}' is not a province")
            };
            problems.at(pair, key, message);
            None
        }
    }
}
