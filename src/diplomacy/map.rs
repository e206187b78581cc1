//! The board: provinces, their coasts (regions), terrain, supply centres and adjacency.
//!
//! A `Map` is built only by `variant::load`, which validates everything first, so the
//! queries here never fail on a well-formed map. Identifiers are small indices so that
//! adjudication can use plain vectors instead of hash maps.

use super::power::PowerId;
use crate::lang::Lang;

/// Index of a province in `Map::provinces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProvinceId(pub u16);

/// Index of a region in `Map::regions`: a province as a whole, or one coast of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(pub u16);

impl ProvinceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl RegionId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Army or fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    Army,
    Fleet,
}

impl UnitKind {
    /// `A` or `F`, as orders write it.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }

    /// `army` or `fleet`, as the JSON interface writes it.
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Army => "army",
            UnitKind::Fleet => "fleet",
        }
    }
}

/// What kind of ground a province is, which decides the units that may stand there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Armies only.
    Land,
    /// Armies and fleets.
    Coast,
    /// Fleets only; fleets here may convoy.
    Sea,
    /// No unit may enter (Switzerland, or Dacia in Diadochi V).
    Impassable,
}

/// A supply centre and what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SupplyCentre {
    /// Units it supplies to an owner not listed in `value_for`: 1 on the classic map.
    pub value: u8,
    /// Owners for whom the centre is worth something else (Rome is worth 3 to Rome only).
    pub value_for: Vec<(PowerId, u8)>,
    /// A rebellion centre: it counts in winter only while its owner has a unit there.
    pub needs_garrison: bool,
    /// The destroy order cannot destroy it.
    pub indestructible: bool,
}

impl SupplyCentre {
    /// Units this centre supplies when `owner` holds it.
    pub fn value_to(&self, owner: PowerId) -> u8 {
        self.value_for
            .iter()
            .find(|(power, _)| *power == owner)
            .map_or(self.value, |(_, value)| *value)
    }
}

/// A province: the unit of ownership and of occupation (one unit per province).
#[derive(Clone, Debug)]
pub struct Province {
    /// Lower-case identifier as in the variant file and the DATC: `lon`, `stp`.
    pub id: String,
    /// Full English name: `London`, `St Petersburg`.
    pub name: String,
    /// The Russian name, where the variant gives one (`Лондон`); Russian letters fall back to
    /// the English name.
    pub ru: Option<String>,
    pub terrain: Terrain,
    /// The region an army (or a fleet on a single-coast province) occupies.
    pub region: RegionId,
    /// Coast regions of a multi-coast province (`stp/nc`, `stp/sc`); empty otherwise.
    pub coasts: Vec<RegionId>,
    pub centre: Option<SupplyCentre>,
    /// Home centre of this power, where it may build.
    pub home_of: Option<PowerId>,
    /// Not a centre, but whoever controls it may build there (Diadochi V's Athens).
    pub build_site: bool,
    /// Land and sea at once: a fleet here may convoy (Ancient Mediterranean's Baleares).
    pub convoys: bool,
    /// A partisan site of this power: no centre, but it may build here, and the site is
    /// worth a unit to it, while it owns some of its home centres but not all (1900).
    pub partisan_of: Option<PowerId>,
}

impl Province {
    /// The province's name in `lang`: the variant's Russian name, else the English one.
    pub fn name_in(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ru => self.ru.as_deref().unwrap_or(&self.name),
            Lang::En => &self.name,
        }
    }
}

/// A place a unit stands: a province, or one coast of a multi-coast province.
#[derive(Clone, Debug)]
pub struct Region {
    pub province: ProvinceId,
    /// `None` for the province as a whole; `Some("nc")` for a coast.
    pub coast: Option<String>,
    /// Regions a fleet here can move to.
    pub fleet_neighbours: Vec<RegionId>,
}

/// A side of the game.
#[derive(Clone, Debug)]
pub struct PowerInfo {
    /// Lower-case identifier: `england`.
    pub id: String,
    /// Display name: `England`.
    pub name: String,
    /// The Russian name, where the variant gives one (`Англия`).
    pub ru: Option<String>,
    /// Adjective: `English`.
    pub adjective: String,
    /// One letter used in classic judge commands (`SIGNON Egame`).
    pub letter: char,
}

impl PowerInfo {
    /// The power's name in `lang`: the variant's Russian name, else the English one.
    pub fn name_in(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ru => self.ru.as_deref().unwrap_or(&self.name),
            Lang::En => &self.name,
        }
    }
}

/// The validated board of a variant.
#[derive(Clone, Debug)]
pub struct Map {
    pub provinces: Vec<Province>,
    pub regions: Vec<Region>,
    pub powers: Vec<PowerInfo>,
    /// For each province, the provinces an army can move to.
    pub army_neighbours: Vec<Vec<ProvinceId>>,
    /// Fleet borders crossed at half strength, each way (`from`, `to`): no support across
    /// them, no support cut by a move across them (1900's Cape of Good Hope).
    pub half_strength: Vec<(ProvinceId, ProvinceId)>,
    /// Names players may write, folded by `normalise_name`, to what they mean; sorted by
    /// name, so it can be searched by halves.
    pub names: Vec<(String, NameTarget)>,
}

/// What a name written by a player refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameTarget {
    Province(ProvinceId),
    Region(RegionId),
}

impl Map {
    pub fn province(&self, id: ProvinceId) -> &Province {
        &self.provinces[id.index()]
    }

    pub fn region(&self, id: RegionId) -> &Region {
        &self.regions[id.index()]
    }

    pub fn power(&self, id: PowerId) -> &PowerInfo {
        &self.powers[id.index()]
    }

    /// The province a region belongs to.
    pub fn province_of(&self, region: RegionId) -> ProvinceId {
        self.regions[region.index()].province
    }

