//! The grammar of one order: a cursor over the tokens of one order's text.

use crate::diplomacy::map::{ProvinceId, Terrain, UnitKind};
use crate::diplomacy::order::{Action, Order, UnitOrder};
use crate::diplomacy::turn::PhaseKind;
use crate::msg;
use crate::report::Message;

use super::lexer::{Kind, Line, Token};
use crate::diplomacy::map::Map;

use super::lexicon::Lexicon;
use super::{Diagnostic, Severity};

/// Most orders one `WAIVE n` gives.
pub(crate) const MAX_WAIVES: usize = 34;
/// Most chars of a player's text quoted in a message.
const QUOTE_MAX: usize = 40;

// Each order's words: English (njudge's and the rulebook's), then Russian, as Russian letters
// echo orders (`Флот Лондон стоит`, `... поддерживает армию ...`) and players abbreviate them.
const HOLD: &[&str] = &[
    "h",
    "hold",
    "holds",
    "stand",
    "stands",
    "стоит",
    "стоять",
    "стоп",
];
const SUPPORT: &[&str] = &[
    "s",
    "sup",
    "supp",
    "support",
    "supports",
    "п",
    "поддерживает",
    "поддержать",
    "поддержка",
];
const CONVOY: &[&str] = &[
    "c",
    "convoy",
    "convoys",
    "transport",
    "transports",
    "к",
    "конвоирует",
    "конвоировать",
    "конвой",
];
const RETREAT: &[&str] = &["r", "retreat", "retreats", "отступает", "отступить"];
const DISBAND: &[&str] = &[
    "d",
    "disband",
    "disbands",
    "remove",
    "removes",
    "распускается",
    "распустить",
    "распускает",
];
const BUILD: &[&str] = &["b", "build", "builds", "строит", "построить", "постройка"];
const MOVE: &[&str] = &["m", "move", "moves"];
/// Diadochi V's orders: destroy the centre the unit stands in, restore a destroyed one.
const DESTROY: &[&str] = &["z", "destroy", "destroys", "разрушает", "разрушить"];
const RESTORE: &[&str] = &["restore", "restores", "восстанавливает", "восстановить"];
/// A unit's kind, in English and in Russian (`армию` as Russian letters write the object).
pub(super) const ARMY: &[&str] = &["a", "army", "а", "армия", "армию"];
pub(super) const FLEET: &[&str] = &["f", "fleet", "ф", "флот"];
const OTHER_KEYWORDS: &[&str] = &["to", "via", "by", "waive", "через"];

pub(super) fn is_keyword(word: &str) -> bool {
    [
        HOLD,
        SUPPORT,
        CONVOY,
        RETREAT,
        DISBAND,
        BUILD,
        MOVE,
        DESTROY,
        RESTORE,
        ARMY,
        FLEET,
        OTHER_KEYWORDS,
    ]
    .iter()
    .any(|list| list.contains(&word))
}

/// Reads the tokens of one order (one line may hold several, split at `,` and `;`).
pub(crate) struct Parser<'a> {
    pub(super) map: &'a Map,
    pub(super) lex: &'a Lexicon,
    pub(super) phase: PhaseKind,
    /// The whole line, for quoting.
    pub(super) chars: &'a [char],
    /// The line's normalised words (`Token::norm_start..norm_end`).
    pub(super) norms: &'a str,
    /// This order's tokens.
    pub(crate) toks: &'a [Token],
    pub(super) line: usize,
    pub(super) pos: usize,
    /// Parts ignored in an order that was read.
    pub warnings: Vec<Diagnostic>,
    /// The province of the ordered unit, once read.
    pub subject: Option<ProvinceId>,
}

impl<'a> Parser<'a> {
    pub fn new(
        map: &'a Map,
        lex: &'a Lexicon,
        phase: PhaseKind,
        text: &'a Line,
        toks: &'a [Token],
        line: usize,
    ) -> Self {
        Parser {
            map,
            lex,
            phase,
            chars: &text.chars,
            norms: &text.norms,
            toks,
            line,
            pos: 0,
            warnings: Vec::new(),
            subject: None,
        }
    }

