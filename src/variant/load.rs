//! Validation of a variant file into a `Variant`: every problem is collected and reported
//! with the file, the line where known, and the key, so a map maker fixes them all at once.

use std::collections::{BTreeMap, BTreeSet};

use toml::Spanned;

use super::borders::build_adjacency;
use super::file::{ProvinceFile, VariantFile};
use super::layout::build_layout;
pub use super::problems::LoadError;
use super::problems::{Problems, RegionIndex};
use super::start::build_start;
use super::{Listing, Variant};
use crate::diplomacy::map::{
    Map, NameTarget, PowerInfo, Province, ProvinceId, Region, RegionId, SupplyCentre, Terrain,
    normalise_name,
};
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::VictoryCounting;
use crate::diplomacy::rules::{Rules, SwitchValue};
use crate::diplomacy::turn::{Calendar, Season, YearDirection};
use crate::diplomacy::unit::UnitKind;

/// Reads and validates the variant `id` from the TOML `text` of the file `file_name`.
pub fn load_variant(id: &str, file_name: &str, text: &str) -> Result<Variant, Vec<LoadError>> {
    let mut problems = Problems::new(file_name, text);
    let file: VariantFile = match toml::from_str(text) {
        Ok(file) => file,
        Err(err) => {
            let line = err.span().and_then(|s| problems.line_of(s.start));
            let message = err.message().to_string();
            problems.push(line, "", message);
            return Err(problems.list);
        }
    };
    let file = match file.base.clone() {
        None => file,
        Some(base) => match base_file(&base, &mut problems) {
            Some(found) => super::base::merge(found, file),
            None => return Err(problems.list),
        },
    };
    let variant = build(id, &file, &mut problems);
    if problems.list.is_empty() {
        Ok(variant)
    } else {
        Err(problems.list)
    }
}

/// The shipped variant a file names as its `base`, read (itself made from no base).
fn base_file(base: &Spanned<String>, problems: &mut Problems) -> Option<VariantFile> {
    let shipped = super::EMBEDDED
        .iter()
        .find(|(id, _, _)| *id == base.get_ref().as_str());
    let Some((_, _, text)) = shipped else {
        let ids: Vec<&str> = super::EMBEDDED.iter().map(|(id, _, _)| *id).collect();
        problems.at(
            base,
            "base",
            format!(
                "'{}' is not a shipped variant; a base is one of {}",
                base.get_ref(),
                ids.join(", ")
            ),
        );
        return None;
    };
    match toml::from_str::<VariantFile>(text) {
        Ok(found) if found.base.is_none() => Some(found),
        _ => {
            problems.at(base, "base", "a base must be a variant made from no other");
            None
        }
    }
}

fn build(id: &str, file: &VariantFile, problems: &mut Problems) -> Variant {
    for (table, given) in [
        ("calendar", file.calendar.is_some()),
        ("victory", file.victory.is_some()),
        ("adjacency", file.adjacency.is_some()),
    ] {
        if !given {
            problems.push(
                None,
                table,
                format!("the file needs a [{table}] table (or a base that has one)"),
            );
        }
    }
    let powers = build_powers(file, problems);
    let power_index: BTreeMap<&str, PowerId> = file
        .powers
        .keys()
        .enumerate()
        .map(|(i, k)| (k.as_str(), PowerId(i as u8)))
        .collect();
    let (provinces, regions, region_index) = build_provinces(file, &power_index, problems);
    let mut map = Map {
        provinces,
        regions,
        powers,
        army_neighbours: Vec::new(),
        half_strength: Vec::new(),
        names: Vec::new(),
    };
    map.army_neighbours = vec![Vec::new(); map.provinces.len()];
    if let Some(adjacency) = &file.adjacency {
        build_adjacency(adjacency, &mut map, &region_index, problems);
    }
    map.names = build_names(file, &map, problems);
    let rules = build_rules(file, problems);
    let calendar = build_calendar(file, problems);
    let start = build_start(
        file,
        &mut map,
        &power_index,
        &region_index,
        &calendar,
        problems,
    );
    let listing = build_listing(file, &map, problems);
    let n_centres = map.provinces.iter().filter(|p| p.centre.is_some()).count() as u32;
    let victory_centres = file.victory.as_ref().map_or(1, |v| v.centres);
    if victory_centres == 0 || victory_centres > n_centres {
        problems.push(
            None,
            "victory.centres",
            format!("must be between 1 and the {n_centres} supply centres of the map"),
        );
    }
    let layout = file.map.as_ref().map(|m| {
        let known_place = |p: &str| file.provinces.contains_key(p);
        let known_power = |p: &str| file.powers.contains_key(p);
        let (layout, found) = build_layout(m, "provinces", &known_place, &known_power);
        for (key, message) in found {
            problems.push(None, key, message);
        }
        std::sync::Arc::new(layout)
    });
    let info = file.info.as_ref();
    Variant {
        id: id.to_string(),
        name: file.name.clone(),
        layout,
        description: file.description.clone(),
        source: file.source.clone(),
        info_en: info.map(|i| i.en.clone()).unwrap_or_default(),
        info_ru: info.map(|i| i.ru.clone()).unwrap_or_default(),
        map,
        rules,
        calendar,
        victory_centres,
        victory_counting: build_counting(file, problems),
        start,
        listing,
        lexicon: Default::default(),
    }
}

