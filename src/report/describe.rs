//! Orders, units and places in the words of a report: `Army Vienna -> Galicia.`,
//! `Fleet London SUPPORT French Army Paris -> Burgundy.`, and result notes like `(*bounce*)`,
//! in the reader's language (the `unit`, `order`, `note`, `illegal` and `list` keys of the
//! message catalog); names of powers and provinces in the reader's language where the variant
//! gives one (`Province::name_in`).
//! The functions without `_in` write English.

use super::messages::Words;
use crate::diplomacy::adjudicate::{Allowance, Illegal, Outcome};
use crate::diplomacy::map::{Map, RegionId};
use crate::diplomacy::order::{Action, Location, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::rules::Rules;
use crate::diplomacy::unit::{Unit, UnitKind};
use crate::tr;

/// `Army`, `Fleet`: a unit as the subject of a sentence.
fn kind_word(words: Words, kind: UnitKind) -> String {
    match kind {
        UnitKind::Army => tr!(words, "unit.army"),
        UnitKind::Fleet => tr!(words, "unit.fleet"),
    }
}

/// A unit as the object of a sentence (Russian `армию`).
fn kind_object(words: Words, kind: UnitKind) -> String {
    match kind {
        UnitKind::Army => tr!(words, "unit.army_object"),
        UnitKind::Fleet => tr!(words, "unit.fleet_object"),
    }
}

/// A region's name in `words`' language: the map's name, and a coast in the reader's words
/// (`St Petersburg (south coast)`, `St Petersburg (южный берег)`).
pub fn region_name_in(words: Words, map: &Map, region: RegionId) -> String {
    let r = map.region(region);
    let province = map.province(r.province).name_in(words.language());
    match r.coast.as_deref() {
        None => province.to_string(),
        Some(coast) => {
            let coast = match coast {
                "nc" => tr!(words, "coast.nc"),
                "sc" => tr!(words, "coast.sc"),
                "ec" => tr!(words, "coast.ec"),
                "wc" => tr!(words, "coast.wc"),
                other => crate::diplomacy::map::coast_name(other),
            };
            format!("{province} ({coast})")
        }
    }
}

/// A place as written in an order: a coast when one was given.
fn place(words: Words, map: &Map, at: Location) -> String {
    match at.coast {
        Some(region) => region_name_in(words, map, region),
        None => map
            .province(at.province)
            .name_in(words.language())
            .to_string(),
    }
}

/// `Army Vienna`, `Fleet St Petersburg (south coast)`, in English.
pub fn unit_name(map: &Map, unit: &Unit) -> String {
    unit_name_in(Words::english(), map, unit)
}

/// `Army Vienna`, `Fleet St Petersburg (south coast)`.
pub fn unit_name_in(words: Words, map: &Map, unit: &Unit) -> String {
    format!(
        "{} {}",
        kind_word(words, unit.kind),
        region_name_in(words, map, unit.region)
    )
}

/// The unit named by `at` in `position` (with its power's adjective when it is not the
/// viewer's), or what the order itself says; as the object of a sentence when `object`.
fn named_unit(
    words: Words,
    map: &Map,
    position: &Position,
    kind: Option<UnitKind>,
    at: Location,
    viewer: PowerId,
    object: bool,
) -> String {
    let word = |kind| {
        if object {
            kind_object(words, kind)
        } else {
            kind_word(words, kind)
        }
    };
    match position.unit_in(map, at.province) {
        Some(unit) => {
            let name = format!(
                "{} {}",
                word(unit.kind),
                region_name_in(words, map, unit.region)
            );
            if unit.power != viewer {
                let power = map.power(unit.power);
                tr!(
                    words,
                    "unit.foreign",
                    adjective = power.adjective,
                    power = power.name_in(words.language()),
                    unit = name
                )
            } else {
                name
            }
        }
        None => match kind {
            Some(kind) => format!("{} {}", word(kind), place(words, map, at)),
            None => place(words, map, at),
        },
    }
}

/// An order of `power` in English report words, ending with a full stop.
pub fn describe_order(map: &Map, position: &Position, power: PowerId, order: &Order) -> String {
    describe_order_in(Words::english(), map, position, power, order)
}

/// An order of `power` in report words, ending with a full stop.
pub fn describe_order_in(
    words: Words,
    map: &Map,
    position: &Position,
    power: PowerId,
    order: &Order,
) -> String {
    let Order::Unit(UnitOrder { unit, at, action }) = order else {
        return format!("{}.", tr!(words, "order.waive"));
    };
    if *action == Action::Build {
        let kind = match unit {
            Some(kind) => kind_word(words, *kind),
            None => tr!(words, "unit.any"),
        };
        return format!(
            "{}.",
            tr!(
                words,
                "order.build",
                kind = kind,
                place = place(words, map, *at)
            )
        );
    }
    // In a retreat phase the unit ordered is the one dislodged from the province, not the
    // attacker that now stands in it.
    let dislodged = || {
        position
            .dislodged
            .iter()
            .map(|d| &d.unit)
            .find(|u| map.province_of(u.region) == at.province)
    };
    let found = if position.turn.kind == crate::diplomacy::turn::PhaseKind::Retreat {
        dislodged().or_else(|| position.unit_in(map, at.province))
    } else {
        position.unit_in(map, at.province).or_else(dislodged)
    };
    let subject = match found {
        Some(u) => unit_name_in(words, map, u),
        None => named_unit(words, map, position, *unit, *at, power, false),
    };
    let other = |kind, at| named_unit(words, map, position, kind, at, power, true);
    let text = match action {
        Action::Hold => tr!(words, "order.hold", unit = subject),
        Action::Move { to, via_convoy } if *via_convoy => {
            tr!(
                words,
                "order.move_convoy",
                unit = subject,
                to = place(words, map, *to)
            )
        }
        Action::Move { to, .. } => tr!(
            words,
            "order.move",
            unit = subject,
            to = place(words, map, *to)
        ),
        Action::SupportHold { unit, at } => tr!(
            words,
            "order.support_hold",
            unit = subject,
            other = other(*unit, *at)
        ),
        Action::SupportMove { unit, from, to } => tr!(
            words,
            "order.support_move",
            unit = subject,
            other = other(*unit, *from),
            to = place(words, map, *to)
        ),
        Action::Convoy { from, to } => tr!(
            words,
            "order.convoy",
            unit = subject,
            other = other(Some(UnitKind::Army), *from),
            to = place(words, map, *to)
        ),
        Action::Retreat { to } => {
            tr!(
                words,
                "order.retreat",
                unit = subject,
                to = place(words, map, *to)
            )
        }
        Action::Disband => tr!(words, "order.disband", unit = subject),
        Action::Build => subject,
        Action::Destroy => tr!(words, "order.destroy", unit = subject),
        Action::Restore => tr!(words, "order.restore", unit = subject),
    };
    format!("{text}.")
}

/// The classic result note of an outcome in English (`bounce`, `cut`...), empty for plain
/// success.
pub fn note(map: &Map, outcome: &Outcome) -> String {
    note_in(Words::english(), map, outcome)
}

/// The classic result note of an outcome (`bounce`, `cut`...), empty for plain success.
pub fn note_in(words: Words, map: &Map, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Held
        | Outcome::Moved
        | Outcome::Supported
        | Outcome::Convoyed
        | Outcome::Retreated => String::new(),
        Outcome::Built | Outcome::Waived => String::new(),
        Outcome::Disbanded => String::new(),
        Outcome::Destroyed => tr!(words, "note.destroyed"),
        Outcome::Restoring => tr!(words, "note.restoring"),
        Outcome::Restored => tr!(words, "note.restored"),
        Outcome::Dislodged { by } => {
            let from = map.province(*by).name_in(words.language());
            tr!(words, "note.dislodged", from = from)
        }
        Outcome::Bounced { by } if by.is_empty() => tr!(words, "note.bounce"),
        Outcome::Bounced { by } => {
            let units: Vec<String> = by.iter().map(|b| bouncer(words, map, b)).collect();
            tr!(words, "note.bounce_with", names = units.join(", "))
        }
        Outcome::NoConvoy => tr!(words, "note.no_convoy"),
        Outcome::Paradox => tr!(words, "note.paradox"),
        Outcome::Cut { by } => tr!(
            words,
            "note.cut",
            from = map.province(*by).name_in(words.language())
        ),
        Outcome::Void => tr!(words, "note.void"),
        Outcome::Superseded => tr!(words, "note.replaced"),
        Outcome::Illegal(why) => tr!(words, "note.illegal", why = explain(words, *why)),
        Outcome::RetreatBounced { .. } => tr!(words, "note.retreat_bounced"),
        Outcome::NotAllowed(Allowance::NoBuildsLeft) => tr!(words, "note.no_builds_left"),
        Outcome::NotAllowed(Allowance::NoRemovalsLeft) => tr!(words, "note.no_removals_left"),
        Outcome::NotAllowed(Allowance::FleetLimit) => tr!(words, "note.fleet_limit"),
        Outcome::NotAllowed(Allowance::SiteTaken) => tr!(words, "note.site_taken"),
        Outcome::NotAllowed(Allowance::AlreadyRemoved) => tr!(words, "note.already_removed"),
    }
}

