//! HTML made plain text, for letters that come only as HTML: scripts, styles, titles and
//! comments dropped, `<br>` and block elements made line breaks, tags stripped, entities decoded.
//! What a reply reproduces stays marked as quoted: the lines of a `<blockquote>` begin with
//! `>` (one a level), and so does everything from the first of the mail clients' own
//! containers of a reproduced original on (`QUOTED_CONTAINERS`), so that the letter's reader
//! takes none of it as the sender's words (`text/command/reply.rs`).
//!
//! A single linear pass with no nesting kept beyond a `<pre>` depth: it needs no valid HTML and
//! cannot be made slow or deep by hostile input.

/// Elements whose whole content is dropped, up to their closing tag.
const DROPPED: [&str; 4] = ["script", "style", "title", "template"];

/// Elements that start and end a line.
const BLOCKS: [&str; 27] = [
    "p",
    "div",
    "li",
    "tr",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "blockquote",
    "pre",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "header",
    "footer",
    "address",
];

/// Marks in the `class` or `id` of the element (a `<div>`, or Outlook's `<hr>`) with which a
/// mail client begins the original it reproduces below a reply or forward, lower-case:
/// Gmail (`gmail_quote`), Yahoo (`yahoo_quoted`), Outlook on the web and the new Outlook
/// (`divRplyFwdMsg`, `appendonsend`, `stopSpelling`, the reference-message containers),
/// Outlook desktop (`OutlookMessageHeader`), Thunderbird (`moz-cite-prefix`,
/// `moz-forward-container`), Proton Mail (`protonmail_quote`), Zoho (`zmail_extra`).
const QUOTED_CONTAINERS: [&str; 11] = [
    "gmail_quote",
    "yahoo_quoted",
    "divrplyfwdmsg",
    "appendonsend",
    "stopspelling",
    "reference-message",
    "outlookmessageheader",
    "moz-cite-prefix",
    "moz-forward-container",
    "protonmail_quote",
    "zmail_extra",
];

/// Whether the tag `tag` (its whole text, lower-case) opens a client's container of a
/// reproduced original.
fn opens_quoted_container(name: &str, tag: &str) -> bool {
    matches!(name, "div" | "hr" | "blockquote" | "table" | "span")
        && QUOTED_CONTAINERS.iter().any(|mark| tag.contains(mark))
}

/// The plain text of an HTML document or fragment.
pub fn html_to_text(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let bytes = html.as_bytes();
    let mut out = Text::default();
    let mut pos = 0;
    while pos < html.len() {
        let rest = &html[pos..];
        match rest.find(['<', '&']) {
            None => {
                out.text(rest);
                break;
            }
            Some(0) => {}
            Some(at) => {
                out.text(&rest[..at]);
                pos += at;
                continue;
            }
        }
        if bytes[pos] == b'&' {
            let (decoded, len) = entity(rest);
            match decoded {
                Decoded::Nbsp => out.hard(" "),
                Decoded::Text(text) => out.text(&text),
            }
            pos += len;
            continue;
        }
        if lower[pos..].starts_with("<!--") {
            pos = lower[pos + 4..]
                .find("-->")
                .map_or(html.len(), |at| pos + 4 + at + 3);
            continue;
        }
        let closing = bytes.get(pos + 1) == Some(&b'/');
        let name_start = pos + 1 + usize::from(closing);
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let is_declaration = matches!(bytes.get(pos + 1), Some(b'!' | b'?'));
        // A tag name starts with a letter: `<3` and `< 6` are text.
        let starts_tag = bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic);
        if !starts_tag && !is_declaration {
            out.text("<");
            pos += 1;
            continue;
        }
        let name = &lower[name_start..name_start + name_len];
        let tag_start = pos;
        pos = tag_end(bytes, pos);
        if is_declaration {
            continue;
        }
        if !closing && opens_quoted_container(name, &lower[tag_start..pos]) {
            out.line_break();
            out.rest_quoted = true;
        }
        if !closing && DROPPED.contains(&name) {
            pos = match lower[pos..].find(&format!("</{name}")) {
                Some(at) => tag_end(bytes, pos + at),
                None => html.len(),
            };
        } else if name == "br" {
            out.hard("\n");
        } else if BLOCKS.contains(&name) {
            out.line_break();
            if name == "blockquote" {
                out.quote = if closing {
                    out.quote.saturating_sub(1)
                } else {
                    out.quote.saturating_add(1)
                };
            }
            if name == "pre" {
                out.pre = if closing {
                    out.pre.saturating_sub(1)
                } else {
                    out.pre + 1
                };
            }
        } else if matches!(name, "td" | "th") {
            out.text(" ");
        }
    }
    out.finish()
}

/// The index just after the `>` closing the tag that starts at `start`, quotes respected.
fn tag_end(bytes: &[u8], start: usize) -> usize {
    let mut quote = None;
    for (at, &b) in bytes.iter().enumerate().skip(start + 1) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return at + 1,
            None => {}
        }
    }
    bytes.len()
}

enum Decoded {
    /// A non-breaking space: a space that is never collapsed.
    Nbsp,
    Text(String),
}