    /// Read the order, and how many times it is given (more than once only for `WAIVE n`).
    pub fn parse(&mut self) -> Result<(Order, usize), Diagnostic> {
        if self.word(0) == Some("waive") {
            return self.waive();
        }
        let removes = self.word_in(0, DISBAND)
            || (self.phase == PhaseKind::Adjustment && self.word(0) == Some("r"));
        if (removes || self.word_in(0, BUILD)) && self.prefix_applies() {
            self.pos = 1;
            let (unit, at, _) = self.unit()?;
            self.subject = Some(at.province);
            self.end()?;
            let action = if removes {
                Action::Disband
            } else {
                Action::Build
            };
            return Ok((Order::Unit(UnitOrder { unit, at, action }), 1));
        }
        if !self.starts_unit(0) {
            return Err(self.bad_start());
        }
        let (unit, at, place_start) = self.unit()?;
        self.subject = Some(at.province);
        let action = self.action(unit, place_start)?;
        self.end()?;
        Ok((Order::Unit(UnitOrder { unit, at, action }), 1))
    }

    /// How many tokens at the start are a list marker (`1.` or `2)` before a word, `*` before
    /// a unit, `-` before a unit type or a power), to be skipped.
    pub fn list_marker(&self) -> usize {
        let Some(first) = self.tok(0) else { return 0 };
        let number = self
            .word(0)
            .is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()));
        let bullet = first.kind == Kind::Other
            && matches!(self.chars.get(first.start), Some('*' | '•' | '·' | '+'));
        if !(number || bullet || first.kind == Kind::Dash) {
            return 0;
        }
        let mut n = 1;
        let closes = self.tok(1).is_some_and(|t| {
            t.kind == Kind::Close
                || (t.kind == Kind::Other && self.chars.get(t.start) == Some(&':'))
        });
        if number && closes {
            n = 2;
        }
        let verb = [DISBAND, BUILD, &["waive"]]
            .iter()
            .any(|list| self.word_in(n, list));
        let unit = self.unit_kind_at(n).is_some() || self.power_at(n).is_some();
        let place = (number && self.word(n).is_some())
            || (first.kind != Kind::Dash && self.name_at(n).is_some());
        if verb || unit || place { n } else { 0 }
    }

    // ---- tokens ----

    pub(super) fn tok(&self, i: usize) -> Option<&'a Token> {
        self.toks.get(i)
    }

    pub(super) fn word(&self, i: usize) -> Option<&'a str> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| self.norm(t))
    }

    /// A token's normalised word (empty for punctuation).
    pub(super) fn norm(&self, t: &Token) -> &'a str {
        self.norms.get(t.norm_start..t.norm_end).unwrap_or_default()
    }

    pub(super) fn word_in(&self, i: usize, list: &[&str]) -> bool {
        self.word(i).is_some_and(|w| list.contains(&w))
    }

    /// The text of tokens `from..to` as written.
    pub fn src(&self, from: usize, to: usize) -> String {
        if from >= to {
            return String::new();
        }
        match (self.toks.get(from), self.toks.get(to - 1)) {
            (Some(a), Some(b)) if a.start <= b.end => self
                .chars
                .get(a.start..b.end)
                .unwrap_or_default()
                .iter()
                .collect(),
            _ => String::new(),
        }
    }

    /// Like `src`, shortened for a message.
    pub(super) fn quote(&self, from: usize, to: usize) -> String {
        let text = self.src(from, to);
        if text.chars().count() <= QUOTE_MAX {
            return text;
        }
        let mut short: String = text.chars().take(QUOTE_MAX).collect();
        short.push('…');
        short
    }

    pub(super) fn column(&self, i: usize) -> usize {
        match self.toks.get(i) {
            Some(t) => t.start + 1,
            None => self.toks.last().map_or(1, |t| t.end + 1),
        }
    }

    pub(super) fn error(&self, i: usize, said: Message) -> Diagnostic {
        Diagnostic::new(self.line, self.column(i), Severity::Error, said)
    }

    pub(super) fn warn(&mut self, i: usize, said: Message) {
        let column = self.column(i);
        self.warnings
            .push(Diagnostic::new(self.line, column, Severity::Warning, said));
    }

    // ---- errors ----

    /// `I could not understand 'x y' after 'A LON'`, about the tokens from `i` on.
    pub(super) fn not_understood(&self, i: usize) -> Diagnostic {
        let rest = self.quote(i, self.toks.len());
        let said = if i == 0 {
            msg!("parse.not_understood", text = rest)
        } else {
            msg!(
                "parse.not_understood_after",
                text = rest,
                after = self.quote(0, i)
            )
        };
        self.error(i, said)
    }

    /// The error for an order that does not begin with a unit.
    fn bad_start(&self) -> Diagnostic {
        let Some(first) = self.word(0) else {
            return self.error(0, msg!("parse.place_first"));
        };
        if is_keyword(first) || first.chars().all(|c| c.is_ascii_digit()) {
            return self.error(0, msg!("parse.place_first"));
        }
        let unknown = self.unknown_place(0);
        let looks_like_order = self.tok(1).is_none()
            || self.move_op(1).is_some()
            || [HOLD, SUPPORT, CONVOY]
                .iter()
                .any(|list| self.word_in(1, list));
        if unknown.said.key == "parse.no_province_did_you_mean" || looks_like_order {
            return unknown;
        }
        self.error(
            0,
            msg!("parse.not_an_order", text = self.quote(0, self.toks.len())),
        )
    }

    fn end(&self) -> Result<(), Diagnostic> {
        if self.pos < self.toks.len() {
            Err(self.not_understood(self.pos))
        } else {
            Ok(())
        }
    }

    // ---- actions ----

    /// A move operator at `i` (`-`, `->`, `to`, `moves to`...) and how many tokens it spans.
    fn move_op(&self, i: usize) -> Option<usize> {
        let t = self.tok(i)?;
        match t.kind {
            Kind::Dash | Kind::Arrow => Some(1),
            Kind::Word if self.norm(t) == "to" => Some(1),
            Kind::Word if MOVE.contains(&self.norm(t)) => {
                Some(if self.word(i + 1) == Some("to") { 2 } else { 1 })
            }
            _ => None,
        }
    }

    /// What the unit (of the kind written, if one was) whose place starts at token
    /// `place_start` is ordered to do.
    fn action(&mut self, unit: Option<UnitKind>, place_start: usize) -> Result<Action, Diagnostic> {
        let i = self.pos;
        if self.tok(i).is_none() {
            let expected = match self.phase {
                PhaseKind::Movement => "-, H, S or C",
                PhaseKind::Retreat => "R or D",
                PhaseKind::Adjustment => "B or D",
            };
            let place = self.quote(place_start, i);
            let said = msg!("parse.no_order_after", place = place, expected = expected);
            return Err(self.error(place_start, said));
        }
        if let Some(n) = self.move_op(i) {
            self.pos += n;
            let mut at = self.pos;
            let mut to = self.place()?;
            // A convoy route (`A LON - NTH - BEL`): the destination is the last place, and
            // every place on the way a sea a fleet may convoy through. A route over land
            // (`A MUN - BER - KIE`) is no order the rules know: refused, never shortened.
            while let Some(n) = self.move_op(self.pos) {
                if unit == Some(UnitKind::Fleet) {
                    return Err(self.error(self.pos, msg!("parse.route_fleet")));
                }
                let province = self.map.province(to.province);
                if province.terrain != Terrain::Sea {
                    let said = msg!("parse.route_not_sea", place = *province);
                    return Err(self.error(at, said));
                }
                self.pos += n;
                at = self.pos;
                to = self.place()?;
            }
            let via_at = self.pos;
            let via_convoy = self.via();
            if self.phase == PhaseKind::Retreat {
                if via_convoy {
                    self.warn(via_at, msg!("parse.retreat_via"));
                }
                return Ok(Action::Retreat { to });
            }
            return Ok(Action::Move { to, via_convoy });
        }
        let word = self.word(i).unwrap_or_default();
        self.pos += 1;
        let alone = self.tok(self.pos).is_none();
        if word == "r" && self.phase == PhaseKind::Adjustment && alone {
            Ok(Action::Disband)
        } else if DESTROY.contains(&word) {
            Ok(Action::Destroy)
        } else if RESTORE.contains(&word)
            || (word == "r" && self.phase == PhaseKind::Movement && alone)
        {
            Ok(Action::Restore)
        } else if HOLD.contains(&word) {
            Ok(Action::Hold)
        } else if SUPPORT.contains(&word) {
            self.support()
        } else if CONVOY.contains(&word) {
            self.convoy()
        } else if RETREAT.contains(&word) {
            if self.word(self.pos) == Some("to") {
                self.pos += 1;
            }
            Ok(Action::Retreat { to: self.place()? })
        } else if DISBAND.contains(&word) {
            Ok(Action::Disband)
        } else if BUILD.contains(&word) {
            Ok(Action::Build)
        } else {
            Err(self.not_understood(i))
        }
    }

    /// `via`, `via convoy`, `by convoy` after a move; `через конвой` as Russian letters echo it.
    fn via(&mut self) -> bool {
        if self.word(self.pos) == Some("via") {
            self.pos += 1;
            if self.word(self.pos) == Some("convoy") {
                self.pos += 1;
            }
            true
        } else if (self.word(self.pos) == Some("by") && self.word(self.pos + 1) == Some("convoy"))
            || (self.word(self.pos) == Some("через") && self.word(self.pos + 1) == Some("конвой"))
        {
            self.pos += 2;
            true
        } else {
            false
        }
    }

    /// After `S`: `A VEN`, `A VEN H`, `A TRI - VEN`.
    fn support(&mut self) -> Result<Action, Diagnostic> {
        let (unit, at, _) = self.unit()?;
        if self.word_in(self.pos, HOLD) {
            self.pos += 1;
        } else if let Some(n) = self.move_op(self.pos) {
            self.pos += n;
            let to = self.place()?;
            return Ok(Action::SupportMove { unit, from: at, to });
        }
        Ok(Action::SupportHold { unit, at })
    }

    /// After `C`: `A LON - BEL`.
    fn convoy(&mut self) -> Result<Action, Diagnostic> {
        let (_, from, _) = self.unit()?;
        let Some(n) = self.move_op(self.pos) else {
            return Err(self.error(self.pos, msg!("parse.convoy_destination")));
        };
        self.pos += n;
        let to = self.place()?;
        Ok(Action::Convoy { from, to })
    }

    /// `WAIVE`, `WAIVE 2`, `WAIVE 2 builds`.
    fn waive(&mut self) -> Result<(Order, usize), Diagnostic> {
        self.pos = 1;
        let mut count = 1;
        if let Some(w) = self.word(1)
            && !w.is_empty()
            && w.chars().all(|c| c.is_ascii_digit())
        {
            count = w.parse::<usize>().unwrap_or(usize::MAX);
            self.pos = 2;
        }
        if self.word_in(self.pos, BUILD) {
            self.pos += 1;
        }
        self.end()?;
        if count == 0 {
            return Err(self.error(1, msg!("parse.waive_zero")));
        }
        if count > MAX_WAIVES {
            self.warn(1, msg!("parse.waive_most", most = MAX_WAIVES));
            count = MAX_WAIVES;
        }
        Ok((Order::Waive, count))
    }
}
