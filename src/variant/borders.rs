//! The borders of a variant file: army and fleet adjacency, each border listed once.

use std::collections::BTreeSet;

use toml::Spanned;

use super::file::VariantFile;
use super::load::{Problems, RegionIndex};
use crate::diplomacy::map::{Map, RegionId, Terrain};

fn split_pair(text: &str) -> Option<(&str, &str)> {
    let (a, b) = text.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    (!a.is_empty() && !b.is_empty() && !b.contains('-')).then_some((a, b))
}

/// The two regions a border `a-b` joins, or `None` with the problem reported.
fn border_ends(
    pair: &Spanned<String>,
    key: &str,
    index: &RegionIndex,
    map: &Map,
    problems: &mut Problems,
) -> Option<(RegionId, RegionId)> {
    let Some((a, b)) = split_pair(pair.get_ref()) else {
        let message = format!("'{}' is not a border written as a-b", pair.get_ref());
        problems.at(pair, key, message);
        return None;
    };
    let ra = resolve_end(a, index, map, pair, key, problems);
    let rb = resolve_end(b, index, map, pair, key, problems);
    Some((ra?, rb?))
}

pub(super) fn build_adjacency(
    file: &VariantFile,
    map: &mut Map,
    index: &RegionIndex,
    problems: &mut Problems,
) {
    let mut seen = BTreeSet::new();
    for (i, pair) in file.adjacency.army.iter().enumerate() {
        let key = format!("adjacency.army[{i}]");
        let Some((ra, rb)) = border_ends(pair, &key, index, map, problems) else {
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
        map.army_neighbours[pb.index()].push(pa);
    }
    for (i, pair) in file.adjacency.fleet.iter().enumerate() {
        let key = format!("adjacency.fleet[{i}]");
        let Some((ra, rb)) = border_ends(pair, &key, index, map, problems) else {
            continue;
        };
        let mut ok = true;
        for r in [ra, rb] {
            let p = map.province(map.province_of(r));
            if !matches!(p.terrain, Terrain::Sea | Terrain::Coast) {
                problems.at(pair, &key, format!("a fleet cannot stand in {}", p.id));
                ok = false;
            } else if !p.coasts.is_empty() && map.region(r).coast.is_none() {
                problems.at(
                    pair,
                    &key,
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
        if !ok {
            continue;
        }
        if map.province_of(ra) == map.province_of(rb) {
            problems.at(pair, &key, "a province does not border itself");
            continue;
        }
        if !seen.insert(('f', ra.min(rb).0, ra.max(rb).0)) {
            problems.at(
                pair,
                &key,
                format!("the fleet border {} is listed twice", pair.get_ref()),
            );
            continue;
        }
        map.regions[ra.index()].fleet_neighbours.push(rb);
        map.regions[rb.index()].fleet_neighbours.push(ra);
    }
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
