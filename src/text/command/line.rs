//! One line of a letter: its words with their columns, keywords spelt with or without spaces,
//! and comment lines.

/// A word of a line (a run of non-whitespace chars) and where it starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Word<'a> {
    pub text: &'a str,
    /// 1-based column, counted in chars.
    pub column: usize,
}

/// The words of `line`, split at any Unicode whitespace.
pub(super) fn words(line: &str) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (byte, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((from, at)) = start.take() {
                words.push(Word {
                    text: &line[from..byte],
                    column: at + 1,
                });
            }
        } else if start.is_none() {
            start = Some((byte, column));
        }
    }
    if let Some((from, at)) = start {
        words.push(Word {
            text: &line[from..],
            column: at + 1,
        });
    }
    words
}

/// How many leading `words` spell `phrase`, in any case, with the spaces between the phrase's
/// words optional (`SIGN ON`, `SIGNON`, `SignOn`) but none inside a word: judge-conventions.md
/// §1.1 "Spaces inside keywords" (NJ:index preamble). `None` if they do not.
pub(super) fn spells(words: &[Word], phrase: &[&str]) -> Option<usize> {
    let mut used = 0;
    let mut next = 0;
    while next < phrase.len() {
        let mut rest = words.get(used)?.text;
        while !rest.is_empty() {
            let part = phrase.get(next)?;
            if !rest.get(..part.len())?.eq_ignore_ascii_case(part) {
                return None;
            }
            rest = &rest[part.len()..];
            next += 1;
        }
        used += 1;
    }
    Some(used)
}

/// Whether the line's first word begins with `SET` (in any case), as every setting's phrase
/// does: the one question asked of every order line before any table of settings.
pub(super) fn begins_with_set(words: &[Word]) -> bool {
    words
        .first()
        .and_then(|w| w.text.get(..3))
        .is_some_and(|start| start.eq_ignore_ascii_case("SET"))
}

/// A comment line, `//` after optional spaces: a DPjudge extra (judge-conventions.md §1.1,
/// DP:Email), accepted as §6 recommends.
pub(super) fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with("//")
}
