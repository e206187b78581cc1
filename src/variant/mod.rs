//! Variants as data: a TOML file per variant in `variants/`, validated into a `Variant`.
//!
//! This module reads text it is given; finding files is the caller's business, except for
//! `embedded()`, the variants compiled into the binary so it runs with no files at all.

mod base;
mod borders;
pub mod file;
pub mod his;
pub mod layout;
pub mod load;
mod problems;
mod start;
pub mod turns;

use crate::diplomacy::map::{Map, ProvinceId, RegionId};
use crate::diplomacy::position::Position;
use crate::diplomacy::rules::Rules;
use crate::diplomacy::turn::Calendar;
use crate::diplomacy::unit::{Unit, UnitKind};
use crate::text::lexicon::Lexicon;

pub use load::{LoadError, load_variant};

/// A validated variant: its board, rules, calendar and starting position.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The file stem: `standard`, `diadochi-v`.
    pub id: String,
    pub name: String,
    pub description: String,
    /// Where its facts come from (the map file transcribed).
    pub source: String,
    /// Its special rules and rulings as players read them (`GET info`), a paragraph a
    /// string, in English and in Russian (empty: the English).
    pub info_en: Vec<String>,
    pub info_ru: Vec<String>,
    pub map: Map,
    /// The default rules edition and switches; a game may change them.
    pub rules: Rules,
    pub calendar: Calendar,
    /// Supply centres needed to win.
    pub victory_centres: u32,
    /// What counts toward victory.
    pub victory_counting: crate::diplomacy::progress::VictoryCounting,
    pub start: Position,
    /// How its map is drawn, if the file says (`[map]`).
    pub layout: Option<std::sync::Arc<crate::atlas::layout::Layout>>,
    /// The order in which letters list a unit's neighbours.
    pub listing: Listing,
    /// The map's names prepared for reading players' text (`lexicon()`), made on first use
    /// and shared by every reader of the variant; the rules never look at it.
    pub(crate) lexicon: std::sync::OnceLock<Lexicon>,
}

/// The order in which letters list a unit's neighbours (its retreats), by where the unit
/// stands and its kind, as the variant file gives it (`[listing]`); else the map's order.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    orders: Vec<(RegionId, UnitKind, Vec<ProvinceId>)>,
}

impl Listing {
    pub fn new(orders: Vec<(RegionId, UnitKind, Vec<ProvinceId>)>) -> Listing {
        Listing { orders }
    }

    /// `options` (regions `unit` may go to) in the order the letters list them.
    pub fn sort(&self, map: &Map, unit: &Unit, options: &mut [RegionId]) {
        let Some((_, _, order)) = self
            .orders
            .iter()
            .find(|(region, kind, _)| *region == unit.region && *kind == unit.kind)
        else {
            return;
        };
        options.sort_by_key(|r| {
            order
                .iter()
                .position(|p| *p == map.province_of(*r))
                .unwrap_or(usize::MAX)
        });
    }
}

impl Variant {
    /// The names of its map prepared for reading players' text, made on the first call and
    /// kept for every later one. A variant's map is not changed once it is loaded; a map whose
    /// names are changed by hand must be changed before its first text is read.
    pub fn lexicon(&self) -> &Lexicon {
        self.lexicon.get_or_init(|| Lexicon::new(&self.map))
    }

    /// The condition of victory: `victory_centres` counted as `victory_counting` says.
    pub fn victory(&self) -> crate::diplomacy::progress::Victory {
        crate::diplomacy::progress::Victory {
            threshold: self.victory_centres,
            counting: self.victory_counting,
        }
    }
}

