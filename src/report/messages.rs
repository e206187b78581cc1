//! The message catalog: every sentence the judge writes in code, per language
//! (`templates/<language>/messages.toml`, `key = "text with {placeholders}"`), looked up by
//! key in the reader's language, falling back to English, then to the key itself.
//!
//! A placeholder is `{name}`, or `{name|form|form|form}` for a word that follows a number
//! (English: one, other; Russian: one, few, many). `{{` and `}}` are literal braces. A
//! placeholder with no value is left visible, so a mistake in a catalog shows in the letter
//! rather than stopping the judge.
//!
//! In code, `msg!("key", name = value, ...)` is a [`Message`] (key and values, rendered
//! later in each reader's language; a value may be another message), and
//! `tr!(words, "key", name = value, ...)` renders one at once with [`Words`].

use std::collections::BTreeMap;

pub use crate::lang::Lang;
pub use crate::message::{Arg, Message, When};
use std::fmt::Write;

use chrono::Datelike;
use std::path::Path;
use std::sync::LazyLock;

/// The built-in catalogs: `(language, source)`.
const BUILT_IN: &[(Lang, &str)] = &[
    (Lang::En, include_str!("../../templates/en/messages.toml")),
    (Lang::Ru, include_str!("../../templates/ru/messages.toml")),
];

/// The catalogs of every language.
#[derive(Clone, Debug, Default)]
pub struct Messages {
    by_language: BTreeMap<Lang, BTreeMap<String, String>>,
}

static BUILT_IN_MESSAGES: LazyLock<Messages> =
    LazyLock::new(|| Messages::load(None).expect("the built-in message catalogs read"));

impl Messages {
    /// The built-in catalogs, each overlaid by `<folder>/<language>/messages.toml` when there
    /// is one (its keys replace the built-in ones; keys it lacks keep the built-in text).
    pub fn load(folder: Option<&Path>) -> Result<Messages, String> {
        let mut by_language = BTreeMap::new();
        for (language, built_in) in BUILT_IN {
            let mut messages = parse(&format!("templates/{language}/messages.toml"), built_in)?;
            if let Some(file) = folder.map(|f| f.join(language.code()).join("messages.toml"))
                && let Ok(text) = std::fs::read_to_string(&file)
            {
                messages.extend(parse(&file.display().to_string(), &text)?);
            }
            by_language.insert(*language, messages);
        }
        Ok(Messages { by_language })
    }

    /// The built-in catalogs only, read once.
    pub fn built_in() -> &'static Messages {
        &BUILT_IN_MESSAGES
    }

    /// The languages with a catalog.
    pub fn languages(&self) -> impl Iterator<Item = Lang> + '_ {
        self.by_language.keys().copied()
    }

    /// The catalog of `language`: key and text.
    pub fn catalog(&self, language: Lang) -> Option<&BTreeMap<String, String>> {
        self.by_language.get(&language)
    }

    /// The text of `key` in `language`, else in English.
    pub fn get(&self, language: Lang, key: &str) -> Option<&str> {
        self.by_language
            .get(&language)
            .and_then(|m| m.get(key))
            .or_else(|| self.by_language.get(&Lang::En).and_then(|m| m.get(key)))
            .map(String::as_str)
    }

    /// `key` in `language` (else English, else the key itself) with `args` filled in.
    pub fn text(&self, language: Lang, key: &str, args: &[(&str, &str)]) -> String {
        match self.get(language, key) {
            Some(text) => fill(language, text, args),
            None => key.to_string(),
        }
    }

    /// The words of `language`, for rendering (English when there is no such catalog).
    pub fn words(&self, language: Lang) -> Words<'_> {
        Words {
            messages: self,
            language,
        }
    }
}

/// A catalog file read into `key → text`; tables nest keys with dots (`[seats]` then
/// `registered = ...` is `seats.registered`).
pub fn parse(name: &str, text: &str) -> Result<BTreeMap<String, String>, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1))
            .unwrap_or(0);
        format!("{name}:{line}: {}", e.message().trim_end())
    })?;
    let mut out = BTreeMap::new();
    flatten(name, "", &table, &mut out)?;
    Ok(out)
}

fn flatten(
    name: &str,
    prefix: &str,
    table: &toml::Table,
    out: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    for (key, value) in table {
        let key = format!("{prefix}{key}");
        match value {
            toml::Value::String(text) => {
                out.insert(key, text.clone());
            }
            toml::Value::Table(inner) => flatten(name, &format!("{key}."), inner, out)?,
            _ => return Err(format!("{name}: {key}: a message must be a string")),
        }
    }
    Ok(())
}

/// Which plural form a number takes in `language`: 0 one, 1 few (English: other), 2 many.
fn plural_form(language: Lang, n: i64) -> usize {
    let n = n.unsigned_abs();
    match language {
        Lang::Ru => match (n % 10, n % 100) {
            (1, r) if r != 11 => 0,
            (2..=4, r) if !(12..=14).contains(&r) => 1,
            _ => 2,
        },
        _ => usize::from(n != 1),
    }
}

