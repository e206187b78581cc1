//! A map's names prepared for reading players' text, made once per map and shared by every
//! reader of orders (the mail judge, the JSON interface, the tests).
//!
//! `Map::names` (every name, alias and coast id, normalised and sorted) is the source; the
//! lexicon adds what each reader used to work out again for every text: how many words the
//! longest name has, the powers' words, every name spelled out for "did you mean", and the
//! province and region ids for the JSON interface.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

use crate::diplomacy::map::{Map, NameTarget, ProvinceId, RegionId, normalise_name};
use crate::diplomacy::power::PowerId;

/// Longest name looked up, in words (bounds the work on long lines).
const MAX_NAME_WORDS: usize = 8;

/// What a run of words of a name is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Words {
    /// The place these words name, if they are a whole name.
    pub target: Option<NameTarget>,
    /// Some longer name starts with these words.
    pub longer: bool,
}

/// The names of one map, ready for reading orders. Get a variant's with `Variant::lexicon`.
#[derive(Clone, Debug)]
pub struct Lexicon {
    /// Most words in a place name (at most `MAX_NAME_WORDS`).
    pub(crate) max_words: usize,
    /// Power ids, names and adjectives, normalised.
    pub(crate) powers: HashSet<String, ByName>,
    /// Most words in a power's id, name or adjective.
    pub(crate) max_power_words: usize,
    /// The runs of first words of the powers' names of more than one word (`holy roman`): a
    /// reader extends a power's name word by word only while one may follow.
    power_starts: HashSet<String, ByName>,
    /// Each name of `Map::names`, and each run of its first words (`mid`, `mid atlantic`), to
    /// what the name means and whether a longer name starts with it: a reader extends a name
    /// word by word only while a longer one may follow.
    words: HashMap<String, Words, ByName>,
    /// Each name of `Map::names`, as chars, with its length: what "did you mean" compares.
    spelled: Vec<(Vec<char>, NameTarget)>,
    /// Province ids (`lon`) and region ids (`stp/nc`) in ASCII lower case.
    ids: HashMap<String, NameTarget, ByName>,
    /// `Map::region_id` of each region, by `RegionId`.
    region_ids: Vec<String>,
    /// Power ids and names in ASCII lower case (`england`).
    power_ids: HashMap<String, PowerId, ByName>,
}

impl Lexicon {
    /// The lexicon of `map`; a variant keeps its map's (`Variant::lexicon`), made once.
    pub fn new(map: &Map) -> Lexicon {
        let words = |s: &str| s.bytes().filter(|&b| b == b' ').count() + 1;
        let max_words = map.names.iter().map(|(n, _)| words(n)).max().unwrap_or(1);
        let powers: HashSet<String, ByName> = map
            .powers
            .iter()
            .flat_map(|p| [&p.id, &p.name, &p.adjective].into_iter().chain(&p.ru))
            .map(|s| normalise_name(s))
            .filter(|s| !s.is_empty())
            .collect();
        let max_power_words = powers.iter().map(|p| words(p)).max().unwrap_or(1);
        let power_starts = powers
            .iter()
            .flat_map(|p| p.match_indices(' ').map(|(i, _)| p[..i].to_string()))
            .collect();
        let mut words: HashMap<String, Words, ByName> = HashMap::default();
        for (name, target) in &map.names {
            words.entry(name.clone()).or_default().target = Some(*target);
            for (i, _) in name.match_indices(' ') {
                words.entry(name[..i].to_string()).or_default().longer = true;
            }
        }
        let spelled = map
            .names
            .iter()
            .map(|(name, target)| (name.chars().collect(), *target))
            .collect();
        let mut ids: HashMap<String, NameTarget, ByName> = HashMap::default();
        for (i, province) in map.provinces.iter().enumerate() {
            let id = ProvinceId(i as u16);
            ids.insert(province.id.to_ascii_lowercase(), NameTarget::Province(id));
            for coast in &province.coasts {
                ids.insert(
                    map.region_id(*coast).to_ascii_lowercase(),
                    NameTarget::Region(*coast),
                );
            }
        }
        let region_ids = (0..map.regions.len())
            .map(|r| map.region_id(RegionId(r as u16)))
            .collect();
        let mut power_ids: HashMap<String, PowerId, ByName> = HashMap::default();
        // As `Map::power_by_id`: the first power whose id or name it is.
        for (i, power) in map.powers.iter().enumerate().rev() {
            for key in [&power.name, &power.id] {
                power_ids.insert(key.to_ascii_lowercase(), PowerId(i as u8));
            }
            if let Some(ru) = &power.ru {
                power_ids.insert(ru.to_lowercase(), PowerId(i as u8));
            }
        }
        Lexicon {
            max_words: max_words.min(MAX_NAME_WORDS),
            powers,
            max_power_words: max_power_words.min(MAX_NAME_WORDS),
            power_starts,
            words,
            spelled,
            ids,
            region_ids,
            power_ids,
        }
    }

