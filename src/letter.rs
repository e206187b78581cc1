//! Letters: plain mail data shared by the edges (mail in and out) and the game master.
//!
//! An `IncomingLetter` is a message already read (decoded, text extracted); an
//! `OutgoingLetter` is what the judge wants to send, before it is made into RFC 5322 bytes.
//! Nothing here touches the network or the disk.

use sha2::{Digest, Sha256};

/// A mailbox: an address with an optional display name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// `player1@example.test`, lower-cased domain.
    pub email: String,
    /// `Игрок Один`, if the sender gave one.
    pub name: Option<String>,
}

impl Address {
    pub fn new(email: impl Into<String>) -> Address {
        Address {
            email: email.into(),
            name: None,
        }
    }
}

/// The longest address used (RFC 5321's limit on a path, less its angle brackets).
const LONGEST_ADDRESS: usize = 254;
/// The longest local part (RFC 5321).
const LONGEST_LOCAL_PART: usize = 64;

/// An address as the judge keeps and compares it, or `None` when it cannot be used: see
/// [`normal_address`]; then lower-cased, as the judge compares addresses without case. For
/// addresses written in bodies (SET ADDRESS, ALLOW, EJECT, PROMOTE, WHOIS) and headers alike.
pub fn usable_address(text: &str) -> Option<String> {
    normal_address(text).map(|address| address.to_lowercase())
}

/// An address checked and written one way, the local part's letter case kept, or `None` when
/// it cannot be used as data.
///
/// The text is one addr-spec (`local@domain`), perhaps in angle brackets. The local part is
/// a dot-atom (RFC 5322 atext, and any non-ASCII letter as RFC 6532 allows) or a quoted
/// string; a quoted string that needs no quotes (`"bo"@q.test`) loses them, one that needs
/// them keeps them, written with `\` only before `"` and `\` (`"ann smith"@q.test`). The
/// domain is dot-separated labels, lower-cased. Refused: an address that begins with `-`
/// (a program could read it as an option), one with spaces outside quotes, control
/// characters, commas or angle brackets (even quoted: lists of addresses are split at
/// commas, the outbox's among them), other specials outside quotes, an empty part, domain
/// literals, and anything longer than 254 characters (64 for the local part).
pub fn normal_address(text: &str) -> Option<String> {
    let text = text.trim();
    let text = match text.strip_prefix('<') {
        Some(inner) => inner.strip_suffix('>')?,
        None => text,
    };
    let (local, domain) = if let Some(quoted) = text.strip_prefix('"') {
        let (content, rest) = unquote(quoted)?;
        (local_part_from_quoted(&content)?, rest.strip_prefix('@')?)
    } else {
        let (local, domain) = text.rsplit_once('@')?;
        if !is_dot_atom(local) {
            return None;
        }
        (local.to_string(), domain)
    };
    if !is_domain(domain) || local.chars().count() > LONGEST_LOCAL_PART {
        return None;
    }
    let address = format!("{local}@{}", domain.to_lowercase());
    (!address.starts_with('-') && address.chars().count() <= LONGEST_ADDRESS).then_some(address)
}

/// The content of a quoted string whose opening quote is already taken, and the text after
/// its closing quote; `None` if it is not closed or holds a control character.
fn unquote(text: &str) -> Option<(String, &str)> {
    let mut content = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((content, &text[at + 1..])),
            '\\' => {
                let (_, escaped) = chars.next()?;
                if escaped.is_control() || matches!(escaped, ',' | '<' | '>') {
                    return None;
                }
                content.push(escaped);
            }
            c if c.is_control() || matches!(c, ',' | '<' | '>') => return None,
            c => content.push(c),
        }
    }
    None
}

/// A quoted local part written one way: bare if it is a dot-atom, else quoted again.
fn local_part_from_quoted(content: &str) -> Option<String> {
    if content.is_empty() || content.trim().is_empty() {
        return None;
    }
    if is_dot_atom(content) {
        return Some(content.to_string());
    }
    let escaped: String = content
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    Some(format!("\"{escaped}\""))
}

/// RFC 5322 atext, and non-ASCII letters and signs (RFC 6532).
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || "!#$%&'*+-/=?^_`{|}~".contains(c)
        || (!c.is_ascii() && !c.is_control() && !c.is_whitespace())
}

/// Atoms joined by single dots.
fn is_dot_atom(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(is_atext))
}

