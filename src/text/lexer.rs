//! Splits one line of a player's text into words and punctuation, remembering columns.

use crate::diplomacy::map::normalise_chars_into;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Letters and digits (dots inside are dropped from `norm`): `lon`, `St.`, `n.c.`.
    Word,
    /// `-`, `–`, `—`, `--`.
    Dash,
    /// `->`, `=>`, `→`, `⇒`.
    Arrow,
    /// `/`.
    Slash,
    /// `(` or `[`.
    Open,
    /// `)` or `]`.
    Close,
    /// `,` or `;`: separates orders on one line.
    Separator,
    /// `?`: a unit type not given (as `render` writes it).
    Unknown,
    /// Any other character.
    Other,
}

/// A word or punctuation mark with its place in the line.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    /// Where the word, normalised with `normalise_name`, is in `Line::norms` (empty for
    /// punctuation).
    pub norm_start: usize,
    pub norm_end: usize,
    /// Index of the first char in the line (0-based, in chars).
    pub start: usize,
    /// Index one past the last char.
    pub end: usize,
    /// For a dash: written with no space on either side between two words (`Mid-Atlantic`).
    pub tight: bool,
}

fn is_word_start(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.' || c == '\''
}

/// One line of text read into tokens, its buffers kept from line to line.
#[derive(Default)]
pub(crate) struct Line {
    /// The line's chars (columns count chars).
    pub chars: Vec<char>,
    pub tokens: Vec<Token>,
    /// The normalised words, one after the other.
    pub norms: String,
}

impl Line {
    /// Reads `text` (which holds no newline) in place of the line before.
    pub fn read(&mut self, text: &str) {
        self.chars.clear();
        self.chars.extend(text.chars());
        self.tokens.clear();
        self.norms.clear();
        tokenise(&self.chars, &mut self.tokens, &mut self.norms);
    }
}

/// The tokens of one line (which holds no newline), added to `tokens`, their words to `norms`.
fn tokenise(chars: &[char], tokens: &mut Vec<Token>, norms: &mut String) {
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let start = i;
        let next = chars.get(i + 1).copied();
        let kind = if c.is_whitespace() || c == '.' || c == '"' {
            i += 1;
            continue;
        } else if is_word_start(c) {
            while chars.get(i).is_some_and(|&c| is_word_char(c)) {
                i += 1;
            }
            let word = chars.get(start..i).unwrap_or_default();
            let norm_start = norms.len();
            normalise_chars_into(word.iter().copied(), norms);
            tokens.push(Token {
                kind: Kind::Word,
                norm_start,
                norm_end: norms.len(),
                start,
                end: i,
                tight: false,
            });
            continue;
        } else if (c == '-' || c == '=') && next == Some('>') {
            i += 2;
            Kind::Arrow
        } else if c == '-' || c == '–' || c == '—' {
            while chars
                .get(i)
                .is_some_and(|&c| c == '-' || c == '–' || c == '—')
            {
                i += 1;
            }
            Kind::Dash
        } else {
            i += 1;
            match c {
                '→' | '⇒' => Kind::Arrow,
                '/' => Kind::Slash,
                '(' | '[' => Kind::Open,
                ')' | ']' => Kind::Close,
                ',' | ';' => Kind::Separator,
                '?' => Kind::Unknown,
                _ => Kind::Other,
            }
        };
        let tight = kind == Kind::Dash
            && i == start + 1
            && start > 0
            && chars.get(start - 1).is_some_and(|&c| c.is_alphanumeric())
            && chars.get(i).is_some_and(|&c| c.is_alphanumeric());
        tokens.push(Token {
            kind,
            norm_start: norms.len(),
            norm_end: norms.len(),
            start,
            end: i,
            tight,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, String)> {
        let mut line = Line::default();
        line.read(s);
        line.tokens
            .iter()
            .map(|t| (t.kind, line.norms[t.norm_start..t.norm_end].to_string()))
            .collect()
    }

    #[test]
    fn splits() {
        let t = kinds("F St. Petersburg(n.c.)->Mid-Atlantic, x");
        let words: Vec<&str> = t.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            words,
            [
                "f",
                "st",
                "petersburg",
                "",
                "nc",
                "",
                "",
                "mid",
                "",
                "atlantic",
                "",
                "x"
            ]
        );
        assert_eq!(t[3].0, Kind::Open);
        assert_eq!(t[6].0, Kind::Arrow);
        assert_eq!(t[10].0, Kind::Separator);
    }

    #[test]
    fn columns_count_chars() {
        let mut line = Line::default();
        line.read("é🚢 lon-bel");
        let t = &line.tokens;
        assert_eq!(t[0].start, 0);
        assert_eq!(t[1].kind, Kind::Other);
        assert_eq!(t[2].start, 3);
        assert!(t[3].tight);
    }
}
