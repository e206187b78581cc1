//! Validation of a variant file into a `Variant`: every problem is collected and reported
//! with the file, the line where known, and the key, so a map maker fixes them all at once.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use toml::Spanned;

use super::Variant;
use super::file::{ProvinceFile, VariantFile};
use crate::diplomacy::map::{
    Map, NameTarget, PowerInfo, Province, ProvinceId, Region, RegionId, SupplyCentre, Terrain,
    normalise_name,
};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::rules::{Rules, SwitchValue};
use crate::diplomacy::turn::{Calendar, YearDirection};
use crate::diplomacy::unit::{Unit, UnitKind};

/// One problem in a variant file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    /// 1-based line, where the problem can be placed.
    pub line: Option<usize>,
    /// The key the problem is at: `provinces.lon.terrain`, `adjacency.fleet[3]`.
    pub key: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.key.is_empty() {
            write!(f, ": {}", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Collects problems while a file is checked.
struct Problems<'a> {
    file: &'a str,
    text: &'a str,
    list: Vec<LoadError>,
}

impl Problems<'_> {
    fn line_of(&self, offset: usize) -> Option<usize> {
        if offset == 0 && self.text.is_empty() {
            return None;
        }
        let end = offset.min(self.text.len());
        Some(
            self.text.as_bytes()[..end]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1,
        )
    }

    fn at<T>(&mut self, spanned: &Spanned<T>, key: impl Into<String>, message: impl Into<String>) {
        let span = spanned.span();
        let line = if span.is_empty() {
            None
        } else {
            self.line_of(span.start)
        };
        self.push(line, key, message);
    }

    fn push(&mut self, line: Option<usize>, key: impl Into<String>, message: impl Into<String>) {
        self.list.push(LoadError {
            file: self.file.to_string(),
            line,
            key: key.into(),
            message: message.into(),
        });
    }
}

/// Reads and validates the variant `id` from the TOML `text` of the file `file_name`.
pub fn load_variant(id: &str, file_name: &str, text: &str) -> Result<Variant, Vec<LoadError>> {
    let mut problems = Problems {
        file: file_name,
        text,
        list: Vec::new(),
    };
    let file: VariantFile = match toml::from_str(text) {
        Ok(file) => file,
        Err(err) => {
            let line = err.span().and_then(|s| problems.line_of(s.start));
            let message = err.message().to_string();
            problems.push(line, "", message);
            return Err(problems.list);
        }
    };
    let variant = build(id, &file, &mut problems);
    if problems.list.is_empty() {
        Ok(variant)
    } else {
        Err(problems.list)
    }
}

