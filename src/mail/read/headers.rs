//! The top-level headers of a message read into the letter: raw 8-bit values repaired in the
//! message's charset, addresses normalised, message ids cleaned, and automatic mail recognised.

use mail_parser::{Addr, Header, HeaderValue, Message, MessageParser, MessagePart};

use super::MARKER_HEADER;
use crate::letter::Address;

/// One line of header text: control characters become spaces, ends trimmed.
fn one_line(text: &str) -> String {
    let line: String = text
        .chars()
        .filter(|&c| c != '\0')
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    line.trim().to_string()
}

/// Reads the top-level headers, repairing raw 8-bit ones in the message's charset.
pub(super) struct HeaderReader<'a, 'm> {
    pub(super) raw: &'a [u8],
    pub(super) root: &'m MessagePart<'m>,
    /// The charset of the text part, else of the message, for raw 8-bit headers.
    pub(super) charset: Option<&'static encoding_rs::Encoding>,
}

impl HeaderReader<'_, '_> {
    fn all<'s>(&'s self, name: &str) -> impl Iterator<Item = &'s Header<'s>> {
        self.root
            .headers
            .iter()
            .filter(move |h| h.name().eq_ignore_ascii_case(name))
    }

    fn first(&self, name: &str) -> Option<&Header<'_>> {
        self.all(name).next()
    }

    fn has(&self, name: &str) -> bool {
        self.first(name).is_some()
    }

    /// The bytes of a header's value as they stand in the message.
    fn raw_bytes(&self, header: &Header<'_>) -> &[u8] {
        let (start, end) = (header.offset_start as usize, header.offset_end as usize);
        self.raw.get(start..end).unwrap_or_default()
    }

    /// A header's raw value unfolded and trimmed, for simple headers such as Precedence.
    fn raw_text(&self, header: &Header<'_>) -> String {
        one_line(&String::from_utf8_lossy(self.raw_bytes(header)))
    }

    /// The header re-read from its raw bytes decoded in the message's charset, when those
    /// bytes are not UTF-8 (old clients send raw KOI8-R or windows-1251 subjects).
    fn repaired(&self, header: &Header<'_>) -> Option<Message<'static>> {
        let bytes = self.raw_bytes(header);
        let charset = self.charset.filter(|&c| c != encoding_rs::UTF_8)?;
        if std::str::from_utf8(bytes).is_ok() {
            return None;
        }
        let (decoded, _, _) = charset.decode(bytes);
        let mini = format!("{}: {}\r\n\r\n", header.name(), decoded.trim_end());
        MessageParser::default()
            .parse_headers(mini.as_bytes())
            .map(Message::into_owned)
    }

    pub(super) fn subject(&self) -> String {
        let Some(header) = self.first("Subject") else {
            return String::new();
        };
        let repaired = self.repaired(header);
        match value_of(header, &repaired) {
            Some(HeaderValue::Text(text)) => one_line(text),
            Some(HeaderValue::TextList(list)) => one_line(&list.join(" ")),
            _ => String::new(),
        }
    }

    /// Every mailbox of the first header of that name (groups flattened).
    pub(super) fn addresses(&self, name: &str) -> Vec<Address> {
        let Some(header) = self.first(name) else {
            return Vec::new();
        };
        let repaired = self.repaired(header);
        match value_of(header, &repaired).and_then(HeaderValue::as_address) {
            Some(list) => list.iter().filter_map(to_address).collect(),
            None => Vec::new(),
        }
    }
}

fn to_address(addr: &Addr<'_>) -> Option<Address> {
    let email = normal_email(addr.address()?)?;
    let name = addr
        .name()
        .map(one_line)
        .filter(|n| !n.is_empty() && *n != email);
    Some(Address { email, name })
}

/// Trimmed, without angle brackets, domain lower-cased; `None` if nothing is left.
fn normal_email(text: &str) -> Option<String> {
    let text: String = one_line(text)
        .chars()
        .filter(|c| !matches!(c, '<' | '>'))
        .collect();
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    Some(match text.rsplit_once('@') {
        Some((local, domain)) => format!("{local}@{}", domain.to_lowercase()),
        None => text.to_string(),
    })
}

