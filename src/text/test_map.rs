//! Test support: the standard map read straight from `variants/standard.toml`, with names
//! built as the variant loader builds them, so the text module is tested on its own.

use crate::diplomacy::map::{
    Map, NameTarget, PowerInfo, Province, ProvinceId, Region, RegionId, Terrain,
};

use super::names::normalise_name;

fn strings(value: Option<&toml::Value>) -> Vec<String> {
    value
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The standard map: provinces, coasts, powers and names (no adjacency: not needed here).
pub(crate) fn standard() -> Map {
    let file: toml::Table =
        toml::from_str(include_str!("../../variants/standard.toml")).expect("standard.toml");
    let mut map = Map {
        provinces: Vec::new(),
        regions: Vec::new(),
        powers: Vec::new(),
        army_neighbours: Vec::new(),
        names: Vec::new(),
    };
    for (id, power) in file["powers"].as_table().expect("powers") {
        let name = power["name"].as_str().expect("name").to_string();
        map.powers.push(PowerInfo {
            id: id.clone(),
            adjective: power["adjective"].as_str().expect("adjective").to_string(),
            letter: name.chars().next().expect("letter"),
            name,
        });
    }
    for (id, p) in file["provinces"].as_table().expect("provinces") {
        let province = ProvinceId(map.provinces.len() as u16);
        let region = RegionId(map.regions.len() as u16);
        map.regions.push(Region {
            province,
            coast: None,
            fleet_neighbours: Vec::new(),
        });
        let mut coasts = Vec::new();
        for coast in strings(p.get("coasts")) {
            let r = RegionId(map.regions.len() as u16);
            map.names
                .push((format!("{id}/{coast}"), NameTarget::Region(r)));
            map.regions.push(Region {
                province,
                coast: Some(coast),
                fleet_neighbours: Vec::new(),
            });
            coasts.push(r);
        }
        let name = p["name"].as_str().expect("name").to_string();
        let terrain = match p["terrain"].as_str().expect("terrain") {
            "land" => Terrain::Land,
            "sea" => Terrain::Sea,
            "coast" => Terrain::Coast,
            _ => Terrain::Impassable,
        };
        map.names.push((id.clone(), NameTarget::Province(province)));
        map.names
            .push((normalise_name(&name), NameTarget::Province(province)));
        for alias in strings(p.get("aliases")) {
            map.names
                .push((normalise_name(&alias), NameTarget::Province(province)));
        }
        map.provinces.push(Province {
            id: id.clone(),
            name,
            terrain,
            region,
            coasts,
            centre: None,
            home_of: None,
            build_site: false,
        });
        map.army_neighbours.push(Vec::new());
    }
    map
}
