//! Reading a raw message into an `IncomingLetter`: headers decoded, the text found and made
//! plain, and automatic mail (bounces, lists, robots, other judges) recognised so it is never answered.
//!
//! mail-parser does the MIME work; this module picks the text, repairs raw 8-bit headers that
//! mail-parser reads as UTF-8, and never panics on any bytes.

mod headers;
mod html;

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mail_parser::decoders::charsets::map::charset_decoder;
use mail_parser::{Message, MessageParser, MessagePart, PartType};

use crate::letter::IncomingLetter;
use headers::{HeaderReader, automatic, message_id, references};

/// Messages with more `multipart/*` or `message/*` parts than this are refused before parsing:
/// mail-parser keeps nested messages as nested values, and dropping thousands of them
/// recurses as deep. Real letters have a handful.
pub const MAX_NESTED_PARTS: usize = 200;

/// The judge's own marker header, put on every letter it sends.
pub const MARKER_HEADER: &str = "X-Strategos-Judge";

/// Why a message could not be read at all. Missing headers are not a reason: they are `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub reason: String,
}

impl Unreadable {
    fn new(reason: impl Into<String>) -> Unreadable {
        Unreadable {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unreadable message: {}", self.reason)
    }
}

impl std::error::Error for Unreadable {}

/// The reason given if reading panicked after all (a bug in this module or in mail-parser).
pub const READER_FAILED: &str = "the reader failed on this message";

/// Reads a raw RFC 5322 message. `own_addresses` are the judge's addresses: mail from them
/// is marked automatic so the judge never answers itself.
///
/// Returns `Unreadable` only when nothing usable can be got: empty input, no header at all,
/// or MIME nested deeper than [`MAX_NESTED_PARTS`].
pub fn read_letter(raw: &[u8], own_addresses: &[String]) -> Result<IncomingLetter, Unreadable> {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(Unreadable::new("the message is empty"));
    }
    if nested_parts(raw) > MAX_NESTED_PARTS {
        return Err(Unreadable::new(format!(
            "too deeply nested: more than {MAX_NESTED_PARTS} multipart or message parts"
        )));
    }
    // mail-parser promises not to panic, but has debug assertions and index arithmetic that
    // hostile MIME can trip; a panic must not take the daemon down. The second try reads the
    // headers only and takes the text after them as it stands.
    catch_unwind(AssertUnwindSafe(|| {
        read_parsed(raw, own_addresses, Structure::Mime)
    }))
    .or_else(|_| {
        catch_unwind(AssertUnwindSafe(|| {
            read_parsed(raw, own_addresses, Structure::Flat)
        }))
    })
    .unwrap_or_else(|_| Err(Unreadable::new(READER_FAILED)))
}

/// How far the message is taken apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Structure {
    /// MIME parts decoded, the text part chosen.
    Mime,
    /// Headers only; the body is everything after them, undecoded.
    Flat,
}

fn read_parsed(
    raw: &[u8],
    own_addresses: &[String],
    structure: Structure,
) -> Result<IncomingLetter, Unreadable> {
    let not_mail = || Unreadable::new("not a mail message: no header found");
    let parser = MessageParser::default();
    let parsed = match structure {
        Structure::Mime => parser.parse(raw),
        Structure::Flat => parser.parse_headers(raw),
    };
    let message = parsed.ok_or_else(not_mail)?;
    let root = message.parts.first().ok_or_else(not_mail)?;
    if !root.headers.iter().any(|h| is_field_name(h.name())) {
        return Err(not_mail());
    }
    let mut warnings = Vec::new();
    let (body, body_charset) = match structure {
        Structure::Mime => mime_text(&message, &mut warnings),
        Structure::Flat => flat_text(raw, root, &mut warnings),
    };
    if body.trim().is_empty() {
        warnings.push("the message has no text (nothing, or only attachments)".to_string());
    }
    let charset = body_charset
        .or_else(|| content_charset(root))
        .and_then(|label| encoding_rs::Encoding::for_label(label.trim().as_bytes()));
    let headers = HeaderReader { raw, root, charset };

    let (from, refused_from) = match headers.sender() {
        Ok(from) => (from, None),
        Err(written) => (None, Some(written)),
    };
    let letter = IncomingLetter {
        message_id: message_id(root, raw),
        reply_to: headers.addresses("Reply-To").into_iter().next(),
        to: headers.addresses("To"),
        subject: headers.subject(),
        body,
        automatic: automatic(&headers, from.as_ref(), own_addresses),
        references: references(root),
        size: raw.len(),
        warnings,
        from,
        refused_from,
    };
    Ok(letter)
}

/// The body from the MIME parts, and the charset of the part it came from.
fn mime_text(message: &Message<'_>, warnings: &mut Vec<String>) -> (String, Option<String>) {
    let Some(found) = find_text(message) else {
        return (String::new(), None);
    };
    check_charset(&found, warnings);
    if found.part.is_encoding_problem {
        warnings.push(
            "part of the message could not be decoded (its base64 or quoted-printable is \
             broken); it was read as it stood"
                .to_string(),
        );
    }
    (clean_body(&found.text), found.charset)
}