/// `[listing]`: for each place a unit may stand (`tri-mv`, `tri-xc`, `stp-nc`), its
/// neighbours in the order letters list them, by province id or name (`bul/sc`: the coast is
/// left aside).
fn build_listing(file: &VariantFile, map: &Map, problems: &mut Problems) -> Listing {
    let province = |word: &str| {
        let word = word.split('/').next().unwrap_or(word);
        map.province_by_id(word).or_else(|| {
            let name = crate::diplomacy::map::normalise_name(word);
            map.names
                .binary_search_by(|(n, _)| n.as_str().cmp(&name))
                .ok()
                .map(|i| match map.names[i].1 {
                    NameTarget::Province(p) => p,
                    NameTarget::Region(r) => map.province_of(r),
                })
        })
    };
    let mut orders = Vec::new();
    for (key, value) in &file.listing {
        let what = format!("listing.{key}");
        let Some((place, how)) = key.rsplit_once('-') else {
            problems.at(
                value,
                what,
                "must be a place and -mv, -xc, -nc, -sc, -ec or -wc",
            );
            continue;
        };
        let Some(at) = province(place) else {
            problems.at(value, what, format!("there is no province '{place}'"));
            continue;
        };
        let (kind, region) = match how {
            "mv" => (
                UnitKind::Army,
                map.regions_for(at, UnitKind::Army).first().copied(),
            ),
            "xc" => (
                UnitKind::Fleet,
                map.regions_for(at, UnitKind::Fleet).first().copied(),
            ),
            coast => (UnitKind::Fleet, map.coast_region(at, coast)),
        };
        let Some(region) = region else {
            problems.at(
                value,
                what,
                format!("no unit of that kind stands in '{place}-{how}'"),
            );
            continue;
        };
        let mut listed = Vec::new();
        for word in value.get_ref().split_whitespace() {
            match province(word) {
                Some(p) => listed.push(p),
                None => problems.at(value, &what, format!("there is no province '{word}'")),
            }
        }
        orders.push((region, kind, listed));
    }
    Listing::new(orders)
}

fn build_powers(file: &VariantFile, problems: &mut Problems) -> Vec<PowerInfo> {
    if file.powers.is_empty() {
        problems.push(None, "powers", "a variant needs at least one power");
    }
    if file.powers.len() > 60 {
        problems.push(None, "powers", "a variant may have at most 60 powers");
    }
    let mut letters = BTreeSet::new();
    let mut out = Vec::new();
    for (key, power) in &file.powers {
        check_id(key, &format!("powers.{key}"), problems);
        let letter = match &power.letter {
            Some(l) => {
                let mut chars = l.get_ref().chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_alphanumeric() => c.to_ascii_uppercase(),
                    _ => {
                        problems.at(
                            l,
                            format!("powers.{key}.letter"),
                            "must be one letter or digit (Chaos's 34 powers need digits)",
                        );
                        '?'
                    }
                }
            }
            None => key.chars().next().unwrap_or('?').to_ascii_uppercase(),
        };
        if letter != '?' && !letters.insert(letter) {
            problems.push(
                None,
                format!("powers.{key}.letter"),
                format!("letter {letter} is used by another power"),
            );
        }
        out.push(PowerInfo {
            id: key.clone(),
            name: power.name.clone(),
            ru: power.ru.clone().filter(|r| !r.trim().is_empty()),
            adjective: power
                .adjective
                .clone()
                .unwrap_or_else(|| power.name.clone()),
            letter,
        });
    }
    out
}

fn check_id(id: &str, key: &str, problems: &mut Problems) {
    let ok = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ok {
        problems.push(
            None,
            key,
            format!("'{id}' must be lower-case letters, digits or '_'"),
        );
    }
}

fn parse_terrain(spanned: &Spanned<String>, key: &str, problems: &mut Problems) -> Terrain {
    match spanned.get_ref().as_str() {
        "land" => Terrain::Land,
        "coast" => Terrain::Coast,
        "sea" => Terrain::Sea,
        "impassable" => Terrain::Impassable,
        other => {
            problems.at(
                spanned,
                key,
                format!("terrain '{other}' is not one of land, coast, sea, impassable"),
            );
            Terrain::Land
        }
    }
}

