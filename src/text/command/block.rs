//! Commands that take the lines after them: the REGISTER form and press messages.

use super::super::Severity;
use super::CommandKind;
use super::args::Args;
use super::line::{self, Word};
use super::reply;

/// `REGISTER [password [name...]]`, then the form lines from `lines[next]` on: `Field: value`
/// lines up to `END` (consumed), a blank line (consumed), or a line that is not a field (read
/// as usual). `Name:` and `Password:` are kept and win over the first line; the other fields
/// of njudge's form (NJ:form: Phone, Site, Address...) are dropped. Also the index of the
/// first line not read.
pub(super) fn register(
    args: &mut Args,
    rest: &[Word],
    lines: &[&str],
    mut next: usize,
) -> (Option<CommandKind>, usize) {
    let mut read = args.register(rest);
    let mut valid = read.is_some();
    while let Some(&text) = lines.get(next) {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("end") {
            next += 1;
            break;
        }
        if reply::is_quoted(text) {
            break;
        }
        let Some((field, value)) = form_field(text) else {
            break;
        };
        next += 1;
        let mut args = Args {
            line: next,
            keyword: args.keyword,
            diagnostics: &mut *args.diagnostics,
        };
        let Some(CommandKind::Register {
            name,
            password,
            form,
        }) = &mut read
        else {
            continue;
        };
        *form = true;
        if field.eq_ignore_ascii_case("name") {
            match args.name(&value) {
                Some(Some(given)) => *name = Some(given),
                Some(None) => {}
                None => valid = false,
            }
        } else if field.eq_ignore_ascii_case("password") {
            match value.as_slice() {
                [] => {}
                [word] => match args.password(word) {
                    Some(given) => *password = Some(given),
                    None => valid = false,
                },
                [_, second, ..] => {
                    let message = "a password is one word, with no spaces";
                    args.report(Severity::Error, second.column, message);
                    valid = false;
                }
            }
        }
    }
    (read.filter(|_| valid), next)
}

/// A form line `Field: value`: the field (letters, digits, spaces, `-`, `_`; at most 20
/// chars) and the words of the value, with their columns in the whole line.
fn form_field(text: &str) -> Option<(&str, Vec<Word<'_>>)> {
    let (field, value) = text.split_once(':')?;
    let field = field.trim();
    let valid = (1..=20).contains(&field.chars().count())
        && field.starts_with(|c: char| c.is_ascii_alphabetic())
        && field
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if !valid {
        return None;
    }
    let shift = text.len() - value.len();
    let shift = text[..shift].chars().count();
    let words = line::words(value)
        .into_iter()
        .map(|w| Word {
            text: w.text,
            column: w.column + shift,
        })
        .collect();
    Some((field, words))
}

/// The message of a press command whose header is `lines[next - 1]`: its lines up to a line
/// holding only `ENDPRESS` or `ENDBROADCAST` (interchangeable, consumed), only `SIGNOFF`, the
/// signature, or the end (judge-conventions.md §1.6, NJ:press). Leading and trailing blank
/// lines are dropped. Also the index of the first line not read.
pub(super) fn press(lines: &[&str], next: usize) -> (String, usize) {
    let mut end = next;
    let mut after = lines.len();
    while let Some(&text) = lines.get(end) {
        let words = line::words(text);
        let only = |phrase: &[&str]| line::spells(&words, phrase) == Some(words.len());
        if only(&["END", "PRESS"]) || only(&["END", "BROADCAST"]) {
            after = end + 1;
            break;
        }
        if only(&["SIGN", "OFF"]) {
            after = end;
            break;
        }
        end += 1;
    }
    let body = &lines[next..end];
    let blank = |l: &&str| l.trim().is_empty();
    let first = body.iter().position(|l| !blank(l)).unwrap_or(body.len());
    let last = body
        .iter()
        .rposition(|l| !blank(l))
        .map_or(first, |l| l + 1);
    (body[first..last].join("\n"), after)
}
