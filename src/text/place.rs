//! Places and units in an order: names (longest match), coasts, power words and unit types.

use crate::diplomacy::map::{NameTarget, ProvinceId, coast_name};
use crate::diplomacy::order::Location;
use crate::diplomacy::unit::UnitKind;
use crate::msg;

use super::Diagnostic;
use super::lexer::Kind;
use super::names::target_arg;
use super::parse::{ARMY, FLEET, Parser, is_keyword};
use crate::message::Arg;

/// Coasts that may be written after a place with no `/` or brackets: `stp nc`.
const BARE_COASTS: &[&str] = &["nc", "sc", "ec", "wc"];

impl<'a> Parser<'a> {
    /// `there is no province 'Lodnon'; did you mean London?`, about the word at `i`.
    pub(super) fn unknown_place(&self, i: usize) -> Diagnostic {
        let mut best: Option<(Arg, usize, usize)> = None;
        for n in 1..=3 {
            if (i..i + n).any(|k| self.word(k).is_none()) {
                break;
            }
            if let Some((name, d)) = self
                .lex
                .closest(&self.src(i, i + n))
                .map(|(target, d)| (target_arg(self.map, target), d))
                && best.as_ref().is_none_or(|b| d <= b.1)
            {
                best = Some((name, d, n));
            }
        }
        let said = match best {
            Some((name, _, n)) => msg!(
                "parse.no_province_did_you_mean",
                text = self.quote(i, i + n),
                name = name
            ),
            None => msg!("parse.no_province", text = self.quote(i, i + 1)),
        };
        self.error(i, said)
    }

    /// The longest known name starting at token `i`, and how many tokens it spans.
    pub(super) fn name_at(&self, i: usize) -> Option<(NameTarget, usize)> {
        let first = self.word(i)?;
        let known = self.lex.words(first)?;
        let mut best = known.target.map(|target| (target, 1));
        if !known.longer || self.lex.max_words < 2 {
            return best;
        }
        let mut key = first.to_string();
        let mut k = i + 1;
        let mut words = 1;
        // A dash inside a name (`Mid-Atlantic`) joins its words.
        let tight_dash = |k: usize| {
            self.toks
                .get(k)
                .is_some_and(|t| t.kind == Kind::Dash && t.tight)
        };
        if tight_dash(k) {
            k += 1;
        }
        while let Some(t) = self.toks.get(k) {
            if t.kind != Kind::Word || words >= self.lex.max_words {
                break;
            }
            key.push(' ');
            key.push_str(self.norm(t));
            words += 1;
            k += 1;
            let Some(known) = self.lex.words(&key) else {
                break;
            };
            if let Some(target) = known.target {
                best = Some((target, k - i));
            }
            if !known.longer {
                break;
            }
            if tight_dash(k) {
                k += 1;
            }
        }
        best
    }

    /// How many tokens a power's id, name or adjective at `i` spans (`Austrian`, `Russia`).
    pub(super) fn power_at(&self, i: usize) -> Option<usize> {
        let first = self.word(i)?;
        if self.lex.is_power_word(first) {
            return Some(1);
        }
        if !self.lex.starts_power_name(first) {
            return None;
        }
        let mut key = first.to_string();
        for n in 2..=self.lex.max_power_words {
            let word = self.word(i + n - 1)?;
            key.push(' ');
            key.push_str(word);
            if self.lex.is_power_word(&key) {
                return Some(n);
            }
            if !self.lex.starts_power_name(&key) {
                return None;
            }
        }
        None
    }

    /// A unit type at `i`: `Some(None)` for `?`.
    pub(super) fn unit_kind_at(&self, i: usize) -> Option<Option<UnitKind>> {
        if self.tok(i).is_some_and(|t| t.kind == Kind::Unknown) {
            Some(None)
        } else if self.word_in(i, ARMY) {
            Some(Some(UnitKind::Army))
        } else if self.word_in(i, FLEET) {
            Some(Some(UnitKind::Fleet))
        } else {
            None
        }
    }

    pub(super) fn starts_unit(&self, i: usize) -> bool {
        self.power_at(i).is_some() || self.unit_kind_at(i).is_some() || self.name_at(i).is_some()
    }

    /// Whether a leading `Build`, `Disband`... is the verb rather than a place of that name.
    pub(super) fn prefix_applies(&self) -> bool {
        self.name_at(0).is_none() || self.starts_unit(1)
    }

    /// `[power] [type] place`: the unit type, the place, and the token the place starts at.
    pub(super) fn unit(&mut self) -> Result<(Option<UnitKind>, Location, usize), Diagnostic> {
        if let Some(n) = self.power_at(self.pos) {
            let mut after = self.pos + n;
            let colon = self
                .tok(after)
                .is_some_and(|t| t.kind == Kind::Other && self.chars.get(t.start) == Some(&':'));
            if colon {
                after += 1;
            }
            if self.unit_kind_at(after).is_some() || self.name_at(after).is_some() {
                self.pos = after;
            }
        }
        let mut unit = None;
        if let Some(kind) = self.unit_kind_at(self.pos)
            && (self.name_at(self.pos).is_none() || self.name_at(self.pos + 1).is_some())
        {
            unit = kind;
            self.pos += 1;
        }
        let start = self.pos;
        let at = self.place()?;
        Ok((unit, at, start))
    }

