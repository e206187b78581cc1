//! The starting position of a variant file: home centres, owned centres and units.

use std::collections::BTreeMap;

use toml::Spanned;

use super::file::VariantFile;
use super::problems::{Problems, RegionIndex};
use crate::diplomacy::map::{Map, ProvinceId, Terrain};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::turn::Calendar;
use crate::diplomacy::unit::{Unit, UnitKind};

pub(super) fn build_start(
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
        for site in &power.partisan_sites {
            let key = format!("powers.{key}.partisan_sites");
            let Some(province) = province_named(site, map, &key, problems) else {
                continue;
            };
            let p = &mut map.provinces[province.index()];
            if p.centre.is_some() || !matches!(p.terrain, Terrain::Land | Terrain::Coast) {
                problems.at(
                    site,
                    &key,
                    format!("{} must be land or coast and no supply centre", p.id),
                );
            }
            if p.partisan_of.is_some_and(|other| other != id) {
                problems.at(
                    site,
                    &key,
                    format!("{} is a partisan site of another power", p.id),
                );
            }
            p.partisan_of = Some(id);
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
