//! What is kept of a raw letter once it is settled: raw letters hold passwords, so a letter
//! handled (or deliberately ignored) keeps its header block and, instead of its body, the
//! commands read from it as the judge echoes them (passwords as `******`); a quarantined
//! letter, which could not be read, keeps its header block only once its retention is over.
//!
//! Pure: bytes in, bytes out.

use crate::text::command::{parse_commands, render};

/// The first line of a redacted letter's body.
pub const REDACTED_NOTE: &str = "[The body of this letter was removed once it was handled. \
                                 Its commands as read, passwords hidden:]";

/// The header block of a raw message, without the blank line that ends it (the whole
/// message if no blank line does), and the line end it uses.
fn header_block(raw: &[u8]) -> (&[u8], &'static str) {
    let crlf = raw.windows(4).position(|w| w == b"\r\n\r\n");
    let lf = raw.windows(2).position(|w| w == b"\n\n");
    match (crlf, lf) {
        (Some(c), Some(l)) if l < c + 1 => (&raw[..l + 1], "\n"),
        (Some(c), _) => (&raw[..c + 2], "\r\n"),
        (None, Some(l)) => (&raw[..l + 1], "\n"),
        (None, None) => {
            let ending = if raw.windows(2).any(|w| w == b"\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            (raw, ending)
        }
    }
}

/// The message with its header block as it came, a blank line, and `body` (lines joined
/// with the header block's own line end).
fn with_body(raw: &[u8], body: &[String]) -> Vec<u8> {
    let (headers, ending) = header_block(raw);
    let mut out = headers.to_vec();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.extend_from_slice(ending.as_bytes());
    }
    out.extend_from_slice(ending.as_bytes());
    for line in body {
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(ending.as_bytes());
    }
    out
}

/// A handled letter as it is kept: its header block unchanged, then [`REDACTED_NOTE`] and
/// the commands read from `body` (the letter's text as read), each as `render` echoes it.
pub fn redacted(raw: &[u8], body: &str) -> Vec<u8> {
    let (commands, _) = parse_commands(body);
    let mut lines = vec![REDACTED_NOTE.to_string()];
    lines.extend(
        commands
            .iter()
            .flat_map(|c| render(c).lines().map(str::to_string).collect::<Vec<_>>()),
    );
    with_body(raw, &lines)
}

/// A quarantined letter past its retention: its header block only.
pub fn purged(raw: &[u8]) -> Vec<u8> {
    with_body(raw, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redacted_letter_keeps_its_headers_and_hides_its_passwords() {
        let raw = b"From: ann@example.test\r\nSubject: orders\r\n\r\nSIGNON Fgame s3cret\r\nA Par - Bur\r\nSET PASSWORD n3w\r\n";
        let body = "SIGNON Fgame s3cret\nA Par - Bur\nSET PASSWORD n3w\n";
        let kept = String::from_utf8(redacted(raw, body)).unwrap();
        assert_eq!(
            kept,
            format!(
                "From: ann@example.test\r\nSubject: orders\r\n\r\n{REDACTED_NOTE}\r\n\
                 SIGNON Fgame ******\r\nA Par - Bur\r\nSET PASSWORD ******\r\n"
            )
        );
        assert!(!kept.contains("s3cret") && !kept.contains("n3w"));
    }

    #[test]
    fn line_ends_and_missing_bodies_are_kept_as_they_were() {
        let lf = redacted(b"From: a@x.test\n\nHELP\n", "HELP\n");
        assert_eq!(
            lf,
            format!("From: a@x.test\n\n{REDACTED_NOTE}\nHELP\n").as_bytes()
        );
        let no_body = purged(b"From: a@x.test\r\nSubject: s");
        assert_eq!(no_body, b"From: a@x.test\r\nSubject: s\r\n\r\n");
        let purged_letter = purged(b"From: a@x.test\r\n\r\nSIGNON Fg pw\r\n\r\nmore\r\n");
        assert_eq!(purged_letter, b"From: a@x.test\r\n\r\n");
        assert_eq!(purged(b""), b"\n");
    }
}
