//! HTML for the archive site: escaping every text that came from players or reports, and
//! the frame every page shares (one inline style sheet, no scripts, no outside files).

/// `text` safe inside HTML elements and quoted attribute values.
pub fn escape(text: &str) -> String {
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

/// The text `escape` wrote: its five entities back to characters, in one pass from left to
/// right, so `&amp;lt;` gives `&lt;`. Other entities are left as they are; `escape` writes none.
pub fn unescape(html: &str) -> String {
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

/// The style of every page: readable text, framed tables and reports.
const STYLE: &str = "body { font-family: Georgia, serif; max-width: 52em; margin: 1em auto; \
padding: 0 1em; color: #222; background: #fdfdf8; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }
td.count { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f3f1e8; border: 1px solid #ddd; padding: 0.6em; overflow-x: auto; \
white-space: pre-wrap; }
.when, .note { color: #666; font-size: 0.9em; }
svg { display: block; margin: 0.5em 0; }
";

/// A whole page: `title` is plain text (escaped here), `body` is HTML already.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_are_escaped() {
        assert_eq!(
            escape("<b>\"Tom\" & 'Jerry'</b>"),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(escape("Spring 1901 – Fall"), "Spring 1901 – Fall");
    }

    #[test]
    fn unescape_reverses_escape() {
        for text in [
            "<b>\"Tom\" & 'Jerry'</b>",
            "&lt; written",
            "a & b &amp",
            "Вена",
        ] {
            assert_eq!(unescape(&escape(text)), text);
        }
        assert_eq!(unescape("&nbsp;&"), "&nbsp;&");
    }

    #[test]
    fn the_title_is_escaped_in_the_frame() {
        let html = page("a <i>game</i>", "<p>x</p>\n");
        assert!(html.contains("<title>a &lt;i&gt;game&lt;/i&gt;</title>"));
        assert!(html.contains("<p>x</p>"));
        assert!(!html.contains("<script"));
    }
}
