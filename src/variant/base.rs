//! A variant made from another: `base = "standard"` takes every table the file leaves out
//! from the shipped variant of that id (France-Austria, Fleet Rome, Chaos are the standard
//! map with their own powers, calendar or rules).

use super::file::{MapFile, VariantFile};

/// `file` with every table it leaves out taken from `base`: the calendar, victory, powers,
/// provinces, borders, listing and each part of the map the file does not give; rule
/// switches and the map's colours the file gives are laid over the base's. Colours of the
/// base's powers the file does not have are left out.
pub(super) fn merge(base: VariantFile, mut file: VariantFile) -> VariantFile {
    if file.description.is_empty() {
        file.description = base.description;
    }
    if file.source.is_empty() {
        file.source = base.source;
    }
    file.rules = file.rules.or(base.rules);
    let mut switches = base.rule_switches;
    switches.append(&mut file.rule_switches);
    file.rule_switches = switches;
    file.calendar = file.calendar.or(base.calendar);
    file.victory = file.victory.or(base.victory);
    if file.powers.is_empty() {
        file.powers = base.powers;
    }
    if file.provinces.is_empty() {
        file.provinces = base.provinces;
    }
    file.adjacency = file.adjacency.or(base.adjacency);
    if file.listing.is_empty() {
        file.listing = base.listing;
    }
    file.map = match (base.map, file.map) {
        (Some(base), Some(own)) => Some(merge_map(base, own)),
        (base, own) => own.or(base),
    };
    if let Some(map) = &mut file.map {
        let powers = &file.powers;
        map.colours.retain(|power, _| powers.contains_key(power));
    }
    file
}

/// The base's map with each part `own` gives in its place.
fn merge_map(base: MapFile, own: MapFile) -> MapFile {
    fn or<T>(own: Vec<T>, base: Vec<T>) -> Vec<T> {
        if own.is_empty() { base } else { own }
    }
    let mut colours = base.colours;
    colours.extend(own.colours);
    MapFile {
        projection: own.projection.or(base.projection),
        frame: own.frame.or(base.frame),
        width: own.width.or(base.width),
        colours,
        void_land: or(own.void_land, base.void_land),
        void_sea: or(own.void_sea, base.void_sea),
        links: or(own.links, base.links),
        provinces: if own.provinces.is_empty() {
            base.provinces
        } else {
            own.provinces
        },
        spaces: if own.spaces.is_empty() {
            base.spaces
        } else {
            own.spaces
        },
    }
}
