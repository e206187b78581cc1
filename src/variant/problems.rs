//! What the checks of a variant file share: its problems (`LoadError`), collected with the
//! file, the line where known and the key, and the index of its regions by id.

use std::collections::BTreeMap;
use std::fmt;

use toml::Spanned;

use crate::diplomacy::map::RegionId;

/// One problem in a variant file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    /// 1-based line, where the problem can be placed.
    pub line: Option<usize>,
    /// The key the problem is at: `provinces.lon.terrain`, `adjacency.fleet[3]`.
    pub key: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.key.is_empty() {
            write!(f, ": {}", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Collects problems while a file is checked.
pub(super) struct Problems<'a> {
    file: &'a str,
    text: &'a str,
    pub(super) list: Vec<LoadError>,
}

impl<'a> Problems<'a> {
    pub(super) fn new(file: &'a str, text: &'a str) -> Problems<'a> {
        Problems {
            file,
            text,
            list: Vec::new(),
        }
    }

    pub(super) fn line_of(&self, offset: usize) -> Option<usize> {
        if offset == 0 && self.text.is_empty() {
            return None;
        }
        let end = offset.min(self.text.len());
        Some(
            self.text.as_bytes()[..end]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1,
        )
    }

    pub(super) fn at<T>(
        &mut self,
        spanned: &Spanned<T>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) {
        let span = spanned.span();
        let line = if span.is_empty() {
            None
        } else {
            self.line_of(span.start)
        };
        self.push(line, key, message);
    }

    pub(super) fn push(
        &mut self,
        line: Option<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.list.push(LoadError {
            file: self.file.to_string(),
            line,
            key: key.into(),
            message: message.into(),
        });
    }
}

/// The regions of a variant file by id (`lon`, `stp/nc`), as its provinces are read.
pub(super) type RegionIndex = BTreeMap<String, RegionId>;