/// Dot-separated labels of letters, digits, `-` and `_` (and non-ASCII letters).
fn is_domain(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.chars().all(|c| {
                    c.is_ascii_alphanumeric()
                        || c == '-'
                        || c == '_'
                        || (!c.is_ascii() && !c.is_control() && !c.is_whitespace())
                })
        })
}

/// A message that arrived, read into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncomingLetter {
    /// The Message-ID without angle brackets; one is made up from the content when missing.
    pub message_id: String,
    /// The sender, if the From header names one whose address can be used.
    pub from: Option<Address>,
    /// The From header as written (on one line) when its address cannot be used as an
    /// address (`-oQ/tmp/x@evil.test`, spaces, commas...); `from` is then `None`.
    pub refused_from: Option<String>,
    /// The Reply-To header, if any (answers still go to the registered address).
    pub reply_to: Option<Address>,
    pub to: Vec<Address>,
    /// The decoded subject (may be empty).
    pub subject: String,
    /// The text the commands are read from: text/plain preferred, else HTML made text.
    pub body: String,
    /// Why this is automatic mail that must not be answered (bounce, list, robot), if it is.
    pub automatic: Option<String>,
    /// Message-IDs this one refers to (In-Reply-To then References).
    pub references: Vec<String>,
    /// Size of the raw message in bytes.
    pub size: usize,
    /// Problems met while reading that the answer should mention (unknown charset...).
    pub warnings: Vec<String>,
}

impl IncomingLetter {
    /// The key the letter is stored and deduplicated by: see [`dedup_key`]. The sender is
    /// the From address lower-cased (empty when there is none).
    pub fn dedup_key(&self) -> String {
        let sender = self
            .from
            .as_ref()
            .map(|a| a.email.to_lowercase())
            .unwrap_or_default();
        dedup_key(&self.message_id, &sender, &self.body)
    }
}

/// `<Message-ID>#<16 hex digits>`: the Message-ID as the letter gave it, then the first 8
/// bytes of a SHA-256 over the sender's address, a NUL and the body text. The very same
/// letter delivered again has the same key; a letter reusing another's Message-ID with
/// another sender or body has a key of its own, so a stranger cannot suppress someone's
/// letter by sending first with its Message-ID.
pub fn dedup_key(message_id: &str, sender: &str, body: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(sender.as_bytes());
    hasher.update([0u8]);
    hasher.update(body.as_bytes());
    let digest = hasher.finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{message_id}#{hex}")
}

/// A file sent with a letter: the picture of a board (`map.png`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// The file name the reader sees: `map.png`.
    pub name: String,
    /// Its media type: `image/png`.
    pub media_type: String,
    pub bytes: Vec<u8>,
}

/// A letter the judge wants to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutgoingLetter {
    pub to: Vec<Address>,
    pub subject: String,
    /// Plain text, UTF-8; lines end with `\n`.
    pub body: String,
    /// The Message-ID of the letter this answers, if any.
    pub in_reply_to: Option<String>,
    /// Message-IDs for the References header.
    pub references: Vec<String>,
    /// Files sent with the text (a letter with none is a single text part, as always).
    pub attachments: Vec<Attachment>,
    /// The game the letter is about, by name, if any: its letters are kept in the game's
    /// thread (`References`), so that mail readers keep a game's letters together.
    pub game: Option<String>,
}

