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
    /// A shipped variant this one is made from (`standard`): every table this file leaves
    /// out is the base's (`merge`).
    pub base: Option<Spanned<String>>,
    /// Where the facts come from (the map file transcribed), for keepers and `GET info`.
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub description: String,
    /// Default rules edition: `2000` or `2023`.
    pub rules: Option<Spanned<String>>,
    /// Named switches changed from the edition (see `diplomacy::rules::Rules`).
    #[serde(default)]
    pub rule_switches: BTreeMap<String, Spanned<toml::Value>>,
    pub calendar: Option<CalendarFile>,
    pub victory: Option<VictoryFile>,
    #[serde(default)]
    pub powers: BTreeMap<String, PowerFile>,
    #[serde(default)]
    pub provinces: BTreeMap<String, ProvinceFile>,
    pub adjacency: Option<AdjacencyFile>,
    /// The order in which letters list a unit's neighbours (its retreats), by where it
    /// stands: `tri-xc = "alb adr ven"` (`-mv` an army's, `-xc` a fleet's, `-nc`, `-sc`,
    /// `-ec`, `-wc` a fleet's on that coast); njudge's map file's order for the Standard map.
    #[serde(default)]
    pub listing: BTreeMap<String, Spanned<String>>,
    /// How the map is drawn: projection, frame, colours, each province's sites.
    pub map: Option<MapFile>,
    /// The variant's special rules and rulings as players read them (`GET info`): a
    /// paragraph a string, in English (`en`) and in Russian (`ru`, English if absent).
    pub info: Option<InfoFile>,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InfoFile {
    #[serde(default)]
    pub en: Vec<String>,
    #[serde(default)]
    pub ru: Vec<String>,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarFile {
    pub first_year: i32,
    #[serde(default = "up")]
    pub direction: Spanned<String>,
    #[serde(default)]
    pub era: String,
    /// Names of spring, fall and winter.
    pub seasons: Option<Vec<String>>,
    /// The first phase: `spring` (its movement, the default) or `winter` (its adjustments,
    /// on the board the powers' files give: Chaos starts with builds on an empty board).
    pub first_phase: Option<Spanned<String>>,
    /// Years from one movement turn to the next, when each turn is its own year (Hundred:
    /// 5, so Spring 1425, Fall 1430, Winter 1430, Spring 1435); absent, spring and fall
    /// share a year and the year turns after the winter.
    pub years_per_turn: Option<Spanned<i64>>,
}

fn up() -> Spanned<String> {
    Spanned::new(0..0, "up".to_string())
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryFile {
    /// Supply centres needed to win.
    pub centres: u32,
    /// What is counted: `centres` (one per centre owned, the classic rule) or `supply` (the
    /// centres' supply values, a rebellion centre only while garrisoned, a destroyed one 0).
    pub counting: Option<Spanned<String>>,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerFile {
    pub name: String,
    /// The Russian name (`Англия`), for Russian letters and read in orders.
    pub ru: Option<String>,
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
    /// Partisan sites (DPjudge's term; 1900's Russian Emergency Measures): provinces that
    /// are no centres where the power may build, each worth one more unit to it, while it
    /// owns at least one of its home centres but not all of them.
    #[serde(default)]
    pub partisan_sites: Vec<Spanned<String>>,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvinceFile {
    pub name: Option<String>,
    /// The Russian name (`Лондон`), for Russian letters and read in orders beside the
    /// English name, its aliases and its id.
    pub ru: Option<String>,
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
    /// Land and sea at once (DPjudge's PORT: Ancient Mediterranean's Baleares, 1900's
    /// Gibraltar): a coast province where a fleet may convoy, as from the sea.
    #[serde(default)]
    pub convoys: bool,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjacencyFile {
    /// Army borders, each once: `"boh-gal"`; `"a>b"` is crossed from a to b only.
    #[serde(default)]
    pub army: Vec<Spanned<String>>,
    /// Fleet borders, each once, coasts named on split provinces: `"stp/nc-bar"`; `"a>b"`
    /// is crossed from a to b only.
    #[serde(default)]
    pub fleet: Vec<Spanned<String>>,
    /// Fleet borders crossed at half strength (DPjudge's `*`, 1900's way round the Cape of
    /// Good Hope): no support is given across them, a move across them cuts no support
    /// unless it dislodges, and a unit retreating across one gives way to any other unit
    /// retreating to the same place. Each is listed among the fleet borders too.
    #[serde(default)]
    pub half_strength: Vec<Spanned<String>>,
}

/// A variant's `[map]` table: how it is drawn (`atlas::layout::Layout`, docs/maps.md).
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// `mercator`, `equirectangular` (longitude scaled at the frame's middle latitude) or
    /// `abstract` (no geography: each place a disc at its site, Pure's seven spaces).
    #[serde(default)]
    pub projection: Option<String>,
    /// The part of the globe drawn, in degrees (required unless the base's is kept).
    pub frame: Option<FrameFile>,
    /// The picture's width in pixels (1200 unless given).
    pub width: Option<f64>,
    /// `#rrggbb` for each power.
    #[serde(default)]
    pub colours: BTreeMap<String, String>,
    /// Sites of land outside every province (`[lon, lat]`).
    #[serde(default)]
    pub void_land: Vec<[f64; 2]>,
    /// Sites of water outside every sea province (lakes, gulfs beyond the edge of play).
    #[serde(default)]
    pub void_sea: Vec<[f64; 2]>,
    /// Borders drawn as lines: `{ between = "gad-mau", kind = "strait" }` (or `road`).
    #[serde(default)]
    pub links: Vec<LinkFile>,
    /// Diplomacy: each province's sites and where its label and units go.
    #[serde(default)]
    pub provinces: BTreeMap<String, PlaceFile>,
    /// Here I Stand: each space's place.
    #[serde(default)]
    pub spaces: BTreeMap<String, PlaceFile>,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameFile {
    pub west: f64,
    pub east: f64,
    pub south: f64,
    pub north: f64,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkFile {
    pub between: String,
    pub kind: String,
    /// Where it is drawn, as a line of points (default: between the two units' places).
    #[serde(default)]
    pub at: Vec<[f64; 2]>,
}

/// One place: `at` (one site) or `sites`; `label`, `unit` and each coast's fleet point
/// default to the first site.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceFile {
    pub at: Option<[f64; 2]>,
    #[serde(default)]
    pub sites: Vec<[f64; 2]>,
    pub label: Option<[f64; 2]>,
    pub unit: Option<[f64; 2]>,
    #[serde(default)]
    pub coasts: BTreeMap<String, [f64; 2]>,
    /// A canal through the place, as a line of points.
    #[serde(default)]
    pub canal: Vec<[f64; 2]>,
    /// An off-board box: a sea drawn as a square at its site, not as water of the map.
    #[serde(default, rename = "box")]
    pub boxed: bool,
}
