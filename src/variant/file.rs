//! The shape of a variant file (TOML) as serde reads it, before any validation.
//!
//! Only `load.rs` looks at these types; the rest of the program sees a validated `Variant`.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Default rules edition: `2000` or `2023`.
    pub rules: Option<Spanned<String>>,
    /// Named switches changed from the edition (see `diplomacy::rules::Rules`).
    #[serde(default)]
    pub rule_switches: BTreeMap<String, Spanned<toml::Value>>,
    pub calendar: CalendarFile,
    pub victory: VictoryFile,
    pub powers: BTreeMap<String, PowerFile>,
    pub provinces: BTreeMap<String, ProvinceFile>,
    pub adjacency: AdjacencyFile,
    /// The order in which letters list a unit's neighbours (its retreats), by where it
    /// stands: `tri-xc = "alb adr ven"` (`-mv` an army's, `-xc` a fleet's, `-nc`, `-sc`,
    /// `-ec`, `-wc` a fleet's on that coast); njudge's map file's order for the Standard map.
    #[serde(default)]
    pub listing: BTreeMap<String, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarFile {
    pub first_year: i32,
    #[serde(default = "up")]
    pub direction: Spanned<String>,
    #[serde(default)]
    pub era: String,
    /// Names of spring, fall and winter.
    pub seasons: Option<Vec<String>>,
}

fn up() -> Spanned<String> {
    Spanned::new(0..0, "up".to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryFile {
    /// Supply centres needed to win.
    pub centres: u32,
    /// What is counted: `centres` (one per centre owned, the classic rule) or `supply` (the
    /// centres' supply values, a rebellion centre only while garrisoned, a destroyed one 0).
    pub counting: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerFile {
    pub name: String,
    pub adjective: Option<String>,
    pub letter: Option<Spanned<String>>,
    #[serde(default)]
    pub home: Vec<Spanned<String>>,
    /// Centres owned at the start besides the home centres.
    #[serde(default)]
    pub centres: Vec<Spanned<String>>,
    /// Starting units: `A vie`, `F stp/sc`.
    #[serde(default)]
    pub units: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvinceFile {
    pub name: Option<String>,
    pub terrain: Spanned<String>,
    #[serde(default)]
    pub aliases: Vec<Spanned<String>>,
    #[serde(default)]
    pub coasts: Vec<Spanned<String>>,
    /// A supply centre's value to an owner not listed in `value_for`.
    pub centre: Option<Spanned<u8>>,
    /// Owners for whom the centre is worth something else: `{ rome = 3 }`.
    #[serde(default)]
    pub value_for: BTreeMap<String, u8>,
    /// Not a centre, but its controller may build there.
    #[serde(default)]
    pub build_site: bool,
    /// A rebellion centre: it counts in winter only while its owner has a unit there.
    #[serde(default)]
    pub rebellion: bool,
    /// A centre that the destroy order (`Z`) cannot destroy.
    #[serde(default)]
    pub indestructible: bool,
    /// Coasts joined by a canal: a fleet lies in the canal, on neither coast, and sails out
    /// by either (Diadochi V's Alexandria and Athens). Map data for drawing and reports;
    /// the adjacency already lists both coasts' neighbours.
    #[serde(default)]
    pub canal_coasts: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjacencyFile {
    /// Army borders, each once: `"boh-gal"`.
    #[serde(default)]
    pub army: Vec<Spanned<String>>,
    /// Fleet borders, each once, coasts named on split provinces: `"stp/nc-bar"`.
    #[serde(default)]
    pub fleet: Vec<Spanned<String>>,
}
