//! Orders read from a player's text (`parse_orders`, `parse_order`) and written back (`render`).
//!
//! Reading never fails: what is not understood becomes a `Diagnostic` with its line, column
//! and a sentence a player understands, and reading goes on with the next order.

use crate::diplomacy::map::Map;
use crate::diplomacy::order::{Action, Location, Order};
use crate::diplomacy::turn::PhaseKind;
use crate::diplomacy::unit::UnitKind;
use crate::msg;
use crate::variant::Variant;

use super::lexer::{Kind, Line};
use super::parse::Parser;
pub use super::{Diagnostic, Severity};

/// One order read from the text, with the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedOrder {
    pub order: Order,
    /// 1-based line of the text.
    pub line: usize,
    /// 1-based column (in chars) where the order starts.
    pub column: usize,
    /// The order as written: `A Lon - Bel`.
    pub text: String,
}

/// Read every order in `text` (one or more per line, separated by `,` or `;`). Never fails.
///
/// Blank lines are skipped; an order that is not understood gives an error diagnostic and is
/// left out; a part of an order that is ignored (a coast the province lacks) gives a warning.
pub fn parse_orders(
    variant: &Variant,
    phase: PhaseKind,
    text: &str,
) -> (Vec<ParsedOrder>, Vec<Diagnostic>) {
    let mut orders = Vec::new();
    let mut diagnostics = Vec::new();
    read(
        &mut Line::default(),
        variant,
        phase,
        text,
        &mut diagnostics,
        |parser, order, times, line, column| {
            let text = parser.src(0, parser.toks.len());
            let read = ParsedOrder {
                order,
                line,
                column,
                text,
            };
            orders.extend(std::iter::repeat_n(read, times));
        },
    );
    (orders, diagnostics)
}

/// Read one order (as the JSON interface and the DATC give them, e.g. `F NTH C A LON - BEL`).
/// Never fails: `None`, with an error diagnostic, when the text is not exactly one order.
pub fn parse_order(
    variant: &Variant,
    phase: PhaseKind,
    text: &str,
) -> (Option<Order>, Vec<Diagnostic>) {
    OrderReader::default().parse_order(variant, phase, text)
}

/// Reads orders one text after another, keeping its buffers from one to the next (the JSON
/// interface reads tens of thousands of orders, one text each).
#[derive(Default)]
pub struct OrderReader {
    line: Line,
}

impl OrderReader {
    /// `parse_order`, with this reader's buffers.
    pub fn parse_order(
        &mut self,
        variant: &Variant,
        phase: PhaseKind,
        text: &str,
    ) -> (Option<Order>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let mut first = None;
        let mut count = 0;
        read(
            &mut self.line,
            variant,
            phase,
            text,
            &mut diagnostics,
            |_, order, times, _, _| {
                if count == 0 {
                    first = Some(order);
                }
                count += times;
            },
        );
        if count == 1 {
            return (first, diagnostics);
        }
        let error = |said| Diagnostic::new(1, 1, Severity::Error, said);
        if count > 1 {
            let said = msg!("parse.several_orders", text = text.trim(), count = count);
            diagnostics.push(error(said));
        } else if !diagnostics.iter().any(|d| d.severity == Severity::Error) {
            diagnostics.push(error(msg!("parse.no_order")));
        }
        (None, diagnostics)
    }
}

/// Reads every order of `text`, handing each to `found` with the parser that read it (for its
/// text), how many times it was given (`WAIVE 2`), its line and its column; problems go to
/// `diagnostics`.
fn read(
    buffer: &mut Line,
    variant: &Variant,
    phase: PhaseKind,
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
    mut found: impl FnMut(&Parser<'_>, Order, usize, usize, usize),
) {
    let (map, lexicon) = (&variant.map, variant.lexicon());
    for (index, line) in text.lines().enumerate() {
        buffer.read(line);
        let tokens = &buffer.tokens;
        for segment in tokens.split(|t| t.kind == Kind::Separator) {
            let line = index + 1;
            let marker = Parser::new(map, lexicon, phase, buffer, segment, line).list_marker();
            let segment = segment.get(marker..).unwrap_or_default();
            let Some(first) = segment.first() else {
                continue;
            };
            let mut parser = Parser::new(map, lexicon, phase, buffer, segment, line);
            match parser.parse() {
                Ok((order, times)) => {
                    found(&parser, order, times, line, first.start + 1);
                    diagnostics.append(&mut parser.warnings);
                }
                Err(mut error) => {
                    error.unit = parser.subject;
                    diagnostics.push(error);
                }
            }
        }
    }
}

/// An order in canonical form, with upper-case ids: `A LON - BEL VIA`, `F NTH C A LON - BEL`,
/// `A TYR S A VEN`, `F ADR S A TRI - VEN`, `F STP/NC - BAR`, `A LON H`, `F TRI R ALB`,
/// `A PAR D`, `F STP/NC B`, `WAIVE`. A unit type not written is rendered `?` (`? LON - BEL`);
/// a convoyed unit is always written `A`. `parse_order` reads every rendering back to the
/// same order (in the phase it was read in).
pub fn render(map: &Map, order: &Order) -> String {
    let Order::Unit(u) = order else {
        return "WAIVE".into();
    };
    let unit = |kind: Option<UnitKind>| kind.map_or('?', UnitKind::letter);
    let place = |l: &Location| match l.coast {
        Some(region) => map.region_id(region).to_uppercase(),
        None => map.province(l.province).id.to_uppercase(),
    };
    let action = match &u.action {
        Action::Hold => "H".to_string(),
        Action::Move { to, via_convoy } => {
            format!("- {}{}", place(to), if *via_convoy { " VIA" } else { "" })
        }
        Action::SupportHold { unit: kind, at } => format!("S {} {}", unit(*kind), place(at)),
        Action::SupportMove {
            unit: kind,
            from,
            to,
        } => {
            format!("S {} {} - {}", unit(*kind), place(from), place(to))
        }
        Action::Convoy { from, to } => format!("C A {} - {}", place(from), place(to)),
        Action::Retreat { to } => format!("R {}", place(to)),
        Action::Disband => "D".into(),
        Action::Build => "B".into(),
        Action::Destroy => "Z".into(),
        Action::Restore => "RESTORE".into(),
    };
    format!("{} {} {}", unit(u.unit), place(&u.at), action)
}
