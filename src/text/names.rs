//! Place names as players write them: normalisation, look-up and "did you mean" suggestions.

use crate::diplomacy::map::{Map, NameTarget};

/// Fold a name to the form `Map::names` stores: lower-case (Unicode), dots removed, `_`, `-`
/// and runs of whitespace replaced by one space, trimmed (`"St. Petersburg"` →
/// `"st petersburg"`). The variant loader builds `Map::names` with this very function.
pub use crate::diplomacy::map::normalise_name;

/// What `name` refers to on `map`, after normalisation; `None` if it is not a known name.
pub fn lookup(map: &Map, name: &str) -> Option<NameTarget> {
    let key = normalise_name(name);
    map.names
        .binary_search_by(|(known, _)| known.as_str().cmp(&key))
        .ok()
        .map(|i| map.names[i].1)
}

/// The full name of the place whose name is closest to `name`, when it is close enough to be
/// a likely slip of the pen (edit distance at most a third of the length, and at least 1).
pub fn suggest(map: &Map, name: &str) -> Option<String> {
    closest(map, name).map(|(full, _)| full)
}

/// Like `suggest`, with the edit distance of the suggestion.
pub(crate) fn closest(map: &Map, name: &str) -> Option<(String, usize)> {
    let key: Vec<char> = normalise_name(name).chars().collect();
    if key.is_empty() {
        return None;
    }
    let limit = (key.len() / 3).max(1);
    let mut known: Vec<char> = Vec::new();
    let mut rows = Rows::default();
    let mut best: Option<(NameTarget, usize)> = None;
    for (name, target) in &map.names {
        if name.chars().count().abs_diff(key.len()) > limit {
            continue;
        }
        known.clear();
        known.extend(name.chars());
        let d = distance(&key, &known, &mut rows);
        if d <= limit && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((*target, d));
        }
    }
    best.map(|(target, d)| (target_name(map, target), d))
}

/// The name of a place for a player: `London`, `St Petersburg (north coast)`.
pub(crate) fn target_name(map: &Map, target: NameTarget) -> String {
    match target {
        NameTarget::Province(p) => map.province(p).name.clone(),
        NameTarget::Region(r) => map.region_name(r),
    }
}

/// Optimal-string-alignment distance (Levenshtein plus swaps of adjacent letters), on chars.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance(&a, &b, &mut Rows::default())
}

/// Rows of the distance table, kept between calls to save allocations.
#[derive(Default)]
struct Rows {
    /// Two rows back (for swaps), previous, current.
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

fn distance(a: &[char], b: &[char], rows: &mut Rows) -> usize {
    let width = b.len() + 1;
    let Rows { before, prev, cur } = rows;
    before.clear();
    before.resize(width, 0);
    prev.clear();
    prev.extend(0..width);
    cur.clear();
    cur.resize(width, 0);
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let mut d = (prev[j + 1] + 1).min(cur[j] + 1).min(prev[j] + cost);
            if i > 0 && j > 0 && a.get(i - 1) == Some(&cb) && b.get(j - 1) == Some(&ca) {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        std::mem::swap(before, prev);
        std::mem::swap(prev, cur);
    }
    prev[width - 1]
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