    /// `lon`, `stp/nc`: the identifier of a region as the DATC and the JSON interface write it.
    pub fn region_id(&self, region: RegionId) -> String {
        let r = self.region(region);
        let province = &self.province(r.province).id;
        match &r.coast {
            Some(coast) => format!("{province}/{coast}"),
            None => province.clone(),
        }
    }

    /// A region's name for a report: `London`, `St Petersburg (north coast)`.
    pub fn region_name(&self, region: RegionId) -> String {
        let r = self.region(region);
        let province = &self.province(r.province).name;
        match &r.coast {
            Some(coast) => format!("{province} ({})", coast_name(coast)),
            None => province.clone(),
        }
    }

    /// The province with this exact identifier (`lon`), case-insensitive.
    pub fn province_by_id(&self, id: &str) -> Option<ProvinceId> {
        self.provinces
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
            .map(|i| ProvinceId(i as u16))
    }

    /// The power with this identifier (`england`), case-insensitive.
    pub fn power_by_id(&self, id: &str) -> Option<PowerId> {
        self.powers
            .iter()
            .position(|p| {
                p.id.eq_ignore_ascii_case(id)
                    || p.name.eq_ignore_ascii_case(id)
                    || p.ru
                        .as_ref()
                        .is_some_and(|ru| ru.to_lowercase() == id.to_lowercase())
            })
            .map(|i| PowerId(i as u8))
    }

    /// The region of `province` with this coast (`nc`), if the province has it.
    pub fn coast_region(&self, province: ProvinceId, coast: &str) -> Option<RegionId> {
        self.province(province)
            .coasts
            .iter()
            .copied()
            .find(|r| self.region(*r).coast.as_deref() == Some(coast))
    }

    /// Regions of a province that a unit of this kind may occupy.
    pub fn regions_for(&self, province: ProvinceId, kind: UnitKind) -> &[RegionId] {
        let p = self.province(province);
        match (kind, p.terrain) {
            (_, Terrain::Impassable) => &[],
            (UnitKind::Army, Terrain::Sea) => &[],
            (UnitKind::Army, _) => std::slice::from_ref(&p.region),
            (UnitKind::Fleet, Terrain::Land) => &[],
            (UnitKind::Fleet, _) if !p.coasts.is_empty() => &p.coasts,
            (UnitKind::Fleet, _) => std::slice::from_ref(&p.region),
        }
    }

    /// Whether a unit of `kind` standing in `from` may move to `to` in one step.
    pub fn is_adjacent(&self, kind: UnitKind, from: RegionId, to: RegionId) -> bool {
        match kind {
            UnitKind::Army => {
                let to = self.province_of(to);
                self.army_neighbours[self.province_of(from).index()].contains(&to)
            }
            UnitKind::Fleet => self.region(from).fleet_neighbours.contains(&to),
        }
    }

    /// Whether a unit of `kind` in `from` could move into some region of `to` (coast ignored):
    /// the reach a supporting unit needs.
    pub fn reaches_province(&self, kind: UnitKind, from: RegionId, to: ProvinceId) -> bool {
        match kind {
            UnitKind::Army => self.army_neighbours[self.province_of(from).index()].contains(&to),
            UnitKind::Fleet => self
                .region(from)
                .fleet_neighbours
                .iter()
                .any(|r| self.province_of(*r) == to),
        }
    }

    /// Whether any unit could pass directly between the two provinces (army or fleet border).
    pub fn provinces_touch(&self, a: ProvinceId, b: ProvinceId) -> bool {
        if self.army_neighbours[a.index()].contains(&b) {
            return true;
        }
        let p = self.province(a);
        std::iter::once(p.region)
            .chain(p.coasts.iter().copied())
            .any(|r| {
                self.region(r)
                    .fleet_neighbours
                    .iter()
                    .any(|n| self.province_of(*n) == b)
            })
    }

    /// Whether a move from `from` to `to` crosses a half-strength border.
    pub fn is_half_strength(&self, from: ProvinceId, to: ProvinceId) -> bool {
        !self.half_strength.is_empty() && self.half_strength.contains(&(from, to))
    }

    pub fn is_centre(&self, province: ProvinceId) -> bool {
        self.province(province).centre.is_some()
    }

    pub fn n_provinces(&self) -> usize {
        self.provinces.len()
    }
}

/// `nc` → `north coast`, for reports.
pub fn coast_name(coast: &str) -> String {
    match coast {
        "nc" => "north coast".into(),
        "sc" => "south coast".into(),
        "ec" => "east coast".into(),
        "wc" => "west coast".into(),
        other => format!("{other} coast"),
    }
}

/// The form in which names are compared: lower case, dots dropped, `-`, `_` and runs of
/// white space made one space. `St. Petersburg` and `st-petersburg` both give `st petersburg`.
pub fn normalise_name(name: &str) -> String {
    normalise_chars(name.chars())
}

/// `normalise_name` of text given as chars (as the order reader holds a line).
pub fn normalise_chars(chars: impl IntoIterator<Item = char>) -> String {
    let mut out = String::new();
    normalise_chars_into(chars, &mut out);
    out
}

/// `normalise_chars`, appended to `out` (the reader keeps a line's words in one string).
pub fn normalise_chars_into(chars: impl IntoIterator<Item = char>, out: &mut String) {
    let start = out.len();
    let mut pending_space = false;
    for c in chars {
        if c == '.' {
            continue;
        }
        if c.is_whitespace() || c == '-' || c == '_' {
            pending_space = out.len() > start;
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == 'ё' || c == 'Ё' {
            // Russian writes ё as е as often as not.
            out.push('е');
        } else {
            out.extend(c.to_lowercase());
        }
    }
}
