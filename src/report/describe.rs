//! Orders, units and places in the words of a report: `Army Vienna -> Galicia.`,
//! `Fleet London SUPPORT French Army Paris -> Burgundy.`, and result notes like `(*bounce*)`.

use crate::diplomacy::adjudicate::{Allowance, Outcome};
use crate::diplomacy::map::{Map, RegionId};
use crate::diplomacy::order::{Action, Location, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::unit::{Unit, UnitKind};

fn kind_word(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Army => "Army",
        UnitKind::Fleet => "Fleet",
    }
}

/// A place as written in an order: a coast when one was given.
fn place(map: &Map, at: Location) -> String {
    match at.coast {
        Some(region) => map.region_name(region),
        None => map.province(at.province).name.clone(),
    }
}

/// `Army Vienna`, `Fleet St Petersburg (south coast)`.
pub fn unit_name(map: &Map, unit: &Unit) -> String {
    format!("{} {}", kind_word(unit.kind), map.region_name(unit.region))
}

/// The unit named by `at` in `position`, or what the order itself says.
fn named_unit(
    map: &Map,
    position: &Position,
    kind: Option<UnitKind>,
    at: Location,
    viewer: PowerId,
) -> String {
    match position.unit_in(map, at.province) {
        Some(unit) => {
            let adjective = if unit.power != viewer {
                format!("{} ", map.power(unit.power).adjective)
            } else {
                String::new()
            };
            format!("{adjective}{}", unit_name(map, unit))
        }
        None => match kind {
            Some(kind) => format!("{} {}", kind_word(kind), place(map, at)),
            None => place(map, at),
        },
    }
}

/// An order of `power` in report words, ending with a full stop.
pub fn describe_order(map: &Map, position: &Position, power: PowerId, order: &Order) -> String {
    let Order::Unit(UnitOrder { unit, at, action }) = order else {
        return "Build waived.".into();
    };
    let subject = match action {
        Action::Build => format!(
            "Build {} {}",
            unit.map_or("unit", kind_word),
            place(map, *at)
        ),
        _ => match position.unit_in(map, at.province).or_else(|| {
            position
                .dislodged
                .iter()
                .map(|d| &d.unit)
                .find(|u| map.province_of(u.region) == at.province)
        }) {
            Some(u) => unit_name(map, u),
            None => named_unit(map, position, *unit, *at, power),
        },
    };
    let rest = match action {
        Action::Hold => " HOLD".to_string(),
        Action::Move { to, via_convoy } => {
            format!(
                " -> {}{}",
                place(map, *to),
                if *via_convoy { " VIA CONVOY" } else { "" }
            )
        }
        Action::SupportHold { unit, at } => {
            format!(" SUPPORT {}", named_unit(map, position, *unit, *at, power))
        }
        Action::SupportMove { unit, from, to } => {
            format!(
                " SUPPORT {} -> {}",
                named_unit(map, position, *unit, *from, power),
                place(map, *to)
            )
        }
        Action::Convoy { from, to } => {
            format!(
                " CONVOY {} -> {}",
                named_unit(map, position, Some(UnitKind::Army), *from, power),
                place(map, *to)
            )
        }
        Action::Retreat { to } => format!(" -> {}", place(map, *to)),
        Action::Disband => " DISBAND".to_string(),
        Action::Build => String::new(),
        Action::Destroy => " DESTROY".to_string(),
        Action::Restore => " RESTORE".to_string(),
    };
    format!("{subject}{rest}.")
}

/// The classic result note of an outcome (`bounce`, `cut`...), empty for plain success.
pub fn note(map: &Map, outcome: &Outcome) -> String {
    let names = |provinces: &[crate::diplomacy::map::ProvinceId]| {
        provinces
            .iter()
            .map(|p| map.province(*p).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match outcome {
        Outcome::Held
        | Outcome::Moved
        | Outcome::Supported
        | Outcome::Convoyed
        | Outcome::Retreated => String::new(),
        Outcome::Built | Outcome::Waived => String::new(),
        Outcome::Disbanded => String::new(),
        Outcome::Destroyed => "centre destroyed".into(),
        Outcome::Restoring => "restoring: one more turn".into(),
        Outcome::Restored => "centre restored".into(),
        Outcome::Dislodged { by } => format!("dislodged from {}", map.province(*by).name),
        Outcome::Bounced { by } if by.is_empty() => "bounce".into(),
        Outcome::Bounced { by } => format!("bounce with {}", names(by)),
        Outcome::NoConvoy => "no convoy".into(),
        Outcome::Paradox => "no convoy: paradox".into(),
        Outcome::Cut { by } => format!("cut from {}", map.province(*by).name),
        Outcome::Void => "void".into(),
        Outcome::Superseded => "replaced".into(),
        Outcome::Illegal(why) => format!("illegal: {}", why.explain()),
        Outcome::RetreatBounced { .. } => "bounce, destroyed".into(),
        Outcome::NotAllowed(Allowance::NoBuildsLeft) => "no builds left".into(),
        Outcome::NotAllowed(Allowance::NoRemovalsLeft) => "no removals left".into(),
        Outcome::NotAllowed(Allowance::FleetLimit) => "too many fleets this winter".into(),
        Outcome::NotAllowed(Allowance::SiteTaken) => "site already used".into(),
        Outcome::NotAllowed(Allowance::AlreadyRemoved) => "already removed".into(),
    }
}

/// `Galicia or Vienna`, `Galicia, Bohemia or Vienna`.
pub fn either(map: &Map, regions: &[RegionId]) -> String {
    let names: Vec<String> = regions.iter().map(|r| map.region_name(*r)).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