/// The entity at the start of `text` (which starts with `&`) and its length; a lone `&` if
/// it is none we know.
fn entity(text: &str) -> (Decoded, usize) {
    let literal = (Decoded::Text("&".to_string()), 1);
    let Some(end) = text.bytes().take(12).position(|b| b == b';') else {
        return literal;
    };
    let name = &text[1..end];
    let (digits, radix) = match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
        Some(hex) => (Some(hex), 16),
        None => (name.strip_prefix('#'), 10),
    };
    let decoded = match digits {
        Some(digits) => {
            if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
                return literal;
            }
            // Too many digits overflow: that is no character either.
            let c = u32::from_str_radix(digits, radix)
                .ok()
                .filter(|&c| c != 0)
                .and_then(char::from_u32)
                .unwrap_or('\u{FFFD}');
            if c == '\u{A0}' {
                Decoded::Nbsp
            } else {
                Decoded::Text(c.to_string())
            }
        }
        None if name == "nbsp" => Decoded::Nbsp,
        None => match named(name) {
            Some(text) => Decoded::Text(text.to_string()),
            None => return literal,
        },
    };
    (decoded, end + 1)
}

/// The common named entities (names are case-sensitive).
fn named(name: &str) -> Option<&'static str> {
    Some(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "ensp" | "emsp" | "thinsp" => " ",
        "shy" | "zwnj" | "zwj" => "",
        "ndash" => "–",
        "mdash" => "—",
        "laquo" => "«",
        "raquo" => "»",
        "lsquo" => "‘",
        "rsquo" => "’",
        "sbquo" => "‚",
        "ldquo" => "“",
        "rdquo" => "”",
        "bdquo" => "„",
        "hellip" => "…",
        "bull" => "•",
        "middot" => "·",
        "copy" => "©",
        "reg" => "®",
        "trade" => "™",
        "deg" => "°",
        "times" => "×",
        "divide" => "÷",
        "plusmn" => "±",
        "sect" => "§",
        "para" => "¶",
        "euro" => "€",
        "pound" => "£",
        "cent" => "¢",
        "frac12" => "½",
        "aacute" => "á",
        "agrave" => "à",
        "acirc" => "â",
        "auml" => "ä",
        "Auml" => "Ä",
        "ccedil" => "ç",
        "Ccedil" => "Ç",
        "eacute" => "é",
        "Eacute" => "É",
        "egrave" => "è",
        "ecirc" => "ê",
        "iacute" => "í",
        "ntilde" => "ñ",
        "oacute" => "ó",
        "ouml" => "ö",
        "Ouml" => "Ö",
        "uacute" => "ú",
        "uuml" => "ü",
        "Uuml" => "Ü",
        "szlig" => "ß",
        _ => return None,
    })
}

/// Quote levels marked at most (`>` a level): deeper blockquotes are marked as this deep.
const MOST_QUOTE_LEVELS: usize = 8;

/// The text being written: whitespace collapsed outside `<pre>`.
#[derive(Default)]
struct Text {
    out: String,
    /// How many `<pre>` elements are open.
    pre: usize,
    /// How many `<blockquote>` elements are open.
    quote: usize,
    /// A client's container of a reproduced original was opened: all that follows is quoted.
    rest_quoted: bool,
}

impl Text {
    /// Source text: outside `<pre>`, runs of whitespace become one space, none at a line start.
    fn text(&mut self, text: &str) {
        for c in text.chars() {
            if self.pre > 0 {
                if c != '\n' {
                    self.mark_line();
                }
                self.out.push(c);
            } else if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
                if !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
                    self.out.push(' ');
                }
            } else {
                self.mark_line();
                self.out.push(c);
            }
        }
    }

    /// Text that is never collapsed (`<br>`, `&nbsp;`).
    fn hard(&mut self, text: &str) {
        if text == "\n" {
            self.trim_spaces();
        } else {
            self.mark_line();
        }
        self.out.push_str(text);
    }

    /// At the start of a line inside a quote, the quote's marks (`> `, `> > `...).
    fn mark_line(&mut self) {
        let levels = (self.quote + usize::from(self.rest_quoted)).min(MOST_QUOTE_LEVELS);
        if levels > 0 && (self.out.is_empty() || self.out.ends_with('\n')) {
            for _ in 0..levels {
                self.out.push_str("> ");
            }
        }
    }

    /// A line break unless at the start of a line already.
    fn line_break(&mut self) {
        self.trim_spaces();
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn trim_spaces(&mut self) {
        let kept = self.out.trim_end_matches(' ').len();
        self.out.truncate(kept);
    }

    /// Lines without trailing spaces, at most one blank line in a row, none at either end.
    fn finish(self) -> String {
        let mut text = String::with_capacity(self.out.len());
        let mut blank = 0;
        for line in self.out.lines().map(str::trim_end) {
            if line.is_empty() {
                blank += 1;
                continue;
            }
            if !text.is_empty() {
                text.push_str(if blank > 0 { "\n\n" } else { "\n" });
            }
            blank = 0;
            text.push_str(line);
        }
        text
    }
}