fn build_provinces(
    file: &VariantFile,
    power_index: &BTreeMap<&str, PowerId>,
    problems: &mut Problems,
) -> (Vec<Province>, Vec<Region>, RegionIndex) {
    let mut provinces = Vec::new();
    let mut regions = Vec::new();
    let mut index = RegionIndex::new();
    if file.provinces.len() > 4000 {
        problems.push(
            None,
            "provinces",
            "a variant may have at most 4000 provinces",
        );
    }
    for (i, (key, p)) in file.provinces.iter().enumerate() {
        let province = ProvinceId(i as u16);
        check_id(key, &format!("provinces.{key}"), problems);
        let terrain = parse_terrain(&p.terrain, &format!("provinces.{key}.terrain"), problems);
        let region = RegionId(regions.len() as u16);
        regions.push(Region {
            province,
            coast: None,
            fleet_neighbours: Vec::new(),
        });
        index.insert(key.clone(), region);
        let coasts = build_coasts(
            key,
            p,
            terrain,
            province,
            &mut regions,
            &mut index,
            problems,
        );
        let name = match &p.name {
            Some(name) if !name.trim().is_empty() => name.clone(),
            _ => {
                problems.push(
                    None,
                    format!("provinces.{key}.name"),
                    "every province needs a name",
                );
                key.clone()
            }
        };
        let centre = build_centre(key, p, terrain, power_index, problems);
        if p.convoys && terrain != Terrain::Coast {
            problems.push(
                None,
                format!("provinces.{key}.convoys"),
                "only a coast province is land and sea at once (a sea convoys anyway)",
            );
        }
        provinces.push(Province {
            id: key.clone(),
            name,
            ru: p.ru.clone().filter(|r| !r.trim().is_empty()),
            terrain,
            region,
            coasts,
            centre,
            home_of: None,
            build_site: p.build_site,
            convoys: p.convoys,
            partisan_of: None,
        });
    }
    (provinces, regions, index)
}

#[allow(clippy::too_many_arguments)]
fn build_coasts(
    key: &str,
    p: &ProvinceFile,
    terrain: Terrain,
    province: ProvinceId,
    regions: &mut Vec<Region>,
    index: &mut RegionIndex,
    problems: &mut Problems,
) -> Vec<RegionId> {
    if !p.coasts.is_empty() && terrain != Terrain::Coast {
        problems.push(
            None,
            format!("provinces.{key}.coasts"),
            "only a coast province has coasts",
        );
    }
    if p.coasts.len() == 1 {
        problems.push(
            None,
            format!("provinces.{key}.coasts"),
            "a province with one coast needs no coasts list",
        );
    }
    let mut out = Vec::new();
    for coast in &p.coasts {
        let name = coast.get_ref();
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase());
        if !valid {
            problems.at(
                coast,
                format!("provinces.{key}.coasts"),
                "a coast is written in lower-case letters, like nc",
            );
            continue;
        }
        let id = format!("{key}/{name}");
        if index.contains_key(&id) {
            problems.at(
                coast,
                format!("provinces.{key}.coasts"),
                format!("coast {name} is listed twice"),
            );
            continue;
        }
        let region = RegionId(regions.len() as u16);
        regions.push(Region {
            province,
            coast: Some(name.clone()),
            fleet_neighbours: Vec::new(),
        });
        index.insert(id, region);
        out.push(region);
    }
    out
}

fn build_centre(
    key: &str,
    p: &ProvinceFile,
    terrain: Terrain,
    power_index: &BTreeMap<&str, PowerId>,
    problems: &mut Problems,
) -> Option<SupplyCentre> {
    let Some(value) = p.centre.as_ref() else {
        if p.rebellion || p.indestructible {
            problems.push(
                None,
                format!("provinces.{key}"),
                "only a supply centre can be a rebellion centre or indestructible",
            );
        }
        return None;
    };
    if *value.get_ref() == 0 {
        problems.at(
            value,
            format!("provinces.{key}.centre"),
            "a centre's value must be at least 1",
        );
    }
    if matches!(terrain, Terrain::Sea | Terrain::Impassable) {
        problems.at(
            value,
            format!("provinces.{key}.centre"),
            "a supply centre must be on land or coast",
        );
    }
    let mut value_for = Vec::new();
    for (power, v) in &p.value_for {
        match power_index.get(power.as_str()) {
            Some(id) => value_for.push((*id, *v)),
            None => problems.push(
                None,
                format!("provinces.{key}.value_for.{power}"),
                format!("'{power}' is not a power"),
            ),
        }
    }
    Some(SupplyCentre {
        value: *value.get_ref(),
        value_for,
        needs_garrison: p.rebellion,
        indestructible: p.indestructible,
    })
}