fn local_part(email: &str) -> &str {
    email.rsplit_once('@').map_or(email, |(local, _)| local)
}

/// A message id without angle brackets, spaces or control characters; `None` if empty.
fn clean_id(text: &str) -> Option<String> {
    let id: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control() && !matches!(c, '<' | '>'))
        .collect();
    (!id.is_empty()).then_some(id)
}

pub(super) fn message_id(root: &MessagePart<'_>, raw: &[u8]) -> String {
    root.headers
        .iter()
        .find(|h| h.name().eq_ignore_ascii_case("Message-ID"))
        .and_then(|h| match h.value() {
            HeaderValue::Text(text) => clean_id(text),
            HeaderValue::TextList(list) => list.first().and_then(|t| clean_id(t)),
            _ => None,
        })
        .unwrap_or_else(|| format!("missing-{:016x}@strategos.invalid", fnv1a64(raw)))
}

/// FNV-1a, 64 bits: a stable stand-in Message-ID for a message that has none.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// In-Reply-To ids, then References ids, each once.
pub(super) fn references(root: &MessagePart<'_>) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for name in ["In-Reply-To", "References"] {
        for header in root
            .headers
            .iter()
            .filter(|h| h.name().eq_ignore_ascii_case(name))
        {
            let found: Vec<&str> = match header.value() {
                HeaderValue::Text(text) => vec![text.as_ref()],
                HeaderValue::TextList(list) => list.iter().map(AsRef::as_ref).collect(),
                _ => Vec::new(),
            };
            for id in found.into_iter().filter_map(clean_id) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
    }
    ids
}

/// Why this message is automatic mail that must never be answered, if it is.
pub(super) fn automatic(
    headers: &HeaderReader<'_, '_>,
    from: Option<&Address>,
    own_addresses: &[String],
) -> Option<String> {
    if let Some(from) = from
        && own_addresses
            .iter()
            .any(|own| own.trim().eq_ignore_ascii_case(&from.email))
    {
        return Some("our own letter".to_string());
    }
    if headers.has(MARKER_HEADER) {
        return Some(format!("a judge's letter ({MARKER_HEADER})"));
    }
    let senders = ["From", "Sender", "Return-Path"]
        .into_iter()
        .flat_map(|name| {
            headers
                .all(name)
                .map(|h| headers.raw_text(h))
                .collect::<Vec<_>>()
        });
    for sender in senders {
        let email = sender.rsplit('<').next().unwrap_or_default();
        let local = local_part(email.trim_end_matches('>').trim());
        for robot in ["mailer-daemon", "postmaster"] {
            if local.eq_ignore_ascii_case(robot) {
                return Some(format!("from {robot}"));
            }
        }
    }
    if let Some(path) = headers.first("Return-Path") {
        let path = headers.raw_text(path);
        if path.is_empty() || path.replace(' ', "") == "<>" {
            return Some("empty Return-Path (a bounce or report)".to_string());
        }
    }
    if let Some(auto) = headers.first("Auto-Submitted") {
        let value = headers.raw_text(auto);
        let kind = value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        if kind != "no" {
            return Some(format!("Auto-Submitted: {kind}"));
        }
    }
    if let Some(precedence) = headers.first("Precedence") {
        let value = headers.raw_text(precedence).to_ascii_lowercase();
        if matches!(value.as_str(), "bulk" | "junk" | "list") {
            return Some(format!("Precedence: {value}"));
        }
    }
    ["List-Id", "List-Unsubscribe"]
        .into_iter()
        .find(|name| headers.has(name))
        .map(|name| format!("mailing list ({name})"))
}

/// A header's value: from its repaired reading when there is one, else as parsed.
fn value_of<'a>(
    header: &'a Header<'a>,
    repaired: &'a Option<Message<'a>>,
) -> Option<&'a HeaderValue<'a>> {
    match repaired {
        Some(message) => message
            .parts
            .first()
            .and_then(|p| p.headers.first())
            .map(Header::value),
        None => Some(header.value()),
    }
}
