//! The Here I Stand map and counter sheet as the referee sees them: spaces (their kind and home
//! power), land connections (normal or over a pass), ports and sea zones, and the army leaders
//! with their ratings. Built from `variants/his/here-i-stand.toml` by `load`.

use std::fmt;

use super::power::Power;

/// A space on the map (a land space or a sea zone): an index into `Map::spaces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpaceId(pub u16);

impl SpaceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An army leader: an index into `Map::leaders`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LeaderId(pub u8);

impl LeaderId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a space is [R §2.1]. Keys, capitals, electorates and fortresses are fortified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    Unfortified,
    Key,
    /// A key that is a capital (London, Paris, Valladolid, Vienna, Rome, Istanbul).
    Capital,
    Electorate,
    Fortress,
    Sea,
}

impl SpaceKind {
    pub fn from_word(word: &str) -> Option<SpaceKind> {
        Some(match word {
            "unfortified" => SpaceKind::Unfortified,
            "key" => SpaceKind::Key,
            "capital" => SpaceKind::Capital,
            "electorate" => SpaceKind::Electorate,
            "fortress" => SpaceKind::Fortress,
            "sea" => SpaceKind::Sea,
            _ => return None,
        })
    }

    /// Fortified as printed on the map (events may fortify more spaces: `Board::fortified`).
    pub fn fortified(self) -> bool {
        matches!(
            self,
            SpaceKind::Key | SpaceKind::Capital | SpaceKind::Electorate | SpaceKind::Fortress
        )
    }
}

/// How two land spaces are joined [R §2.5].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// A solid line: 1 CP to move across.
    Normal,
    /// A dashed line, a mountain pass: 2 CP to move across, no interception across it.
    Pass,
}

impl Crossing {
    /// The CP a formation spends to move across [R §13.1 step 3].
    pub fn cost(self) -> u32 {
        match self {
            Crossing::Normal => 1,
            Crossing::Pass => 2,
        }
    }
}

/// One space of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    /// The id in data files and commands: `vienna`, `st-quentin`.
    pub id: String,
    /// The printed name: `Vienna`, `St. Quentin`.
    pub name: String,
    /// The Russian name, where the map file gives one (`Вена`).
    pub ru: Option<String>,
    pub kind: SpaceKind,
    /// The home power (`Power::Independent` for independent spaces and sea zones).
    pub home: Power,
    /// A second home power an event can give the space (Oran and Tripoli: Barbary Pirates).
    pub alternate_home: Option<Power>,
    /// The event that brings the space into play (Algiers: Barbary Pirates), if any.
    pub enters_play: Option<String>,
    /// Land neighbours and how each is reached, sorted by space.
    pub land: Vec<(SpaceId, Crossing)>,
    /// Sea zones next to this space: a port's sea zones, or a sea zone's neighbouring seas.
    pub seas: Vec<SpaceId>,
}

impl Space {
    /// The space's name in `lang`: the map file's Russian name, else the printed one.
    pub fn name_in(&self, lang: crate::lang::Lang) -> &str {
        match lang {
            crate::lang::Lang::Ru => self.ru.as_deref().unwrap_or(&self.name),
            crate::lang::Lang::En => &self.name,
        }
    }

    /// The space's name in each language the map gives one (`Vienna`, `Вена`), for a
    /// message.
    pub fn names(&self) -> crate::message::Arg {
        let names = crate::lang::Lang::ALL.map(|l| (l, self.name_in(l).to_string()));
        crate::message::Arg::Each(names.to_vec())
    }
}

impl Space {
    pub fn is_sea(&self) -> bool {
        self.kind == SpaceKind::Sea
    }
}

/// An army leader as printed on his counter [R §5.1; spec §2.2].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderInfo {
    /// `suleiman`, `charles-v`.
    pub id: String,
    pub name: String,
    /// The power he serves at the start (`None`: the renegade leader, any power).
    pub power: Option<Power>,
    /// Added to interception and avoid-battle rolls; extra dice in battle.
    pub battle: u32,
    /// The formation size he allows.
    pub command: u32,
}

/// The map: spaces, connections, leaders.
#[derive(Clone, Debug)]
pub struct Map {
    pub name: String,
    pub spaces: Vec<Space>,
    pub leaders: Vec<LeaderInfo>,
}

impl Map {
    pub fn space(&self, id: SpaceId) -> &Space {
        &self.spaces[id.index()]
    }

    pub fn leader(&self, id: LeaderId) -> &LeaderInfo {
        &self.leaders[id.index()]
    }

    pub fn space_ids(&self) -> impl Iterator<Item = SpaceId> + '_ {
        (0..self.spaces.len()).map(|i| SpaceId(i as u16))
    }

    pub fn leader_ids(&self) -> impl Iterator<Item = LeaderId> + '_ {
        (0..self.leaders.len()).map(|i| LeaderId(i as u8))
    }

    /// How `a` and `b` are joined by land, if they are.
    pub fn crossing(&self, a: SpaceId, b: SpaceId) -> Option<Crossing> {
        self.space(a)
            .land
            .iter()
            .find(|(s, _)| *s == b)
            .map(|(_, c)| *c)
    }

    /// Finds a space by id or name as a player writes it (`St Quentin`, `orleans`, `Orléans`,
    /// `Орлеан`).
    pub fn find_space(&self, written: &str) -> Option<SpaceId> {
        let key = fold_name(written);
        if key.is_empty() {
            return None;
        }
        self.space_ids().find(|id| {
            let s = self.space(*id);
            fold_name(&s.id) == key
                || fold_name(&s.name) == key
                || s.ru.as_deref().is_some_and(|ru| fold_name(ru) == key)
        })
    }

    /// Finds a leader by id or name (`charles-v`, `Charles V`, `Ibrahim`).
    pub fn find_leader(&self, written: &str) -> Option<LeaderId> {
        let key = fold_name(written);
        if key.is_empty() {
            return None;
        }
        let exact = self.leader_ids().find(|id| {
            let l = self.leader(*id);
            fold_name(&l.id) == key || fold_name(&l.name) == key
        });
        exact.or_else(|| {
            // A first name alone, when it names one leader only (`ibrahim`, `brandon`).
            let hits: Vec<LeaderId> = self
                .leader_ids()
                .filter(|id| {
                    fold_name(&self.leader(*id).name)
                        .split(' ')
                        .any(|word| word == key && word.len() > 3)
                })
                .collect();
            (hits.len() == 1).then(|| hits[0])
        })
    }
}

/// Folds a written name for comparison: lower case, accents dropped, periods dropped, hyphens
/// and runs of spaces made one space.
pub fn fold_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending_space = false;
    for c in name.chars() {
        if c == '.' || c == '\'' {
            continue;
        }
        if c.is_whitespace() || c == '-' || c == '_' {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        for l in c.to_lowercase() {
            out.push(match l {
                'à' | 'á' | 'â' | 'ä' | 'ã' => 'a',
                'é' | 'è' | 'ê' | 'ë' => 'e',
                'í' | 'ì' | 'î' | 'ï' => 'i',
                'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
                'ú' | 'ù' | 'û' | 'ü' => 'u',
                'ç' => 'c',
                'ñ' => 'n',
                'ё' => 'е',
                other => other,
            });
        }
    }
    out
}

impl fmt::Display for SpaceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "space#{}", self.0)
    }
}
