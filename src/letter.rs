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

/// A message that arrived, read into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncomingLetter {
    /// The Message-ID without angle brackets; one is made up from the content when missing.
    pub message_id: String,
    pub from: Option<Address>,
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
}

impl OutgoingLetter {
    /// A letter to one address that answers no letter (a report, a notice, an offer).
    pub fn fresh(to: &str, subject: impl Into<String>, body: impl Into<String>) -> OutgoingLetter {
        OutgoingLetter {
            to: vec![Address::new(to)],
            subject: subject.into(),
            body: body.into(),
            in_reply_to: None,
            references: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