/// `text` with its placeholders filled from `args`; a placeholder without a value stays as
/// it is written.
pub fn fill(language: Lang, text: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push('{');
            rest = after;
            continue;
        }
        if let Some(after) = tail.strip_prefix("}}").or_else(|| tail.strip_prefix('}')) {
            out.push('}');
            rest = after;
            continue;
        }
        let Some(end) = tail.find('}') else {
            out.push_str(tail);
            return out;
        };
        let inside = &tail[1..end];
        let mut parts = inside.split('|');
        let name = parts.next().unwrap_or("").trim();
        let forms: Vec<&str> = parts.collect();
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, value)) if forms.is_empty() => out.push_str(value),
            Some((_, value)) => {
                let form = value
                    .trim()
                    .parse::<i64>()
                    .map(|n| plural_form(language, n))
                    .unwrap_or(forms.len() - 1);
                out.push_str(forms[form.min(forms.len() - 1)]);
            }
            None => out.push_str(&tail[..=end]),
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The placeholder names of a catalog text, in order of first use.
pub fn placeholders(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            rest = after;
            continue;
        }
        let Some(end) = tail.find('}') else { break };
        let name = tail[1..end].split('|').next().unwrap_or("").trim();
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
        rest = &tail[end + 1..];
    }
    names
}

/// The words of one language: renders keys and messages.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    messages: &'a Messages,
    language: Lang,
}

impl<'a> Words<'a> {
    /// The built-in English words, for code that writes English only (the operator's tools).
    pub fn english() -> Words<'static> {
        Messages::built_in().words(Lang::En)
    }

    pub fn language(&self) -> Lang {
        self.language
    }

    /// `key` with `args` filled in.
    pub fn text(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.messages.text(self.language, key, args)
    }

    /// A moment in these words: `Thu 07 Jan 2027 09:10 UTC`.
    pub fn when(&self, when: &When) -> String {
        const ENGLISH: &str = "%a %d %b %Y %H:%M %Z";
        let Some(at) = when.at else {
            return self.text("deadline.none", &[]);
        };
        let zone = when.zone.parse::<chrono_tz::Tz>().ok();
        let local = at.with_timezone(&zone.unwrap_or(chrono_tz::UTC));
        let weekdays = self.text("deadline.weekdays", &[]);
        let day = local.weekday().num_days_from_sunday() as usize;
        let weekday = weekdays.split_whitespace().nth(day).unwrap_or("");
        let mut format = self.text("deadline.format", &[("weekday", weekday)]);
        if zone.is_none() {
            format = format.replace("%Z", "UTC");
        }
        let mut out = String::new();
        if write!(out, "{}", local.format(&format)).is_err() {
            out.clear();
            let _ = write!(out, "{}", local.format(ENGLISH));
        }
        out
    }

    /// A message in these words.
    pub fn message(&self, message: &Message) -> String {
        let values: Vec<(&str, String)> = message
            .args
            .iter()
            .map(|(name, arg)| {
                let value = match arg {
                    Arg::Text(text) => text.clone(),
                    Arg::Message(inner) => self.message(inner),
                    Arg::When(when) => self.when(when),
                    Arg::Each(texts) => texts
                        .iter()
                        .find(|(language, _)| *language == self.language)
                        .or_else(|| texts.iter().find(|(language, _)| *language == Lang::En))
                        .or(texts.first())
                        .map(|(_, text)| text.clone())
                        .unwrap_or_default(),
                };
                (*name, value)
            })
            .collect();
        let args: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        self.text(message.key, &args)
    }
}

/// `tr!(words, "key", name = value, ...)`: the message rendered at once in `words`.
#[macro_export]
macro_rules! tr {
    ($words:expr, $key:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $words.message(&$crate::msg!($key $(, $name = $value)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_and_stay_visible_when_missing() {
        assert_eq!(
            fill(Lang::En, "Game '{game}' has {n}.", &[("game", "pact")]),
            "Game 'pact' has {n}."
        );
        assert_eq!(
            fill(Lang::En, "{{literal}} {a}}", &[("a", "x")]),
            "{literal} x}"
        );
        assert_eq!(fill(Lang::En, "unclosed {a", &[("a", "x")]), "unclosed {a");
        assert_eq!(
            placeholders("{a} {b|x|y} {{c}} {a}"),
            vec!["a".to_string(), "b".to_string()]
        );
    }

    #[test]
    fn plural_forms_by_language() {
        let t = "{n} {n|error was|errors were}";
        assert_eq!(fill(Lang::En, t, &[("n", "1")]), "1 error was");
        assert_eq!(fill(Lang::En, t, &[("n", "2")]), "2 errors were");
        let r = "{n} {n|ошибка|ошибки|ошибок}";
        let ru = |n: &str| fill(Lang::Ru, r, &[("n", n)]);
        assert_eq!(ru("1"), "1 ошибка");
        assert_eq!(ru("3"), "3 ошибки");
        assert_eq!(ru("5"), "5 ошибок");
        assert_eq!(ru("11"), "11 ошибок");
        assert_eq!(ru("21"), "21 ошибка");
        assert_eq!(ru("22"), "22 ошибки");
        assert_eq!(fill(Lang::Ru, r, &[("n", "много")]), "много ошибок");
    }

    #[test]
    fn a_key_missing_in_a_catalog_falls_back_to_english_then_the_key() {
        let mut m = Messages::built_in().clone();
        assert_eq!(m.text(Lang::Ru, "no.such.key", &[]), "no.such.key");
        if let Some(ru) = m.by_language.get_mut(&Lang::Ru) {
            ru.remove("letter.error");
        }
        assert_eq!(
            m.text(Lang::Ru, "letter.error", &[("message", "m")]),
            m.text(Lang::En, "letter.error", &[("message", "m")])
        );
    }
}