/// The variant files compiled into the binary: `(id, file name, text)`.
pub const EMBEDDED: &[(&str, &str, &str)] = &[
    (
        "standard",
        "variants/standard.toml",
        include_str!("../../variants/standard.toml"),
    ),
    (
        "diadochi-v",
        "variants/diadochi-v.toml",
        include_str!("../../variants/diadochi-v.toml"),
    ),
    (
        "france-austria",
        "variants/france-austria.toml",
        include_str!("../../variants/france-austria.toml"),
    ),
    (
        "germany-italy",
        "variants/germany-italy.toml",
        include_str!("../../variants/germany-italy.toml"),
    ),
    (
        "fleet-rome",
        "variants/fleet-rome.toml",
        include_str!("../../variants/fleet-rome.toml"),
    ),
    (
        "chaos",
        "variants/chaos.toml",
        include_str!("../../variants/chaos.toml"),
    ),
    (
        "ancmed",
        "variants/ancmed.toml",
        include_str!("../../variants/ancmed.toml"),
    ),
    (
        "pure",
        "variants/pure.toml",
        include_str!("../../variants/pure.toml"),
    ),
    (
        "modern",
        "variants/modern.toml",
        include_str!("../../variants/modern.toml"),
    ),
    (
        "1900",
        "variants/1900.toml",
        include_str!("../../variants/1900.toml"),
    ),
    (
        "hundred",
        "variants/hundred.toml",
        include_str!("../../variants/hundred.toml"),
    ),
    (
        "colonial",
        "variants/colonial.toml",
        include_str!("../../variants/colonial.toml"),
    ),
    (
        "world",
        "variants/world.toml",
        include_str!("../../variants/world.toml"),
    ),
    (
        "youngstown",
        "variants/youngstown.toml",
        include_str!("../../variants/youngstown.toml"),
    ),
];

/// Loads every embedded variant; an error here is a bug in a shipped file, which the
/// `every_variant_loads` test catches.
pub fn embedded() -> Result<Vec<Variant>, Vec<LoadError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (id, file, text) in EMBEDDED {
        match load_variant(id, file, text) {
            Ok(v) => out.push(v),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Variants looked up by id, ASCII case ignored: a list of variants loaded already, or a
/// `Catalogue` that reads each embedded variant the first time a case names it.
pub trait Variants: Sync {
    fn find(&self, id: &str) -> Option<&Variant>;
}

impl Variants for [Variant] {
    fn find(&self, id: &str) -> Option<&Variant> {
        self.iter().find(|v| v.id.eq_ignore_ascii_case(id))
    }
}

impl Variants for Vec<Variant> {
    fn find(&self, id: &str) -> Option<&Variant> {
        self.as_slice().find(id)
    }
}

/// The embedded variants, each read from its file on first use, and variants loaded from
/// files beside them (replacing an embedded one of the same id). `strategos adjudicate`
/// looks variants up here, so that a file of standard cases never reads Diadochi V's file,
/// and the first case's variant is read on a worker while the input is being read.
pub struct Catalogue {
    embedded: Vec<Shelved>,
    added: Vec<Variant>,
}

/// An embedded variant's file, and the variant once read.
struct Shelved {
    id: &'static str,
    file: &'static str,
    text: &'static str,
    loaded: std::sync::OnceLock<Variant>,
}

impl Catalogue {
    /// The embedded variants, with `added` replacing those of the same id.
    pub fn new(added: Vec<Variant>) -> Catalogue {
        let embedded = EMBEDDED
            .iter()
            .filter(|(id, _, _)| added.iter().all(|v| v.id != *id))
            .map(|&(id, file, text)| Shelved {
                id,
                file,
                text,
                loaded: std::sync::OnceLock::new(),
            })
            .collect();
        Catalogue { embedded, added }
    }
}

impl Variants for Catalogue {
    fn find(&self, id: &str) -> Option<&Variant> {
        let shelved = self.embedded.iter().find(|s| s.id.eq_ignore_ascii_case(id));
        match shelved {
            Some(s) => Some(s.loaded.get_or_init(|| {
                // A shipped file that does not load is a bug, which `every_variant_loads`
                // catches before any release.
                load_variant(s.id, s.file, s.text)
                    .unwrap_or_else(|e| panic!("embedded variant {}: {e:?}", s.id))
            })),
            None => self.added.find(id),
        }
    }
}