/// The unit a move bounced with, named by its kind and where it came from: "the army from
/// Warsaw" (a rival), "the fleet in Ukraine" (the unit standing in the destination).
fn bouncer(words: Words, map: &Map, b: &crate::diplomacy::adjudicate::Bouncer) -> String {
    let place = map.province(b.at).name_in(words.language());
    match (b.kind, b.defended) {
        (UnitKind::Army, false) => tr!(words, "note.army_from", place = place),
        (UnitKind::Fleet, false) => tr!(words, "note.fleet_from", place = place),
        (UnitKind::Army, true) => tr!(words, "note.army_in", place = place),
        (UnitKind::Fleet, true) => tr!(words, "note.fleet_in", place = place),
    }
}

/// Why an order could not be carried out, in the reader's words.
pub fn explain(words: Words, why: Illegal) -> String {
    match why {
        Illegal::NoUnit => tr!(words, "illegal.no_unit"),
        Illegal::ForeignUnit => tr!(words, "illegal.foreign_unit"),
        Illegal::WrongPhase => tr!(words, "illegal.wrong_phase"),
        Illegal::MoveToSelf => tr!(words, "illegal.move_to_self"),
        Illegal::Unreachable => tr!(words, "illegal.unreachable"),
        Illegal::WrongTerrain => tr!(words, "illegal.wrong_terrain"),
        Illegal::CoastNeeded => tr!(words, "illegal.coast_needed"),
        Illegal::CoastUnreachable => tr!(words, "illegal.coast_unreachable"),
        Illegal::NoSupportedUnit => tr!(words, "illegal.no_supported_unit"),
        Illegal::SupportSelf => tr!(words, "illegal.support_self"),
        Illegal::SupportUnreachable => tr!(words, "illegal.support_unreachable"),
        Illegal::SupportedMoveImpossible => tr!(words, "illegal.supported_move_impossible"),
        Illegal::ConvoyerNotAtSea => tr!(words, "illegal.convoyer_not_at_sea"),
        Illegal::NotAnArmy => tr!(words, "illegal.not_an_army"),
        Illegal::FleetViaConvoy => tr!(words, "illegal.fleet_via_convoy"),
        Illegal::NotOnConvoyRoute => tr!(words, "illegal.not_on_convoy_route"),
        Illegal::NotDislodged => tr!(words, "illegal.not_dislodged"),
        Illegal::RetreatNotAllowed => tr!(words, "illegal.retreat_not_allowed"),
        Illegal::NoBuilds => tr!(words, "illegal.no_builds"),
        Illegal::NotBuildSite => tr!(words, "illegal.not_build_site"),
        Illegal::SiteOccupied => tr!(words, "illegal.site_occupied"),
        Illegal::SiteNotOwned => tr!(words, "illegal.site_not_owned"),
        Illegal::CannotBuildThere => tr!(words, "illegal.cannot_build_there"),
        Illegal::BuildCoastNeeded => tr!(words, "illegal.build_coast_needed"),
        Illegal::UnitTypeNeeded => tr!(words, "illegal.unit_type_needed"),
        Illegal::NoRemovals => tr!(words, "illegal.no_removals"),
        Illegal::SiteDestroyed => tr!(words, "illegal.site_destroyed"),
        Illegal::NotInThisVariant => tr!(words, "illegal.not_in_this_variant"),
        Illegal::NotACentre => tr!(words, "illegal.not_a_centre"),
        Illegal::Indestructible => tr!(words, "illegal.indestructible"),
        Illegal::AlreadyDestroyed => tr!(words, "illegal.already_destroyed"),
        Illegal::NotDestroyed => tr!(words, "illegal.not_destroyed"),
    }
}

