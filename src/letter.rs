//! Letters: plain mail data shared by the edges (mail in and out) and the game master.
//!
//! An `IncomingLetter` is a message already read (decoded, text extracted); an
//! `OutgoingLetter` is what the judge wants to send, before it is made into RFC 5322 bytes.
//! Nothing here touches the network or the disk.

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
