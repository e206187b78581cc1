//! Reading the Here I Stand map file into the referee's `his::Map`: every problem is collected
//! with the file, the line and the key, as the Diplomacy variant loader does, so a map maker
//! fixes them all at once; the pure core receives the map made.
//! The file, `variants/his/here-i-stand.toml` (in a folder of its own: the files in `variants/`
//! are Diplomacy variants), is embedded in the binary (`embedded_map`).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use toml::Spanned;

use super::LoadError;
use crate::his::map::{Crossing, LeaderInfo, Map, Space, SpaceId, SpaceKind, fold_name};
use crate::his::power::Power;

/// The map file shipped with the judge.
pub const MAP_FILE: &str = "variants/his/here-i-stand.toml";
/// Its text, embedded.
pub const MAP_TEXT: &str = include_str!("../../variants/his/here-i-stand.toml");

/// The shipped map. It is checked by the tests; a broken file is a bug in the build.
pub fn embedded_map() -> Result<Map, Vec<LoadError>> {
    load_map(MAP_FILE, MAP_TEXT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    name: String,
    spaces: BTreeMap<String, Spanned<SpaceFile>>,
    connections: ConnectionsFile,
    #[serde(default)]
    leaders: BTreeMap<String, Spanned<LeaderFile>>,
    /// How the map is drawn (`drawing::his`): projection, frame, colours, each space's place.
    map: Option<super::file::MapFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceFile {
    name: String,
    /// The Russian name, for Russian letters and read in commands beside the English.
    ru: Option<String>,
    kind: String,
    home: Option<String>,
    alternate_home: Option<String>,
    enters_play: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConnectionsFile {
    #[serde(default)]
    normal: Vec<Spanned<(String, String)>>,
    #[serde(default)]
    pass: Vec<Spanned<(String, String)>>,
    #[serde(default)]
    port: Vec<Spanned<(String, String)>>,
    #[serde(default)]
    sea: Vec<Spanned<(String, String)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderFile {
    name: String,
    power: String,
    battle: u32,
    command: u32,
}

struct Problems<'a> {
    file: &'a str,
    text: &'a str,
    list: Vec<LoadError>,
}

impl Problems<'_> {
    fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }

    fn at<T>(&mut self, spanned: &Spanned<T>, key: String, message: String) {
        let span = spanned.span();
        let line = (!span.is_empty()).then(|| self.line_of(span.start));
        self.push(line, key, message);
    }

    fn push(&mut self, line: Option<usize>, key: String, message: String) {
        self.list.push(LoadError {
            file: self.file.to_string(),
            line,
            key,
            message,
        });
    }
}

/// Reads and checks a map file's TOML `text`; `file_name` names it in the problems.
pub fn load_map(file_name: &str, text: &str) -> Result<Map, Vec<LoadError>> {
    let mut problems = Problems {
        file: file_name,
        text,
        list: Vec::new(),
    };
    let file: MapFile = match toml::from_str(text) {
        Ok(file) => file,
        Err(err) => {
            let line = err.span().map(|s| problems.line_of(s.start));
            problems.push(line, String::new(), err.message().to_string());
            return Err(problems.list);
        }
    };
    if let Some(m) = &file.map {
        let (_, found) = layout_of(m, &file);
        for (key, message) in found {
            problems.push(None, key, message);
        }
    }
    let map = build(file, &mut problems);
    if problems.list.is_empty() {
        Ok(map)
    } else {
        Err(problems.list)
    }
}

fn layout_of(
    m: &super::file::MapFile,
    file: &MapFile,
) -> (crate::atlas::layout::Layout, Vec<(String, String)>) {
    let known_place = |id: &str| file.spaces.contains_key(id);
    let known_power = |id: &str| power_word(id).is_some();
    super::layout::build_layout(m, "spaces", &known_place, &known_power)
}

/// The layout of the shipped map's `[map]` table (checked with the map by the tests).
pub fn embedded_layout() -> Option<&'static crate::atlas::layout::Layout> {
    static LAYOUT: std::sync::OnceLock<Option<crate::atlas::layout::Layout>> =
        std::sync::OnceLock::new();
    LAYOUT
        .get_or_init(|| {
            let file: MapFile = toml::from_str(MAP_TEXT).ok()?;
            Some(layout_of(file.map.as_ref()?, &file).0)
        })
        .as_ref()
}

fn power_word(word: &str) -> Option<Power> {
    // Data files use ids only.
    Power::ALL.into_iter().find(|p| p.id() == word)
}