fn build_names(
    file: &VariantFile,
    map: &Map,
    problems: &mut Problems,
) -> Vec<(String, NameTarget)> {
    let mut names: BTreeMap<String, NameTarget> = BTreeMap::new();
    let mut add = |name: String, target: NameTarget, key: String, problems: &mut Problems| {
        if name.is_empty() {
            return;
        }
        match names.get(&name) {
            Some(existing) if *existing == target => {}
            Some(existing) => {
                let other = match existing {
                    NameTarget::Province(p) => map.province(*p).id.clone(),
                    NameTarget::Region(r) => map.region_id(*r),
                };
                problems.push(
                    None,
                    key,
                    format!("the name '{name}' already means {other}"),
                );
            }
            None => {
                names.insert(name, target);
            }
        }
    };
    for (i, province) in map.provinces.iter().enumerate() {
        let target = NameTarget::Province(ProvinceId(i as u16));
        let key = format!("provinces.{}", province.id);
        add(normalise_name(&province.id), target, key.clone(), problems);
        add(
            normalise_name(&province.name),
            target,
            key.clone(),
            problems,
        );
        if let Some(ru) = &province.ru {
            add(normalise_name(ru), target, format!("{key}.ru"), problems);
        }
        if let Some(p) = file.provinces.get(&province.id) {
            for alias in &p.aliases {
                add(
                    normalise_name(alias.get_ref()),
                    target,
                    format!("{key}.aliases"),
                    problems,
                );
            }
        }
        for coast in &province.coasts {
            add(
                map.region_id(*coast),
                NameTarget::Region(*coast),
                key.clone(),
                problems,
            );
        }
    }
    names.into_iter().collect()
}

fn build_rules(file: &VariantFile, problems: &mut Problems) -> Rules {
    let mut rules = match &file.rules {
        None => Rules::default(),
        Some(name) => Rules::edition(name.get_ref()).unwrap_or_else(|| {
            problems.at(
                name,
                "rules",
                format!("'{}' is not a rules edition (2000 or 2023)", name.get_ref()),
            );
            Rules::default()
        }),
    };
    for (switch, value) in &file.rule_switches {
        let key = format!("rule_switches.{switch}");
        let converted = match value.get_ref() {
            toml::Value::Boolean(b) => SwitchValue::Bool(*b),
            toml::Value::Integer(n) => SwitchValue::Int(*n),
            toml::Value::String(s) => SwitchValue::Text(s.clone()),
            _ => SwitchValue::Text(String::new()),
        };
        if let Err(message) = rules.set_switch(switch, &converted) {
            problems.at(value, key, message.to_string());
        }
    }
    rules
}

fn build_counting(file: &VariantFile, problems: &mut Problems) -> VictoryCounting {
    match file
        .victory
        .as_ref()
        .and_then(|v| v.counting.as_ref())
        .map(|c| (c, c.get_ref().as_str()))
    {
        None | Some((_, "centres")) => VictoryCounting::Centres,
        Some((_, "supply")) => VictoryCounting::Supply,
        Some((c, other)) => {
            problems.at(
                c,
                "victory.counting",
                format!("'{other}' is not centres or supply"),
            );
            VictoryCounting::Centres
        }
    }
}

fn build_calendar(file: &VariantFile, problems: &mut Problems) -> Calendar {
    let Some(c) = &file.calendar else {
        return Calendar::default();
    };
    let direction = match c.direction.get_ref().as_str() {
        "up" => YearDirection::Up,
        "down" => YearDirection::Down,
        other => {
            problems.at(
                &c.direction,
                "calendar.direction",
                format!("'{other}' is not up or down"),
            );
            YearDirection::Up
        }
    };
    let first_phase = match c.first_phase.as_ref().map(|f| (f, f.get_ref().as_str())) {
        None | Some((_, "spring")) => Season::Spring,
        Some((_, "winter")) => Season::Winter,
        Some((f, other)) => {
            problems.at(
                f,
                "calendar.first_phase",
                format!("'{other}' is not spring (its movement) or winter (its adjustments)"),
            );
            Season::Spring
        }
    };
    let years_per_turn = match &c.years_per_turn {
        None => None,
        Some(n) if (1..=100).contains(n.get_ref()) => Some(*n.get_ref() as i32),
        Some(n) => {
            problems.at(n, "calendar.years_per_turn", "must be 1 to 100 years");
            None
        }
    };
    let mut calendar = Calendar {
        first_year: c.first_year,
        direction,
        era: c.era.clone(),
        first_phase,
        years_per_turn,
        ..Calendar::default()
    };
    if let Some(seasons) = &c.seasons {
        if seasons.len() == 3 {
            calendar.spring = seasons[0].clone();
            calendar.fall = seasons[1].clone();
            calendar.winter = seasons[2].clone();
        } else {
            problems.push(
                None,
                "calendar.seasons",
                "name three seasons: spring, fall and winter",
            );
        }
    }
    calendar
}