/// Why a well-formed adjustment order will not be carried out, in the reader's words.
pub fn explain_allowance(words: Words, rules: &Rules, why: Allowance) -> String {
    match why {
        Allowance::NoBuildsLeft => tr!(words, "allowance.no_builds_left"),
        Allowance::NoRemovalsLeft => tr!(words, "allowance.no_removals_left"),
        Allowance::FleetLimit => tr!(
            words,
            "allowance.fleet_limit",
            max = rules.max_fleet_builds.unwrap_or(0)
        ),
        Allowance::SiteTaken => tr!(words, "allowance.site_taken"),
        Allowance::AlreadyRemoved => tr!(words, "allowance.already_removed"),
    }
}

/// `Galicia or Vienna`, `Galicia, Bohemia or Vienna`, in English.
pub fn either(map: &Map, regions: &[RegionId]) -> String {
    either_in(Words::english(), map, regions)
}

/// `Galicia or Vienna`, `Galicia, Bohemia or Vienna`.
pub fn either_in(words: Words, map: &Map, regions: &[RegionId]) -> String {
    let names: Vec<String> = regions
        .iter()
        .map(|r| region_name_in(words, map, *r))
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => tr!(words, "list.or", rest = rest.join(", "), last = last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::turn::PhaseKind;
    use crate::diplomacy::unit::UnitKind;

    /// A retreat order names the dislodged unit, not the attacker now in its province: the
    /// Turkish army in Bulgaria, dislodged by a Russian fleet that moved to its east coast.
    #[test]
    fn a_retreat_names_the_dislodged_unit() {
        let variants = crate::variant::embedded().unwrap();
        let standard = variants.iter().find(|v| v.id == "standard").unwrap();
        let map = &standard.map;
        let mut position = standard.start.clone();
        position.turn.kind = PhaseKind::Retreat;
        let bul = map.province_by_id("bul").unwrap();
        let turkey = map.power_by_id("turkey").unwrap();
        let russia = map.power_by_id("russia").unwrap();
        position.units.push(crate::diplomacy::unit::Unit {
            power: russia,
            kind: UnitKind::Fleet,
            region: map.coast_region(bul, "ec").unwrap(),
        });
        position
            .dislodged
            .push(crate::diplomacy::position::Dislodgement {
                unit: crate::diplomacy::unit::Unit {
                    power: turkey,
                    kind: UnitKind::Army,
                    region: map.regions_for(bul, UnitKind::Army)[0],
                },
                attacker_from: map.province_by_id("rum").unwrap(),
                by_convoy: false,
            });
        let (order, _) =
            crate::text::order::parse_order(standard, PhaseKind::Retreat, "A Bul R Gre");
        let text = describe_order(map, &position, turkey, &order.unwrap());
        assert_eq!(text, "Army Bulgaria -> Greece.");
    }
}