    /// A place, with its coast if one is written.
    pub(super) fn place(&mut self) -> Result<Location, Diagnostic> {
        let i = self.pos;
        let Some(t) = self.tok(i) else {
            return Err(self.error(i, msg!("parse.place_missing", after = self.quote(0, i))));
        };
        if t.kind != Kind::Word {
            return Err(self.not_understood(i));
        }
        let Some((target, n)) = self.name_at(i) else {
            return Err(self.unknown_place(i));
        };
        self.pos = i + n;
        let map = self.map;
        let province = match target {
            NameTarget::Region(r) => {
                let region = map.region(r);
                let coast = region.coast.is_some().then_some(r);
                return Ok(Location {
                    province: region.province,
                    coast,
                });
            }
            NameTarget::Province(p) => p,
        };
        let Some((coast, at)) = self.coast(province)? else {
            return Ok(Location::province(province));
        };
        match map.coast_region(province, &coast) {
            Some(r) => Ok(Location {
                province,
                coast: Some(r),
            }),
            None => {
                let name = map.province(province);
                let coast = match coast.as_str() {
                    "nc" => msg!("coast.nc"),
                    "sc" => msg!("coast.sc"),
                    "ec" => msg!("coast.ec"),
                    "wc" => msg!("coast.wc"),
                    other => msg!("parse.english", text = coast_name(other)),
                };
                self.warn(at, msg!("parse.no_such_coast", name = *name, coast = coast));
                Ok(Location::province(province))
            }
        }
    }

    /// A coast written after a place (`/nc`, `(nc)`, `(north coast)`, `nc`, `north coast`):
    /// its id (`nc`) and the token it starts at.
    pub(super) fn coast(
        &mut self,
        province: ProvinceId,
    ) -> Result<Option<(String, usize)>, Diagnostic> {
        let i = self.pos;
        let Some(t) = self.tok(i) else {
            return Ok(None);
        };
        match t.kind {
            Kind::Slash => {
                let Some((coast, n, _)) = self.coast_words(i + 1) else {
                    let said = msg!("parse.coast_missing", after = self.quote(0, i + 1));
                    return Err(self.error(i + 1, said));
                };
                self.pos = i + 1 + n;
                Ok(Some((coast.to_string(), i + 1)))
            }
            Kind::Open => {
                let Some((coast, n, plain)) = self.coast_words(i + 1) else {
                    return Ok(None);
                };
                if plain && !self.known_coast(province, coast) {
                    return Ok(None);
                }
                let close = i + 1 + n;
                if self.tok(close).is_none_or(|t| t.kind != Kind::Close) {
                    let said = msg!("parse.paren_missing", after = self.quote(0, close));
                    return Err(self.error(close, said));
                }
                self.pos = close + 1;
                Ok(Some((coast.to_string(), i + 1)))
            }
            Kind::Word => {
                let Some((coast, n, plain)) = self.coast_words(i) else {
                    return Ok(None);
                };
                // `north` alone only when the province has that coast and it is no name;
                // never a single letter, which is an order word (`A BUL S ...`).
                let compass = n == 1
                    && !plain
                    && self
                        .word(i)
                        .is_some_and(|w| w.chars().count() > 1 && !is_keyword(w))
                    && self.map.coast_region(province, coast).is_some()
                    && self.name_at(i).is_none();
                if !(n == 2 || compass || plain && self.known_coast(province, coast)) {
                    return Ok(None);
                }
                self.pos = i + n;
                Ok(Some((coast.to_string(), i)))
            }
            _ => Ok(None),
        }
    }

    /// Whether a coast written as an id alone (`nc`, not `north coast`) reads as one: one of
    /// the usual four, or a coast of this province that is not also an order word.
    pub(super) fn known_coast(&self, province: ProvinceId, coast: &str) -> bool {
        BARE_COASTS.contains(&coast)
            || (self.map.coast_region(province, coast).is_some() && !is_keyword(coast))
    }

    /// The coast named by the words at `i`: its id, the tokens used, and whether it was
    /// written as the id itself (`nc` rather than `north`).
    pub(super) fn coast_words(&self, i: usize) -> Option<(&'a str, usize, bool)> {
        let word = self.word(i)?;
        let compass = match word {
            "n" | "north" | "northern" => Some("nc"),
            "s" | "south" | "southern" => Some("sc"),
            "e" | "east" | "eastern" => Some("ec"),
            "w" | "west" | "western" => Some("wc"),
            _ => None,
        };
        let coast = compass.unwrap_or(word);
        if self.word(i + 1) == Some("coast") {
            Some((coast, 2, false))
        } else {
            Some((coast, 1, compass.is_none()))
        }
    }
}