fn build(id: &str, file: &VariantFile, problems: &mut Problems) -> Variant {
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
        names: Vec::new(),
    };
    map.army_neighbours = vec![Vec::new(); map.provinces.len()];
    build_adjacency(file, &mut map, &region_index, problems);
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
    let n_centres = map.provinces.iter().filter(|p| p.centre.is_some()).count() as u32;
    if file.victory.centres == 0 || file.victory.centres > n_centres {
        problems.push(
            None,
            "victory.centres",
            format!("must be between 1 and the {n_centres} supply centres of the map"),
        );
    }
    Variant {
        id: id.to_string(),
        name: file.name.clone(),
        description: file.description.clone(),
        map,
        rules,
        calendar,
        victory_centres: file.victory.centres,
        start,
    }
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
                    (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
                    _ => {
                        problems.at(l, format!("powers.{key}.letter"), "must be one letter");
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

type RegionIndex = BTreeMap<String, RegionId>;

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
        provinces.push(Province {
            id: key.clone(),
            name,
            terrain,
            region,
            coasts,
            centre,
            home_of: None,
            build_site: p.build_site,
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
    let value = p.centre.as_ref()?;
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
    })
}

fn split_pair(text: &str) -> Option<(&str, &str)> {
    let (a, b) = text.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    (!a.is_empty() && !b.is_empty() && !b.contains('-')).then_some((a, b))
}

fn build_adjacency(
    file: &VariantFile,
    map: &mut Map,
    index: &RegionIndex,
    problems: &mut Problems,
) {
    let mut seen = BTreeSet::new();
    for (i, pair) in file.adjacency.army.iter().enumerate() {
        let key = format!("adjacency.army[{i}]");
        let Some((a, b)) = split_pair(pair.get_ref()) else {
            problems.at(
                pair,
                key,
                format!("'{}' is not a border written as a-b", pair.get_ref()),
            );
            continue;
        };
        let (Some(ra), Some(rb)) = (
            resolve_end(a, index, map, pair, &key, problems),
            resolve_end(b, index, map, pair, &key, problems),
        ) else {
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
        let Some((a, b)) = split_pair(pair.get_ref()) else {
            problems.at(
                pair,
                key,
                format!("'{}' is not a border written as a-b", pair.get_ref()),
            );
            continue;
        };
        let (Some(ra), Some(rb)) = (
            resolve_end(a, index, map, pair, &key, problems),
            resolve_end(b, index, map, pair, &key, problems),
        ) else {
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
            problems.at(value, key, message);
        }
    }
    rules
}

fn build_calendar(file: &VariantFile, problems: &mut Problems) -> Calendar {
    let c = &file.calendar;
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
    let mut calendar = Calendar {
        first_year: c.first_year,
        direction,
        era: c.era.clone(),
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

fn build_start(
    file: &VariantFile,
    map: &mut Map,
    power_index: &BTreeMap<&str, PowerId>,
    index: &RegionIndex,
    calendar: &Calendar,
    problems: &mut Problems,
) -> Position {
    let mut position = Position::empty(map, calendar.first_turn());
    for (key, power) in &file.powers {
        let id = power_index[key.as_str()];
        for home in &power.home {
            let Some(province) = province_named(home, map, &format!("powers.{key}.home"), problems)
            else {
                continue;
            };
            let p = &mut map.provinces[province.index()];
            if p.centre.is_none() && !p.build_site {
                problems.at(
                    home,
                    format!("powers.{key}.home"),
                    format!("{} is not a supply centre", p.id),
                );
            }
            if p.home_of.is_some_and(|other| other != id) {
                problems.at(
                    home,
                    format!("powers.{key}.home"),
                    format!("{} is a home centre of another power", p.id),
                );
            }
            p.home_of = Some(id);
            claim(&mut position, province, id, home, key, map, problems);
        }
        for centre in &power.centres {
            if let Some(province) =
                province_named(centre, map, &format!("powers.{key}.centres"), problems)
            {
                claim(&mut position, province, id, centre, key, map, problems);
            }
        }
        for unit in &power.units {
            if let Some(u) = parse_start_unit(
                unit,
                id,
                map,
                index,
                &format!("powers.{key}.units"),
                problems,
            ) {
                let province = map.province_of(u.region);
                if position
                    .units
                    .iter()
                    .any(|o| map.province_of(o.region) == province)
                {
                    problems.at(
                        unit,
                        format!("powers.{key}.units"),
                        format!("two units start in {}", map.province(province).id),
                    );
                }
                position.units.push(u);
            }
        }
    }
    position
}

fn claim(
    position: &mut Position,
    province: ProvinceId,
    power: PowerId,
    at: &Spanned<String>,
    key: &str,
    map: &Map,
    problems: &mut Problems,
) {
    match position.owners[province.index()] {
        Some(other) if other != power => problems.at(
            at,
            format!("powers.{key}"),
            format!(
                "{} is owned by two powers at the start",
                map.province(province).id
            ),
        ),
        _ => position.owners[province.index()] = Some(power),
    }
}

fn province_named(
    name: &Spanned<String>,
    map: &Map,
    key: &str,
    problems: &mut Problems,
) -> Option<ProvinceId> {
    let found = map.province_by_id(name.get_ref());
    if found.is_none() {
        problems.at(name, key, format!("'{}' is not a province", name.get_ref()));
    }
    found
}

fn parse_start_unit(
    spec: &Spanned<String>,
    power: PowerId,
    map: &Map,
    index: &RegionIndex,
    key: &str,
    problems: &mut Problems,
) -> Option<Unit> {
    let text = spec.get_ref().trim();
    let (kind, place) = match text.split_once(char::is_whitespace) {
        Some(("A" | "a", place)) => (UnitKind::Army, place.trim()),
        Some(("F" | "f", place)) => (UnitKind::Fleet, place.trim()),
        _ => {
            problems.at(
                spec,
                key,
                format!("'{text}' is not a unit written like 'A vie' or 'F stp/sc'"),
            );
            return None;
        }
    };
    let Some(region) = index.get(&place.to_lowercase()).copied() else {
        problems.at(spec, key, format!("'{place}' is not a province or coast"));
        return None;
    };
    let province = map.province_of(region);
    let allowed = map.regions_for(province, kind);
    if !allowed.contains(&region) {
        let message = if allowed.len() > 1 {
            format!(
                "a fleet in {} must name its coast",
                map.province(province).id
            )
        } else {
            format!(
                "{} cannot start in {}",
                kind.word(),
                map.province(province).id
            )
        };
        problems.at(spec, key, message);
        return None;
    }
    Some(Unit {
        power,
        kind,
        region,
    })
}