/// The body as everything after the header block, in the Content-Type charset or UTF-8.
fn flat_text(
    raw: &[u8],
    root: &MessagePart<'_>,
    warnings: &mut Vec<String>,
) -> (String, Option<String>) {
    warnings.push(
        "the message's MIME structure could not be read; its text was taken as it stood"
            .to_string(),
    );
    let start = [&b"\r\n\r\n"[..], b"\n\n"]
        .iter()
        .filter_map(|end| {
            raw.windows(end.len())
                .position(|w| w == *end)
                .map(|at| at + end.len())
        })
        .min()
        .unwrap_or(raw.len());
    let bytes = raw.get(start..).unwrap_or_default();
    let charset = content_charset(root);
    let encoding = charset
        .as_deref()
        .and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    let (text, _, _) = encoding.decode(bytes);
    (clean_body(&text), charset)
}

/// The text part chosen as the body.
struct FoundText<'m> {
    part: &'m MessagePart<'m>,
    text: String,
    /// The part's declared charset, if any.
    charset: Option<String>,
}

/// The first text/plain part that is not an attachment, else the first HTML part made text.
fn find_text<'m>(message: &'m Message<'m>) -> Option<FoundText<'m>> {
    let part_at = |id: &u32| message.parts.get(*id as usize);
    let found = |part: &'m MessagePart<'m>, text: String| FoundText {
        part,
        text,
        charset: content_charset(part),
    };
    let plain = message
        .text_body
        .iter()
        .filter_map(part_at)
        .find_map(|part| match &part.body {
            PartType::Text(text) if !is_attachment(part) => Some(found(part, text.to_string())),
            _ => None,
        });
    plain.or_else(|| {
        let html_ids = message.html_body.iter().chain(&message.text_body);
        html_ids
            .filter_map(part_at)
            .find_map(|part| match &part.body {
                PartType::Html(text) if !is_attachment(part) => {
                    Some(found(part, html::html_to_text(text)))
                }
                _ => None,
            })
    })
}

fn is_attachment(part: &MessagePart<'_>) -> bool {
    part.headers.iter().any(|h| {
        h.name().eq_ignore_ascii_case("Content-Disposition")
            && h.value()
                .as_content_type()
                .is_some_and(|d| d.is_attachment())
    })
}

/// The `charset` parameter of a part's Content-Type, if it has one.
fn content_charset(part: &MessagePart<'_>) -> Option<String> {
    part.headers
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("Content-Type"))
        .find_map(|h| h.value().as_content_type()?.attribute("charset"))
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
}

fn check_charset(found: &FoundText<'_>, warnings: &mut Vec<String>) {
    let label = found.charset.as_deref().unwrap_or("utf-8");
    let is_utf8 = encoding_rs::Encoding::for_label(label.as_bytes()) == Some(encoding_rs::UTF_8);
    if !is_utf8 && charset_decoder(label.as_bytes()).is_none() {
        let shown: String = label.chars().filter(|c| !c.is_control()).take(40).collect();
        warnings.push(format!(
            "the message's charset '{shown}' is unknown; it was read as UTF-8"
        ));
    } else if found.text.contains('\u{FFFD}') {
        warnings.push(format!(
            "some characters of the message could not be read in its charset ({label}); \
             they show as \u{FFFD}"
        ));
    }
}

/// Line ends made `\n`; NULs and other control characters except tab dropped; no leading BOM.
fn clean_body(text: &str) -> String {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut body = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    body.push('\n');
                }
            }
            '\n' | '\t' => body.push(c),
            c if c.is_control() => {}
            c => body.push(c),
        }
    }
    body
}

/// RFC 5322 field name: printable ASCII except colon.
fn is_field_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| (33..=126).contains(&b) && b != b':')
}

/// How many `Content-Type: multipart/...` or `message/...` header lines the raw bytes hold.
fn nested_parts(raw: &[u8]) -> usize {
    const FIELD: &[u8] = b"content-type:";
    let mut count = 0;
    let mut line_start = 0;
    while line_start < raw.len() {
        let line_end = raw[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(raw.len(), |at| line_start + at);
        let line = &raw[line_start..line_end];
        if line.len() >= FIELD.len() && line[..FIELD.len()].eq_ignore_ascii_case(FIELD) {
            let rest = &raw[line_start + FIELD.len()..];
            let skip = rest.iter().take_while(|b| b" \t\r\n".contains(b)).count();
            let value = &rest[skip..];
            if starts_with_ignore_case(value, b"multipart")
                || starts_with_ignore_case(value, b"message")
            {
                count += 1;
            }
        }
        line_start = line_end + 1;
    }
    count
}

fn starts_with_ignore_case(text: &[u8], prefix: &[u8]) -> bool {
    text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}