    /// What a normalised name refers to.
    pub fn lookup(&self, key: &str) -> Option<NameTarget> {
        self.words.get(key).and_then(|w| w.target)
    }

    /// Whether normalised words are a power's id, name or adjective (`english`).
    pub(crate) fn is_power_word(&self, key: &str) -> bool {
        self.powers.contains(key)
    }

    /// Whether a power's name of more than one word starts with the normalised words `key`.
    pub(crate) fn starts_power_name(&self, key: &str) -> bool {
        self.power_starts.contains(key)
    }

    /// What the normalised words `key` are: a whole name, the start of a longer one, both, or
    /// neither (`None`).
    pub(crate) fn words(&self, key: &str) -> Option<Words> {
        self.words.get(key).copied()
    }

    /// The province or region with this id (`lon`, `STP/NC`), ASCII case ignored: the ids of
    /// the JSON interface and the DATC. Names and aliases are not ids.
    pub fn place_by_id(&self, id: &str) -> Option<NameTarget> {
        self.ids.get(lowercase(id).as_ref()).copied()
    }

    /// The power with this id or name (`england`, `England`, `Англия`), case ignored: as
    /// `Map::power_by_id`, without going through every power.
    pub fn power_by_id(&self, id: &str) -> Option<PowerId> {
        if !id.is_ascii() {
            return self.power_ids.get(&id.to_lowercase()).copied();
        }
        self.power_ids.get(lowercase(id).as_ref()).copied()
    }

    /// `Map::region_id` of a region (`lon`, `stp/nc`), without making it anew.
    pub fn region_id(&self, region: RegionId) -> &str {
        &self.region_ids[region.index()]
    }

    /// The place whose name is closest to `name` (normalised here), with the edit distance,
    /// when it is close enough to be a likely slip of the pen: at most a third of the length,
    /// and at least 1. A swap of two neighbouring letters is one slip, like a wrong letter;
    /// of equally close names the one sharing more of the letters written wins (`nht` is
    /// `nth` with two letters swapped, North Sea, rather than `nat` with one wrong, North
    /// Atlantic Ocean), then the first in `Map::names`' order.
    pub fn closest(&self, name: &str) -> Option<(NameTarget, usize)> {
        let key: Vec<char> = normalise_name(name).chars().collect();
        if key.is_empty() {
            return None;
        }
        let limit = (key.len() / 3).max(1);
        let mut rows = Rows::default();
        let mut best: Option<(NameTarget, usize, usize)> = None;
        for (known, target) in &self.spelled {
            if known.len().abs_diff(key.len()) > limit {
                continue;
            }
            let d = distance(&key, known, &mut rows);
            if d > limit {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, bd, _)) if d != bd => d < bd,
                Some((_, _, shared)) => shared_letters(&key, known) > shared,
            };
            if better {
                best = Some((*target, d, shared_letters(&key, known)));
            }
        }
        best.map(|(target, d, _)| (target, d))
    }
}

