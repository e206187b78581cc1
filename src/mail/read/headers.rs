//! The top-level headers of a message read into the letter: raw 8-bit values repaired in the
//! message's charset, addresses normalised, message ids cleaned, and automatic mail recognised.

use mail_parser::{Addr, Header, HeaderValue, Message, MessageParser, MessagePart};

use super::MARKER_HEADER;
use crate::letter::{Address, normal_address};

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

    /// Every usable mailbox of the first header of that name (groups flattened); mailboxes
    /// whose address cannot be used are left out.
    pub(super) fn addresses(&self, name: &str) -> Vec<Address> {
        self.mailboxes(name).into_iter().flatten().collect()
    }

    /// The first mailbox of the From header: `Ok(None)` when there is no From (or it is
    /// empty), `Err(text)` when its first mailbox's address cannot be used (the header as it
    /// stands, on one line).
    pub(super) fn sender(&self) -> Result<Option<Address>, String> {
        let Some(header) = self.first("From") else {
            return Ok(None);
        };
        match self.mailboxes("From").into_iter().next() {
            Some(Some(address)) => Ok(Some(address)),
            Some(None) => Err(self.raw_text(header)),
            None if self.raw_text(header).is_empty() => Ok(None),
            None => Err(self.raw_text(header)),
        }
    }

    /// Each mailbox of the first header of that name, `None` where its address cannot be
    /// used (see `letter::normal_address`).
    ///
    /// mail-parser reads a bare quoted local part (`"ann smith"@q.test`) as a display name
    /// and an address of `@q.test` only, so that every quoted local part of a domain would
    /// be one address; those addresses are read again from the raw header here.
    fn mailboxes(&self, name: &str) -> Vec<Option<Address>> {
        let Some(header) = self.first(name) else {
            return Vec::new();
        };
        let repaired = self.repaired(header);
        let Some(list) = value_of(header, &repaired).and_then(HeaderValue::as_address) else {
            return Vec::new();
        };
        let mut quoted = quoted_addr_specs(&self.raw_text(header)).into_iter();
        list.iter()
            .map(|addr| {
                let found = one_line(addr.address().unwrap_or_default());
                if let Some(domain) = found.strip_prefix('@') {
                    let domain = format!("@{}", domain.to_lowercase());
                    let email = quoted.find(|spec| spec.to_lowercase().ends_with(&domain))?;
                    return Some(Address { email, name: None });
                }
                to_address(addr)
            })
            .collect()
    }
}

fn to_address(addr: &Addr<'_>) -> Option<Address> {
    let email = normal_address(&one_line(addr.address()?))?;
    let name = addr
        .name()
        .map(one_line)
        .filter(|n| !n.is_empty() && *n != email);
    Some(Address { email, name })
}

/// The addr-specs with a quoted local part (`"ann smith"@q.test`) in a raw header value, in
/// order, each normalised (`letter::normal_address`); those that cannot be used are left out.
fn quoted_addr_specs(raw: &str) -> Vec<String> {
    let mut specs = Vec::new();
    let mut rest = raw;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        // The closing quote, skipping quoted pairs.
        let mut end = None;
        let mut escaped = false;
        for (at, c) in after.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(at);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            break;
        };
        let tail = &after[end + 1..];
        if let Some(domain) = tail.strip_prefix('@') {
            let domain_len = domain
                .find(|c: char| c.is_whitespace() || ",;<>()\"".contains(c))
                .unwrap_or(domain.len());
            let spec = format!("\"{}\"@{}", &after[..end], &domain[..domain_len]);
            specs.extend(normal_address(&spec));
        }
        rest = tail;
    }
    specs
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
    if let Some(report) = report_type(headers) {
        return Some(report);
    }
    // `Precedence` is not standard (RFC 2076 mentions it) but widely sent: bulk, junk and
    // list by lists and mass mail; auto_reply by cPanel's and BoxTrapper's responders, which
    // also send `X-Precedence: auto_reply` (multi_mail's "Detecting autoresponders" wiki).
    for name in ["Precedence", "X-Precedence"] {
        if let Some(precedence) = headers.first(name) {
            let value = headers.raw_text(precedence).to_ascii_lowercase();
            if matches!(value.as_str(), "bulk" | "junk" | "list" | "auto_reply") {
                return Some(format!("{name}: {value}"));
            }
        }
    }
    if let Some(reason) = responder_header(headers) {
        return Some(reason);
    }
    ["List-Id", "List-Unsubscribe"]
        .into_iter()
        .find(|name| headers.has(name))
        .map(|name| format!("mailing list ({name})"))
}

