//! A game's position as stored: JSON with the variant's ids, so a stored game stays
//! readable by people and survives changes to the in-memory indices.

use serde_json::{Value, json};

use crate::diplomacy::map::{Map, NameTarget};
use crate::diplomacy::position::{Credit, Dislodgement, Position, Restoration};
use crate::diplomacy::turn::{PhaseKind, Season, Turn};
use crate::diplomacy::unit::{Unit, UnitKind};
use crate::variant::Variant;

/// The position as JSON text.
pub fn position_to_json(map: &Map, position: &Position) -> String {
    let unit = |u: &Unit| {
        json!([
            map.power(u.power).id,
            u.kind.word(),
            map.region_id(u.region)
        ])
    };
    let owners: serde_json::Map<String, Value> = position
        .owners
        .iter()
        .enumerate()
        .filter_map(|(p, owner)| {
            owner.map(|o| (map.provinces[p].id.clone(), json!(map.power(o).id)))
        })
        .collect();
    let value = json!({
        "year": position.turn.year,
        "season": match position.turn.season { Season::Spring => "spring", Season::Fall => "fall", Season::Winter => "winter" },
        "kind": match position.turn.kind { PhaseKind::Movement => "movement", PhaseKind::Retreat => "retreat", PhaseKind::Adjustment => "adjustment" },
        "units": position.units.iter().map(unit).collect::<Vec<_>>(),
        "dislodged": position.dislodged.iter().map(|d| json!({
            "unit": unit(&d.unit),
            "attacker_from": map.province(d.attacker_from).id,
            "by_convoy": d.by_convoy,
        })).collect::<Vec<_>>(),
        "contested": position.contested.iter().map(|p| json!(map.province(*p).id)).collect::<Vec<_>>(),
        "owners": owners,
        "destroyed": position.destroyed.iter().map(|p| json!(map.province(*p).id)).collect::<Vec<_>>(),
        "restoring": position.restoring.iter().map(|r| json!({
            "province": map.province(r.province).id, "power": map.power(r.power).id, "turns": r.turns,
        })).collect::<Vec<_>>(),
        "credits": position.credits.iter().map(|c| json!({
            "lender": map.power(c.lender).id, "borrower": map.power(c.borrower).id, "amount": c.amount,
        })).collect::<Vec<_>>(),
    });
    value.to_string()
}

/// Reads a position of `variant` stored by `position_to_json`.
pub fn position_from_json(variant: &Variant, text: &str) -> Result<Position, String> {
    let map = &variant.map;
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("stored position is not JSON: {e}"))?;
    let season = match v["season"].as_str() {
        Some("spring") => Season::Spring,
        Some("fall") => Season::Fall,
        Some("winter") => Season::Winter,
        _ => return Err("stored position has no season".into()),
    };
    let kind = match v["kind"].as_str() {
        Some("movement") => PhaseKind::Movement,
        Some("retreat") => PhaseKind::Retreat,
        Some("adjustment") => PhaseKind::Adjustment,
        _ => return Err("stored position has no phase kind".into()),
    };
    let year = v["year"].as_i64().ok_or("stored position has no year")? as i32;
    let mut position = Position::empty(map, Turn { year, season, kind });
    // Looked up by hash in the variant's lexicon, not by going through every province.
    let lexicon = variant.lexicon();
    let province_by_id = |id: &str| match lexicon.place_by_id(id) {
        Some(NameTarget::Province(p)) => Some(p),
        _ => None,
    };
    let read_unit = |u: &Value| -> Result<Unit, String> {
        let power = u[0]
            .as_str()
            .and_then(|p| lexicon.power_by_id(p))
            .ok_or("stored unit has an unknown power")?;
        let kind = match u[1].as_str() {
            Some("army") => UnitKind::Army,
            Some("fleet") => UnitKind::Fleet,
            _ => return Err("stored unit has no type".into()),
        };
        let at = u[2].as_str().ok_or("stored unit has no place")?;
        let (p, coast) = at.split_once('/').map_or((at, None), |(p, c)| (p, Some(c)));
        let province =
            province_by_id(p).ok_or_else(|| format!("stored unit in unknown province {p}"))?;
        let region = match coast {
            Some(c) => map
                .coast_region(province, c)
                .ok_or_else(|| format!("{p} has no coast {c}"))?,
            None => map.province(province).region,
        };
        Ok(Unit {
            power,
            kind,
            region,
        })
    };
    for u in v["units"].as_array().into_iter().flatten() {
        position.units.push(read_unit(u)?);
    }
    for d in v["dislodged"].as_array().into_iter().flatten() {
        let from = d["attacker_from"]
            .as_str()
            .and_then(&province_by_id)
            .ok_or("stored retreat has no attacker")?;
        position.dislodged.push(Dislodgement {
            unit: read_unit(&d["unit"])?,
            attacker_from: from,
            by_convoy: d["by_convoy"].as_bool().unwrap_or(false),
        });
    }
    for p in v["contested"].as_array().into_iter().flatten() {
        position.contested.push(
            p.as_str()
                .and_then(&province_by_id)
                .ok_or("stored contested province unknown")?,
        );
    }
    for (province, owner) in v["owners"].as_object().into_iter().flatten() {
        let p = province_by_id(province)
            .ok_or_else(|| format!("stored owner of unknown province {province}"))?;
        position.owners[p.index()] = owner.as_str().and_then(|o| lexicon.power_by_id(o));
    }
    for p in v["destroyed"].as_array().into_iter().flatten() {
        position.destroyed.push(
            p.as_str()
                .and_then(&province_by_id)
                .ok_or("stored destroyed centre unknown")?,
        );
    }
    for r in v["restoring"].as_array().into_iter().flatten() {
        position.restoring.push(Restoration {
            province: r["province"]
                .as_str()
                .and_then(&province_by_id)
                .ok_or("stored restoration: unknown province")?,
            power: r["power"]
                .as_str()
                .and_then(|p| lexicon.power_by_id(p))
                .ok_or("stored restoration: unknown power")?,
            turns: r["turns"].as_u64().unwrap_or(1) as u8,
        });
    }
    for c in v["credits"].as_array().into_iter().flatten() {
        position.credits.push(Credit {
            lender: c["lender"]
                .as_str()
                .and_then(|p| lexicon.power_by_id(p))
                .ok_or("stored credit: unknown lender")?,
            borrower: c["borrower"]
                .as_str()
                .and_then(|p| lexicon.power_by_id(p))
                .ok_or("stored credit: unknown borrower")?,
            amount: c["amount"].as_u64().unwrap_or(0) as u32,
        });
    }
    Ok(position)
}
