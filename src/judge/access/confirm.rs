//! Proof that an address wants what is asked in its name. A letter from an address not yet
//! proven that asks for something that would make the judge write regularly to it
//! (REGISTER, CREATE, joining, taking over, OBSERVE), or that changes an account without
//! its password, waits whole until a token mailed to the address comes back from it as
//! `CONFIRM <token>`; then it is carried out as sent (`commands/confirm.rs`). So do a move
//! of an account to a new address and an address added to an account (the token goes to the
//! new address), and a letter held for a locked seat (the token goes to the seat's
//! registered address).
//!
//! A token is 16 letters and digits (80 bits) of an HMAC-SHA256, under the judge's own key, of
//! the request's number and address: unguessable, and only ever mailed to that address.

use chrono::Duration;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::judge::session::Session;
use crate::letter::IncomingLetter;
use crate::msg;
use crate::report::Message;
use crate::store::{RequestRow, Tx};

/// What waits for a token. Passwords are kept only as hashes, or inside a held letter's body,
/// which is forgotten once the request is settled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub(crate) enum Waiting {
    /// A whole letter: from an address not yet proven that asked for something needing
    /// proof (kind `letter`, confirmed by the sender), or signing on to locked `seats` (kind
    /// `held`, confirmed by their player from the seats' registered address).
    Letter {
        sender: String,
        subject: String,
        message_id: String,
        body: String,
        seats: Vec<String>,
    },
    /// SET ADDRESS: account `player` moves from `from` to the request's address.
    Move { player: i64, from: String },
    /// I AM ALSO: the request's address joins account `player` (whose chosen address was
    /// `account` when it asked).
    Add { player: i64, account: String },
}

/// Letters from one address that may wait for its confirmation at once; past them, a letter
/// needing confirmation is answered without a token (identical answers then back off).
const MOST_WAITING: usize = 3;

/// The letters and digits tokens are written in (RFC 4648 base32, lower-case).
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// The judge's key for tokens: the configured one (tests), else its own from the database.
fn token_key(cx: &Session<'_>, tx: &Tx) -> rusqlite::Result<Vec<u8>> {
    if let Some(seed) = cx
        .judge
        .config
        .judge
        .token_key
        .as_deref()
        .and_then(crate::dice::Seed::from_hex)
    {
        return Ok(seed.bytes().to_vec());
    }
    tx.secret("token_key", || {
        let mut key = vec![0u8; 32];
        // Without the system's randomness the key falls back to the clock and the process:
        // weak, so say so in the log; it is drawn once and kept.
        if getrandom::fill(&mut key).is_err() {
            tracing::warn!("no system randomness for the token key");
            let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
            key = <Sha256 as sha2::Digest>::digest(seed.as_bytes()).to_vec();
        }
        key
    })
}

/// Stores a request for `address` and returns it with its token.
pub(crate) fn request(
    cx: &mut Session<'_>,
    tx: &Tx,
    address: &str,
    kind: &str,
    waiting: &Waiting,
    game: Option<i64>,
    valid_hours: u32,
) -> rusqlite::Result<RequestRow> {
    let key = token_key(cx, tx)?;
    let address = address.to_lowercase();
    let payload = serde_json::to_string(waiting).expect("a request is JSON");
    let expires = cx.now + Duration::hours(i64::from(valid_hours.max(1)));
    tx.add_request(
        &address,
        kind,
        &payload,
        game,
        None,
        cx.now,
        expires,
        |id| token(&key, id, &address),
    )
}

/// The whole letter waits for its sender's address to send the token back; the answer
/// says what waits and shows the line to send.
/// Returns false (and says why) when the address has too many letters waiting already:
/// a forger cannot have the judge mail an address token after token.
pub(crate) fn hold_for_sender(
    cx: &mut Session<'_>,
    tx: &Tx,
    letter: &IncomingLetter,
    waiting: Vec<Message>,
) -> rusqlite::Result<bool> {
    let waiting_already = tx.pending_requests(&cx.sender, "letter", cx.now)?;
    if waiting_already >= MOST_WAITING {
        cx.say(msg!(
            "confirm.too_many",
            address = cx.sender,
            count = waiting_already
        ));
        return Ok(false);
    }
    let held = Waiting::Letter {
        sender: cx.sender.clone(),
        subject: letter.subject.clone(),
        message_id: letter.message_id.clone(),
        body: letter.body.clone(),
        seats: Vec::new(),
    };
    let hours = cx.judge.config.limits.confirm_hours;
    let sender = cx.sender.clone();
    let request = request(cx, tx, &sender, "letter", &held, None, hours)?;
    // Everything that waits, in one sentence: `registering this address, and creating
    // game 'open'`.
    if let Some(what) = waiting
        .into_iter()
        .rev()
        .reduce(|rest, what| msg!("confirm.and", what = what, rest = rest))
    {
        cx.say(msg!("confirm.waits", what = what, address = sender));
    }
    cx.say(msg!(
        "confirm.send_back",
        address = sender,
        token = request.token,
        expires = cx.when(request.expires_at)
    ));
    Ok(true)
}

/// The token of request `id` for `address` under `key`.
fn token(key: &[u8], id: i64, address: &str) -> String {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(b"strategos confirm\0");
    mac.update(&id.to_be_bytes());
    mac.update(address.as_bytes());
    let digest = mac.finalize().into_bytes();
    // 80 bits: the first ten bytes, five bits a letter.
    let mut bits: u128 = 0;
    for byte in &digest[..10] {
        bits = (bits << 8) | u128::from(*byte);
    }
    (0..16)
        .rev()
        .map(|i| ALPHABET[((bits >> (i * 5)) & 31) as usize] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_by_request_address_and_key() {
        let key = [7u8; 32];
        let a = token(&key, 1, "ann@example.test");
        assert_eq!(a.len(), 16);
        assert!(a.bytes().all(|b| ALPHABET.contains(&b)));
        assert_eq!(a, token(&key, 1, "ann@example.test"));
        assert_ne!(a, token(&key, 2, "ann@example.test"));
        assert_ne!(a, token(&key, 1, "bob@example.test"));
        assert_ne!(a, token(&[8u8; 32], 1, "ann@example.test"));
    }
}