/// A report is automatic mail whoever sends it: delivery status notifications (RFC 3464,
/// RFC 6533), read receipts (message disposition notifications, RFC 8098) and abuse reports
/// (ARF, RFC 5965) come as a top-level `multipart/report` (RFC 6522), whatever its
/// report-type, or, more rarely, as the bare report itself. Answering one would answer a
/// mail system, or reflect a forged report at whoever it names.
fn report_type(headers: &HeaderReader<'_, '_>) -> Option<String> {
    let header = headers.first("Content-Type")?;
    let content_type = header.value().as_content_type()?;
    let main = content_type.ctype().to_ascii_lowercase();
    let sub = content_type
        .subtype()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let report = match (main.as_str(), sub.as_str()) {
        ("multipart", "report") => true,
        ("message", sub) => matches!(
            sub,
            "delivery-status"
                | "global-delivery-status"
                | "disposition-notification"
                | "global-disposition-notification"
                | "feedback-report"
        ),
        _ => false,
    };
    if !report {
        return None;
    }
    let kind = content_type
        .attribute("report-type")
        .map(|t| format!("; report-type={}", one_line(t).to_ascii_lowercase()))
        .unwrap_or_default();
    Some(format!("a report ({main}/{sub}{kind})"))
}

/// The headers responders send besides (or instead of) `Auto-Submitted`. Each is named with
/// where it is documented or seen; a value is matched whole, without case.
const RESPONDER_HEADERS: &[(&str, Option<&[&str]>)] = &[
    // Gmail's vacation responder (with Auto-Submitted), Yandex and many others: `yes`
    // (multi_mail wiki "Detecting autoresponders"; arp242.net "How to detect automatically
    // generated emails").
    ("X-Autoreply", None),
    // cPanel's and BoxTrapper's responders (multi_mail wiki).
    ("X-Autorespond", None),
    // Domain Technologie Control (multi_mail wiki).
    ("X-AutoReply-From", None),
    ("X-Mail-Autoreply", None),
    // Amazon's responders (ezmlm-weed(1), which drops responders' mail).
    ("X-Amazon-Auto-Reply", None),
    // CommuniGate Pro marks its automatic replies `Reply` (Forward, Redirect and Mirror mark
    // a person's letter passed on by a rule, which is still that person's).
    ("X-Autogenerated", Some(&["reply"])),
    // FirstClass (multi_mail wiki).
    ("X-FC-MachineGenerated", Some(&["true"])),
    // qmail's autoresponder (multi_mail wiki).
    ("Delivered-To", Some(&["autoresponder"])),
];

/// Why the letter is a responder's, by the headers responders send.
fn responder_header(headers: &HeaderReader<'_, '_>) -> Option<String> {
    for (name, values) in RESPONDER_HEADERS {
        for header in headers.all(name) {
            let value = headers.raw_text(header);
            let matches = match values {
                None => !value.eq_ignore_ascii_case("no"),
                Some(values) => values.iter().any(|v| value.eq_ignore_ascii_case(v)),
            };
            if matches {
                return Some(format!("{name}: {value}"));
            }
        }
    }
    // Microsoft Exchange and Outlook ([MS-OXCMAIL] 2.1.3.2.20): the responses a letter
    // asks not to get; out-of-office replies, delivery reports and other automatic mail
    // ask for none (`All`) or no automatic replies (`AutoReply`) or no delivery reports
    // (`DR`), which a person's letter does not (arp242.net, from 100,000 letters).
    // `RN, NRN` (no read receipts) and `OOF` alone are left to a person.
    if let Some(header) = headers.first("X-Auto-Response-Suppress") {
        let value = headers.raw_text(header);
        let automatic = value.split(',').map(str::trim).any(|v| {
            ["all", "autoreply", "dr"]
                .iter()
                .any(|w| v.eq_ignore_ascii_case(w))
        });
        if automatic {
            return Some(format!("X-Auto-Response-Suppress: {value}"));
        }
    }
    // Mailtraq: `X-POST-MessageClass: 9; Autoresponder` (multi_mail wiki).
    if let Some(header) = headers.first("X-POST-MessageClass") {
        let value = headers.raw_text(header);
        if value.to_ascii_lowercase().contains("autoresponder") {
            return Some(format!("X-POST-MessageClass: {value}"));
        }
    }
    None
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
