//! One line of a letter: its words with their columns, keywords spelt with or without spaces,
//! and the lines that are not the writer's own text (quotes, attributions, signatures).

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

/// A quoted line of a reply: `>` after optional spaces.
pub(super) fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// A comment line, `//` after optional spaces: a DPjudge extra (judge-conventions.md §1.1,
/// DP:Email), accepted as §6 recommends.
pub(super) fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with("//")
}

/// A line after which nothing of the letter is read: the signature delimiter `-- ` (or `--`,
/// as some mailers strip the space), which njudge takes as SIGNOFF (judge-conventions.md §1.1,
/// NJ:mail.c), or the `-----Original Message-----` line above an unquoted original.
pub(super) fn ends_letter(line: &str) -> bool {
    if line.trim_end() == "--" {
        return true;
    }
    let trimmed = line.trim();
    let inner = trimmed.trim_matches('-');
    trimmed.starts_with("--")
        && trimmed.ends_with("--")
        && inner.trim().eq_ignore_ascii_case("original message")
}

/// The verbs of the line mailers put above a quoted block, which ends with `:`:
/// `On Mon, 5 Jan 2027, X wrote:`, `Am 5. Jan. 2027 schrieb X <x@example.org>:`.
const ATTRIBUTION_VERBS: [&str; 7] = [
    "wrote",
    "schrieb",
    "écrit",
    "написал",
    "escribió",
    "scritto",
    "schreef",
];

/// For each line, whether it is quoted or introduces a quoted block: an attribution line
/// directly before the quote (blank lines between allowed), with its first half when the
/// mailer wrapped it (`On Mon, 5 Jan 2027 at 10:00, X` / `<x@example.org> wrote:`).
pub(super) fn quoting(lines: &[&str]) -> Vec<bool> {
    let mut skip = vec![false; lines.len()];
    let mut quote_follows = false;
    for (index, line) in lines.iter().enumerate().rev() {
        if is_quoted(line) {
            skip[index] = true;
            quote_follows = true;
        } else if line.trim().is_empty() {
            continue;
        } else {
            skip[index] = quote_follows && is_attribution(line);
            quote_follows = false;
        }
    }
    for index in 1..lines.len() {
        let line = lines[index - 1].trim_start();
        let opening = line.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("on "));
        if skip[index] && !is_quoted(lines[index]) && opening && !line.ends_with(':') {
            skip[index - 1] = true;
        }
    }
    skip
}

fn is_attribution(line: &str) -> bool {
    let line = line.trim_end();
    if !line.ends_with(':') {
        return false;
    }
    let line = line.to_lowercase();
    ATTRIBUTION_VERBS.iter().any(|verb| line.contains(verb))
}