fn build(file: MapFile, problems: &mut Problems<'_>) -> Map {
    let mut spaces = Vec::new();
    let mut ids: BTreeMap<String, SpaceId> = BTreeMap::new();
    let mut folded: BTreeMap<String, String> = BTreeMap::new();
    for (id, spanned) in &file.spaces {
        let key = format!("spaces.{id}");
        let s = spanned.get_ref();
        let kind = match SpaceKind::from_word(&s.kind) {
            Some(k) => k,
            None => {
                problems.at(
                    spanned,
                    format!("{key}.kind"),
                    format!(
                        "unknown kind `{}` (unfortified, key, capital, electorate, fortress, sea)",
                        s.kind
                    ),
                );
                SpaceKind::Unfortified
            }
        };
        let home = match (&s.home, kind) {
            (None, SpaceKind::Sea) => Power::Independent,
            (Some(_), SpaceKind::Sea) => {
                problems.at(
                    spanned,
                    format!("{key}.home"),
                    "a sea zone has no home power".into(),
                );
                Power::Independent
            }
            (None, _) => {
                problems.at(
                    spanned,
                    format!("{key}.home"),
                    "a land space needs a home power (or `independent`)".into(),
                );
                Power::Independent
            }
            (Some(word), _) => power_word(word).unwrap_or_else(|| {
                problems.at(
                    spanned,
                    format!("{key}.home"),
                    format!("unknown power `{word}`"),
                );
                Power::Independent
            }),
        };
        let alternate_home = s.alternate_home.as_ref().and_then(|word| {
            let p = power_word(word);
            if p.is_none() {
                problems.at(
                    spanned,
                    format!("{key}.alternate_home"),
                    format!("unknown power `{word}`"),
                );
            }
            p
        });
        for written in [id, &s.name].into_iter().chain(&s.ru) {
            let f = fold_name(written);
            if let Some(other) = folded.get(&f)
                && other != id
            {
                problems.at(
                    spanned,
                    key.clone(),
                    format!("the name `{written}` reads the same as space `{other}`"),
                );
            }
            folded.insert(f, id.clone());
        }
        ids.insert(id.clone(), SpaceId(spaces.len() as u16));
        spaces.push(Space {
            id: id.clone(),
            name: s.name.clone(),
            ru: s.ru.clone().filter(|r| !r.trim().is_empty()),
            kind,
            home,
            alternate_home,
            enters_play: s.enters_play.clone(),
            land: Vec::new(),
            seas: Vec::new(),
        });
    }

    let mut seen: BTreeSet<(SpaceId, SpaceId)> = BTreeSet::new();
    type Pairs = Vec<Spanned<(String, String)>>;
    let lists: [(&str, &Pairs); 4] = [
        ("normal", &file.connections.normal),
        ("pass", &file.connections.pass),
        ("port", &file.connections.port),
        ("sea", &file.connections.sea),
    ];
    for (kind, list) in lists {
        for (i, spanned) in list.iter().enumerate() {
            let key = format!("connections.{kind}[{i}]");
            let (a, b) = spanned.get_ref();
            let (Some(&ia), Some(&ib)) = (ids.get(a), ids.get(b)) else {
                for name in [a, b] {
                    if !ids.contains_key(name) {
                        problems.at(spanned, key.clone(), format!("unknown space `{name}`"));
                    }
                }
                continue;
            };
            if ia == ib {
                problems.at(spanned, key, format!("`{a}` is joined to itself"));
                continue;
            }
            let pair = if ia < ib { (ia, ib) } else { (ib, ia) };
            if !seen.insert(pair) {
                problems.at(
                    spanned,
                    key,
                    format!("`{a}` and `{b}` are joined more than once"),
                );
                continue;
            }
            let (sa, sb) = (spaces[ia.index()].is_sea(), spaces[ib.index()].is_sea());
            match kind {
                "normal" | "pass" => {
                    if sa || sb {
                        problems.at(
                            spanned,
                            key,
                            format!("a land connection between `{a}` and `{b}` touches a sea zone"),
                        );
                        continue;
                    }
                    let c = if kind == "pass" {
                        Crossing::Pass
                    } else {
                        Crossing::Normal
                    };
                    spaces[ia.index()].land.push((ib, c));
                    spaces[ib.index()].land.push((ia, c));
                }
                "port" => {
                    if sa || !sb {
                        problems.at(
                            spanned,
                            key,
                            format!("a port is a land space then a sea zone: `{a}`, `{b}`"),
                        );
                        continue;
                    }
                    spaces[ia.index()].seas.push(ib);
                }
                _ => {
                    if !sa || !sb {
                        problems.at(
                            spanned,
                            key,
                            format!("a sea connection joins two sea zones: `{a}`, `{b}`"),
                        );
                        continue;
                    }
                    spaces[ia.index()].seas.push(ib);
                    spaces[ib.index()].seas.push(ia);
                }
            }
        }
    }
    for s in &mut spaces {
        s.land.sort_by_key(|(id, _)| *id);
        s.seas.sort();
    }

    let mut leaders = Vec::new();
    for (id, spanned) in &file.leaders {
        let key = format!("leaders.{id}");
        let l = spanned.get_ref();
        let power = if l.power == "any" {
            None
        } else {
            match power_word(&l.power) {
                Some(p) if p.is_major() => Some(p),
                _ => {
                    problems.at(
                        spanned,
                        format!("{key}.power"),
                        format!("`{}` is not a major power (or `any`)", l.power),
                    );
                    None
                }
            }
        };
        if l.battle > 3 {
            problems.at(
                spanned,
                format!("{key}.battle"),
                format!("battle rating {} is above 3", l.battle),
            );
        }
        if l.command == 0 {
            problems.at(
                spanned,
                format!("{key}.command"),
                "a command rating is at least 1".into(),
            );
        }
        leaders.push(LeaderInfo {
            id: id.clone(),
            name: l.name.clone(),
            power,
            battle: l.battle,
            command: l.command,
        });
    }
    if leaders.len() > u8::MAX as usize {
        problems.push(None, "leaders".into(), "too many leaders".into());
    }
    if spaces.len() > u16::MAX as usize {
        problems.push(None, "spaces".into(), "too many spaces".into());
    }

    Map {
        name: file.name,
        spaces,
        leaders,
    }
}