impl OutgoingLetter {
    /// The digest identical answers share: 32 hex digits of a SHA-256 over the recipients
    /// (lower-cased) and what the answer says (its body and files), not its subject: a robot
    /// answering answers changes the subject every round (`Out of office: Re: ...`).
    pub fn answer_digest(&self) -> String {
        let mut hasher = Sha256::new();
        for recipient in &self.to {
            hasher.update(recipient.email.to_lowercase().as_bytes());
            hasher.update([0u8]);
        }
        hasher.update([0u8]);
        hasher.update(self.body.as_bytes());
        for attachment in &self.attachments {
            hasher.update([0u8]);
            hasher.update(&attachment.bytes);
        }
        let digest = hasher.finalize();
        digest[..16].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A letter to one address that answers no letter (a report, a notice, an offer).
    pub fn fresh(to: &str, subject: impl Into<String>, body: impl Into<String>) -> OutgoingLetter {
        OutgoingLetter {
            to: vec![Address::new(to)],
            subject: subject.into(),
            body: body.into(),
            in_reply_to: None,
            references: Vec::new(),
            attachments: Vec::new(),
            game: None,
        }
    }

    /// The letter, about game `name` (in its thread).
    pub fn about(mut self, name: &str) -> OutgoingLetter {
        self.game = Some(name.to_string());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_answers_share_a_digest_whatever_their_subjects() {
        let answer = OutgoingLetter::fresh("Ann@Example.test", "Re: Out of office", "No.\n");
        let again = OutgoingLetter::fresh("ann@example.test", "Re: Re: Out of office", "No.\n");
        let grown = OutgoingLetter::fresh("ann@example.test", "Out of office: Re: Away", "No.\n");
        assert_eq!(answer.answer_digest(), again.answer_digest());
        assert_eq!(answer.answer_digest(), grown.answer_digest());
        assert_eq!(answer.answer_digest().len(), 32);
        let other_body = OutgoingLetter::fresh("ann@example.test", "Re: Out of office", "Yes.\n");
        let other_person = OutgoingLetter::fresh("bo@example.test", "Re: Out of office", "No.\n");
        for other in [other_body, other_person] {
            assert_ne!(answer.answer_digest(), other.answer_digest());
        }
    }

    #[test]
    fn addresses_are_checked_and_written_one_way() {
        let cases = [
            ("ann@Example.TEST", Some("ann@example.test")),
            (" <Ann@q.test> ", Some("Ann@q.test")),
            ("\"bo\"@q.test", Some("bo@q.test")),
            ("\"ann smith\"@Q.test", Some("\"ann smith\"@q.test")),
            ("\"a\\\"b\"@q.test", Some("\"a\\\"b\"@q.test")),
            ("\"a\\b\"@q.test", Some("ab@q.test")),
            ("\"a,b\"@q.test", None),
            ("\"a<b>\"@q.test", None),
            ("\"a\\,b\"@q.test", None),
            ("first.last+tag@q.test", Some("first.last+tag@q.test")),
            ("игрок@пример.рф", Some("игрок@пример.рф")),
            ("-oQ/tmp/x@evil.test", None),
            ("\"-oQ/tmp/x\"@evil.test", None),
            ("\"-o x\"@evil.test", Some("\"-o x\"@evil.test")),
            ("a b@q.test", None),
            ("a,b@q.test", None),
            ("<a@q.test>, <b@q.test>", None),
            ("a<b@q.test", None),
            ("a\u{1}b@q.test", None),
            ("\"a\u{1}b\"@q.test", None),
            ("\"a\nb\"@q.test", None),
            ("a@b@q.test", None),
            ("@q.test", None),
            ("a@", None),
            ("a@q..test", None),
            (".a@q.test", None),
            ("a..b@q.test", None),
            ("a@[127.0.0.1]", None),
            ("\"\"@q.test", None),
            ("\"unclosed@q.test", None),
            ("\"x\" @q.test", None),
            ("plain", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(normal_address(text).as_deref(), expected, "{text:?}");
        }
        let long_local = format!("{}@q.test", "a".repeat(65));
        assert_eq!(normal_address(&long_local), None);
        let long = format!("{}@{}.test", "a".repeat(60), "b".repeat(200));
        assert_eq!(normal_address(&long), None);
        assert_eq!(
            usable_address("\"Ann Smith\"@Q.test").as_deref(),
            Some("\"ann smith\"@q.test")
        );
        assert_eq!(
            usable_address("\"BO\"@q.test").as_deref(),
            Some("bo@q.test")
        );
    }

    #[test]
    fn the_key_tells_sender_and_body_apart() {
        let key = dedup_key("m1@example.test", "ann@example.test", "HELP\n");
        assert!(key.starts_with("m1@example.test#"), "{key}");
        let hex = key.rsplit_once('#').unwrap().1;
        assert_eq!(hex.len(), 16);
        assert!(hex.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(
            key,
            dedup_key("m1@example.test", "ann@example.test", "HELP\n")
        );
        assert_ne!(
            key,
            dedup_key("m1@example.test", "bob@example.test", "HELP\n")
        );
        assert_ne!(
            key,
            dedup_key("m1@example.test", "ann@example.test", "LIST\n")
        );
        // The separator keeps sender and body apart: moving a character across is a new key.
        assert_ne!(
            dedup_key("m", "a@x.test", "bHELP"),
            dedup_key("m", "a@x.testb", "HELP")
        );
    }
}
