//! How a value is written into each kind of file the templates make, chosen by the file's
//! name: HTML escaped in pages (`.html`), XML escaped in feeds (`.atom`), iCalendar text
//! escaped in calendars (`.ics`), as it is in letters (`.txt`). The template engine applies
//! it to every `{{ value }}` (auto-escaping); the words of a template itself are written as
//! they stand, so a template says what it means in its own file's syntax.

use std::borrow::Cow;

use minijinja::{AutoEscape, Error, Output, State, Value};

/// The escaping a template gets from its name.
pub fn escaping_for(name: &str) -> AutoEscape {
    match name.rsplit('.').next() {
        Some("html") => AutoEscape::Custom(Cow::Borrowed("html")),
        Some("atom" | "xml") => AutoEscape::Custom(Cow::Borrowed("xml")),
        Some("ics") => AutoEscape::Custom(Cow::Borrowed("ics")),
        _ => AutoEscape::None,
    }
}

/// Writes `value` into a template's output, escaped as the template's file needs
/// (`escaping_for`); a value marked safe is written as it is.
pub fn formatter(out: &mut Output, state: &mut State, value: &Value) -> Result<(), Error> {
    let AutoEscape::Custom(kind) = state.auto_escape() else {
        return minijinja::escape_formatter(out, state, value);
    };
    if value.is_safe() {
        return minijinja::escape_formatter(out, state, value);
    }
    let text = value.to_string();
    let escaped = match kind.as_ref() {
        "html" => html(&text),
        "xml" => xml(&text),
        "ics" => ics_text(&text),
        other => {
            return Err(Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("no escaping is known for {other}"),
            ));
        }
    };
    out.write_str(&escaped).map_err(Error::from)
}

/// `text` safe inside HTML elements and quoted attribute values.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The text `html` wrote: its five entities back to characters, in one pass from left to
/// right, so `&amp;lt;` gives `&lt;`. Other entities are left as they are; `html` writes none.
pub fn unescape_html(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let entity = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#39;", '\''),
        ]
        .into_iter()
        .find(|(name, _)| rest.starts_with(name));
        match entity {
            Some((name, c)) => {
                out.push(c);
                rest = &rest[name.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// XML text: the five characters XML reserves escaped, and control characters (which XML
/// 1.0 cannot hold) left out.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// An iCalendar text value (RFC 5545, 3.3.11): backslash, comma, semicolon and line breaks
/// escaped, carriage returns left out.
pub fn ics_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ',' => out.push_str("\\,"),
            ';' => out.push_str("\\;"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// An iCalendar file as written out: each line of `text` folded at 75 octets
/// (continuations start with a space) and ended by CRLF.
pub fn ics_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    for content in text.lines() {
        let mut width = 0;
        for c in content.chars() {
            if width + c.len_utf8() > 75 {
                out.push_str("\r\n ");
                width = 1;
            }
            out.push(c);
            width += c.len_utf8();
        }
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_are_escaped() {
        assert_eq!(
            html("<b>\"Tom\" & 'Jerry'</b>"),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(html("Spring 1901 – Fall"), "Spring 1901 – Fall");
        assert_eq!(
            xml("<a href='x'>\u{7}&\n"),
            "&lt;a href=&apos;x&apos;&gt;&amp;\n"
        );
        assert_eq!(ics_text("a, b; c\\d\r\ne"), "a\\, b\\; c\\\\d\\ne");
    }

    #[test]
    fn unescape_reverses_escape() {
        for text in [
            "<b>\"Tom\" & 'Jerry'</b>",
            "&lt; written",
            "a & b &amp",
            "Вена",
        ] {
            assert_eq!(unescape_html(&html(text)), text);
        }
        assert_eq!(unescape_html("&nbsp;&"), "&nbsp;&");
    }

    #[test]
    fn calendar_lines_are_folded_at_75_octets() {
        let long = format!("SUMMARY:{}", "é".repeat(50));
        let out = ics_lines(&format!("BEGIN:VEVENT\n{long}\n"));
        assert!(out.starts_with("BEGIN:VEVENT\r\nSUMMARY:"));
        assert!(out.split("\r\n").all(|l| l.len() <= 75), "{out}");
        assert_eq!(
            out.replace("\r\n ", ""),
            format!("BEGIN:VEVENT\r\n{long}\r\n")
        );
    }
}