/// `text` in ASCII lower case, copied only if it has upper case.
fn lowercase(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// Hashes the short names of a map quickly (FNV-1a); the names are the map's own, so there is
/// no one to choose keys that collide.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ByName;

impl BuildHasher for ByName {
    type Hasher = NameHasher;

    fn build_hasher(&self) -> NameHasher {
        NameHasher(0xcbf2_9ce4_8422_2325)
    }
}

/// FNV-1a over the bytes written.
pub(crate) struct NameHasher(u64);

impl Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// How many letters of `a` are also in `b`, each letter of `b` counted once.
fn shared_letters(a: &[char], b: &[char]) -> usize {
    let mut unused: Vec<char> = b.to_vec();
    a.iter()
        .filter(|c| {
            let found = unused.iter().position(|u| u == *c);
            found.map(|i| unused.swap_remove(i)).is_some()
        })
        .count()
}

/// Rows of the distance table, kept between calls to save allocations.
#[derive(Default)]
pub(crate) struct Rows {
    /// Two rows back (for swaps), previous, current.
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

/// Optimal-string-alignment distance (Levenshtein plus swaps of adjacent letters), on chars.
pub(crate) fn distance(a: &[char], b: &[char], rows: &mut Rows) -> usize {
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

    fn standard() -> crate::variant::Variant {
        crate::variant::embedded()
            .expect("embedded variants load")
            .into_iter()
            .find(|v| v.id == "standard")
            .expect("standard")
    }

    #[test]
    fn made_once_per_variant_and_shared() {
        let variant = standard();
        let first: *const Lexicon = variant.lexicon();
        let again: *const Lexicon = variant.lexicon();
        assert_eq!(first, again, "the second reader gets the same lexicon");
        let lexicon = variant.lexicon();
        assert!(lexicon.is_power_word("english"));
        assert_eq!(lexicon.max_words, 3, "Mid Atlantic Ocean, Gulf of Lyon");
        let mao = lexicon.lookup("mao");
        assert!(mao.is_some());
        assert_eq!(lexicon.lookup("mid atlantic ocean"), mao);
        assert_eq!(
            lexicon.words("mid atlantic"),
            Some(Words {
                target: mao,
                longer: true
            }),
            "a name (an alias) and the start of a longer one"
        );
        assert_eq!(lexicon.words("atlantic"), None);
        assert_eq!(
            lexicon.words("st"),
            Some(Words {
                target: None,
                longer: true
            }),
            "St Petersburg"
        );
    }

    #[test]
    fn ids_of_provinces_and_regions_in_any_case() {
        let variant = standard();
        let (map, lexicon) = (&variant.map, variant.lexicon());
        let bul = map.province_by_id("bul").unwrap();
        assert_eq!(lexicon.place_by_id("BUL"), Some(NameTarget::Province(bul)));
        assert_eq!(
            lexicon.place_by_id("bul/EC"),
            map.coast_region(bul, "ec").map(NameTarget::Region)
        );
        assert_eq!(lexicon.place_by_id("bul/wc"), None);
        assert_eq!(lexicon.place_by_id("Bulgaria"), None, "a name is no id");
        assert_eq!(lexicon.place_by_id(""), None);
        assert_eq!(lexicon.power_by_id("England"), map.power_by_id("england"));
        assert_eq!(lexicon.power_by_id("TURKEY"), map.power_by_id("turkey"));
        assert_eq!(
            lexicon.power_by_id("English"),
            None,
            "an adjective is no id"
        );
    }

    #[test]
    fn the_closest_name_within_a_third_of_its_length() {
        let variant = standard();
        let (map, lexicon) = (&variant.map, variant.lexicon());
        let lon = map.province_by_id("lon").unwrap();
        assert_eq!(
            lexicon.closest("Lodnon"),
            Some((NameTarget::Province(lon), 1))
        );
        // Two letters swapped is one slip, and beats one wrong letter at the same distance.
        let nth = map.province_by_id("nth").unwrap();
        assert_eq!(lexicon.closest("Nht"), Some((NameTarget::Province(nth), 1)));
        assert_eq!(
            lexicon.closest("Nat").map(|(t, _)| t),
            lexicon.lookup("nao")
        );
        assert_eq!(shared_letters(&['n', 'h', 't'], &['n', 't', 'h']), 3);
        assert_eq!(shared_letters(&['n', 'h', 't'], &['n', 'a', 't']), 2);
        assert_eq!(shared_letters(&['a', 'a'], &['a']), 1);
        assert_eq!(lexicon.closest("xyzzy"), None);
        assert_eq!(lexicon.closest(". -"), None);
    }
}
