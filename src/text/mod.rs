//! Players' text read into orders, with diagnostics a player understands; never fails.
//!
//! - `command`: the body of a letter read into judge commands (`parse_commands`), echoed (`render`).
//! - `date`: dates in the classic judges' forms (`15 Jun 23:30`, `Tue`), ISO 8601's and every
//!   form the judge prints, resolved against a given today in the game's zone.
//! - `invisible`: characters that change how a name reads without being seen (refused in names).
//! - `conditional`: IF/ELSE/ENDIF blocks of orders for a later phase, selected on a board.
//! - `lexicon`: a map's names prepared once for every reader (kept by `Variant::lexicon`).
//! - `names`: place names normalised, looked up, and "did you mean" suggestions.
//! - `order`: orders read from text (`parse_orders`, `parse_order`) and written back (`render`).

use crate::diplomacy::map::ProvinceId;
use crate::report::Message;
use std::fmt;

pub mod command;
pub mod conditional;
pub mod date;
pub mod invisible;
mod lexer;
pub mod lexicon;
pub mod names;
pub mod order;
mod parse;
mod place;
#[cfg(test)]
mod tests;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The order was not read.
    Error,
    /// The order was read, but part of it was ignored.
    Warning,
}

/// A problem found in a player's text, with where it is and a sentence a player understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line of the text.
    pub line: usize,
    /// 1-based column, counted in chars.
    pub column: usize,
    pub severity: Severity,
    /// A plain sentence with no trailing period, in English: `there is no province 'Lodnon';
    /// did you mean London?`.
    pub message: String,
    /// The same sentence for readers of any language (the `parse` catalog).
    pub said: Message,
    /// The province of the unit the order was for, when the reader got that far before the
    /// error (`A MUN - NHT`: Munich): the judge tells a unit's refused order from a stray line.
    pub unit: Option<ProvinceId>,
}

impl Diagnostic {
    /// A diagnostic saying `said`, its English text made from the built-in catalog.
    pub fn new(line: usize, column: usize, severity: Severity, said: Message) -> Diagnostic {
        Diagnostic {
            line,
            column,
            severity,
            message: crate::report::Words::english().message(&said),
            said,
            unit: None,
        }
    }

    /// A diagnostic whose sentence exists in English only (read the same in every language).
    pub fn english(line: usize, column: usize, severity: Severity, message: String) -> Diagnostic {
        Diagnostic::new(
            line,
            column,
            severity,
            crate::msg!("parse.english", text = message),
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}
