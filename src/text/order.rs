//! Orders read from a player's text (`parse_orders`, `parse_order`) and written back (`render`).
//!
//! Reading never fails: what is not understood becomes a `Diagnostic` with its line, column
//! and a sentence a player understands, and reading goes on with the next order.

use crate::diplomacy::map::Map;
use crate::diplomacy::order::{Action, Location, Order};
use crate::diplomacy::turn::PhaseKind;
use crate::diplomacy::unit::UnitKind;

use super::lexer::{Kind, tokenise};
use super::parse::Parser;
use super::place::Lexicon;
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
    map: &Map,
    phase: PhaseKind,
    text: &str,
) -> (Vec<ParsedOrder>, Vec<Diagnostic>) {
    let lexicon = Lexicon::new(map);
    let mut orders = Vec::new();
    let mut diagnostics = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let tokens = tokenise(&chars);
        for segment in tokens.split(|t| t.kind == Kind::Separator) {
            let line = index + 1;
            let marker = Parser::new(&lexicon, phase, &chars, segment, line).list_marker();
            let segment = segment.get(marker..).unwrap_or_default();
            let Some(first) = segment.first() else {
                continue;
            };
            let mut parser = Parser::new(&lexicon, phase, &chars, segment, line);
            let source = parser.src(0, segment.len());
            match parser.parse() {
                Ok(read) => {
                    orders.extend(read.into_iter().map(|order| ParsedOrder {
                        order,
                        line,
                        column: first.start + 1,
                        text: source.clone(),
                    }));
                    diagnostics.append(&mut parser.warnings);
                }
                Err(error) => diagnostics.push(error),
            }
        }
    }
    (orders, diagnostics)
}

/// Read one order (as the JSON interface and the DATC give them, e.g. `F NTH C A LON - BEL`).
/// Never fails: `None`, with an error diagnostic, when the text is not exactly one order.
pub fn parse_order(map: &Map, phase: PhaseKind, text: &str) -> (Option<Order>, Vec<Diagnostic>) {
    let (mut orders, mut diagnostics) = parse_orders(map, phase, text);
    if orders.len() == 1 {
        return (orders.pop().map(|o| o.order), diagnostics);
    }
    let error = |message: String| Diagnostic {
        line: 1,
        column: 1,
        severity: Severity::Error,
        message,
    };
    if orders.len() > 1 {
        let message = format!(
            "'{}' holds {} orders; give one at a time",
            text.trim(),
            orders.len()
        );
        diagnostics.push(error(message));
    } else if !diagnostics.iter().any(|d| d.severity == Severity::Error) {
        diagnostics.push(error("there is no order here".into()));
    }
    (None, diagnostics)
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
