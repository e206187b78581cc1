//! Place names as players write them: normalisation, look-up and "did you mean" suggestions
//! (through the variant's shared `Lexicon`).

use crate::diplomacy::map::{Map, NameTarget};
use crate::message::Arg;
use crate::msg;
use crate::variant::Variant;

use super::lexicon::{Rows, distance};

/// Fold a name to the form `Map::names` stores: lower-case (Unicode), dots removed, `_`, `-`
/// and runs of whitespace replaced by one space, trimmed (`"St. Petersburg"` →
/// `"st petersburg"`). The variant loader builds `Map::names` with this very function.
pub use crate::diplomacy::map::normalise_name;

/// What `name` refers to on the variant's map, after normalisation; `None` if it is not a
/// known name.
pub fn lookup(variant: &Variant, name: &str) -> Option<NameTarget> {
    variant.lexicon().lookup(&normalise_name(name))
}

/// The full name of the place whose name is closest to `name`, when it is close enough to be
/// a likely slip of the pen (edit distance at most a third of the length, and at least 1).
pub fn suggest(variant: &Variant, name: &str) -> Option<String> {
    variant
        .lexicon()
        .closest(name)
        .map(|(target, _)| target_name(&variant.map, target))
}

/// The name of a place for a player: `London`, `St Petersburg (north coast)`.
pub(crate) fn target_name(map: &Map, target: NameTarget) -> String {
    match target {
        NameTarget::Province(p) => map.province(p).name.clone(),
        NameTarget::Region(r) => map.region_name(r),
    }
}

/// The name of a place for a message, in each reader's language: `London`, `Лондон`,
/// `St Petersburg (north coast)`, `Санкт-Петербург (северный берег)`.
pub(crate) fn target_arg(map: &Map, target: NameTarget) -> Arg {
    match target {
        NameTarget::Province(p) => Arg::from(map.province(p)),
        NameTarget::Region(r) => {
            let region = map.region(r);
            let province = map.province(region.province);
            let coast = match region.coast.as_deref() {
                Some("nc") => msg!("coast.nc"),
                Some("sc") => msg!("coast.sc"),
                Some("ec") => msg!("coast.ec"),
                Some("wc") => msg!("coast.wc"),
                _ => return Arg::from(province),
            };
            Arg::Message(msg!("coast.region", province = *province, coast = coast))
        }
    }
}

/// Optimal-string-alignment distance (Levenshtein plus swaps of adjacent letters), on chars.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance(&a, &b, &mut Rows::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises() {
        assert_eq!(normalise_name("St. Petersburg"), "st petersburg");
        assert_eq!(normalise_name("Mid-Atlantic  Ocean"), "mid atlantic ocean");
        assert_eq!(normalise_name("  gulf_of - lyon "), "gulf of lyon");
        assert_eq!(normalise_name("Санкт-Петербург"), "санкт петербург");
        assert_eq!(normalise_name("stp/nc"), "stp/nc");
        assert_eq!(normalise_name("N.C."), "nc");
        assert_eq!(normalise_name(""), "");
        assert_eq!(normalise_name("-_ ."), "");
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("lodnon", "london"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("москва", "моксва"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }
}
