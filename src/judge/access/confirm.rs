//! Proof that an address wants what is asked in its name. A letter from an address not yet
//! proven that asks for something that would make the judge write regularly to it (REGISTER,
//! CREATE, joining, taking over, OBSERVE), or that changes an account without its password,
//! waits whole until a token mailed to the address comes back from it as `CONFIRM <token>`;
//! then it is carried out as sent. So do a move of an account to a new address (the token goes
//! to the new address) and a letter held for a locked seat (the token goes to the seat's
//! registered address).
//!
//! A token is 16 letters and digits (80 bits) of an HMAC-SHA256, under the judge's own key, of
//! the request's number and address: unguessable, and only ever mailed to that address.

use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::judge::session::Confirmed;

use crate::judge::session::Session;
use crate::letter::{Address, IncomingLetter, OutgoingLetter};
use crate::report::Message;
use crate::store::{RequestRow, Tx};
use crate::{msg, tr};

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
}

/// Letters from one address that may wait for its confirmation at once; past them, a letter
/// needing confirmation is answered without a token (identical answers then back off).
const MOST_WAITING: usize = 3;

/// The letters and digits tokens are written in (RFC 4648 base32, lower-case).
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

impl Session<'_> {
    /// The judge's key for tokens: the configured one (tests), else its own from the database.
    fn token_key(&self, tx: &Tx) -> rusqlite::Result<Vec<u8>> {
        if let Some(seed) = self
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
        &mut self,
        tx: &Tx,
        address: &str,
        kind: &str,
        waiting: &Waiting,
        game: Option<i64>,
        valid_hours: u32,
    ) -> rusqlite::Result<RequestRow> {
        let key = self.token_key(tx)?;
        let address = address.to_lowercase();
        let payload = serde_json::to_string(waiting).expect("a request is JSON");
        let expires = self.now + Duration::hours(i64::from(valid_hours.max(1)));
        tx.add_request(
            &address,
            kind,
            &payload,
            game,
            None,
            self.now,
            expires,
            |id| token(&key, id, &address),
        )
    }

    /// Notes that something the letter asks for needs its sender's address to confirm: the
    /// whole letter will wait for it.
    pub(crate) fn hold(&mut self, what: Message) {
        self.pending.push(what);
    }

    /// The whole letter waits for its sender's address to send the token back; the answer
    /// says what waits and shows the line to send.
    /// Returns false (and says why) when the address has too many letters waiting already:
    /// a forger cannot have the judge mail an address token after token.
    pub(crate) fn hold_for_sender(
        &mut self,
        tx: &Tx,
        letter: &IncomingLetter,
        waiting: Vec<Message>,
    ) -> rusqlite::Result<bool> {
        let waiting_already = tx.pending_requests(&self.sender, "letter", self.now)?;
        if waiting_already >= MOST_WAITING {
            self.say(msg!(
                "confirm.too_many",
                address = self.sender,
                count = waiting_already
            ));
            return Ok(false);
        }
        let held = Waiting::Letter {
            sender: self.sender.clone(),
            subject: letter.subject.clone(),
            message_id: letter.message_id.clone(),
            body: letter.body.clone(),
            seats: Vec::new(),
        };
        let hours = self.judge.config.limits.confirm_hours;
        let sender = self.sender.clone();
        let request = self.request(tx, &sender, "letter", &held, None, hours)?;
        // Everything that waits, in one sentence: `registering this address, and creating
        // game 'open'`.
        if let Some(what) = waiting
            .into_iter()
            .rev()
            .reduce(|rest, what| msg!("confirm.and", what = what, rest = rest))
        {
            self.say(msg!("confirm.waits", what = what, address = sender));
        }
        self.say(msg!(
            "confirm.send_back",
            address = sender,
            token = request.token,
            expires = self.when(request.expires_at)
        ));
        Ok(true)
    }

    /// A time as the answer's reader reads it (UTC).
    pub(crate) fn when(&self, at: DateTime<Utc>) -> crate::report::When {
        crate::report::When {
            at: Some(at),
            zone: "UTC".into(),
        }
    }

    /// CONFIRM token: carries out what waited for it, if it comes back from the address it
    /// was mailed to, in the sender's own words (not in a copy of the judge's letter).
    pub(crate) fn confirm(&mut self, tx: &Tx, line: usize, token: &str) -> rusqlite::Result<()> {
        // The letter's reader has already left out what a reply reproduces in the forms the
        // mail clients write; a copy it could not tell (indented, say) still shows the
        // judge's own words around the token, and then confirms nothing.
        if copies_a_request(self.judge.templates.messages(), &self.own_words) {
            self.fail(line, msg!("confirm.in_a_copy"));
            return Ok(());
        }
        if self.failures >= self.judge.config.limits.password_failures_per_letter {
            self.refused(
                line,
                crate::judge::access::seat::Checked::Exhausted,
                msg!("confirm.used"),
            );
            return Ok(());
        }
        let request = tx
            .request_by_token(token)?
            .filter(|r| r.address == self.sender);
        let Some(request) = request else {
            // A token that is not this address's counts as a wrong password does.
            self.failures += 1;
            self.fail(line, msg!("confirm.unknown", address = self.sender));
            return Ok(());
        };
        if request.state == "done" {
            self.fail(line, msg!("confirm.used"));
            return Ok(());
        }
        if request.state != "pending" || request.expires_at <= self.now {
            tx.settle_request(request.id, "expired")?;
            self.fail(line, msg!("confirm.expired"));
            return Ok(());
        }
        tx.settle_request(request.id, "done")?;
        // What the request held is no longer needed (a held letter's body holds passwords).
        tx.clear_request_payload(request.id)?;
        let waiting: Option<Waiting> = serde_json::from_str(&request.payload).ok();
        self.say(msg!("confirm.confirmed", address = self.sender));
        match waiting {
            Some(Waiting::Letter {
                sender,
                subject,
                message_id,
                body,
                seats,
            }) => {
                self.say(msg!(
                    "confirm.letter_carried_out",
                    when = self.when(request.created_at)
                ));
                let letter = IncomingLetter {
                    message_id: format!("{message_id}#confirmed"),
                    from: Some(Address::new(&sender)),
                    reply_to: None,
                    to: Vec::new(),
                    subject,
                    size: body.len(),
                    body,
                    automatic: None,
                    references: Vec::new(),
                    warnings: Vec::new(),
                    refused_from: None,
                };
                let confirmed = if request.kind == "held" {
                    Confirmed::ForSeats(seats)
                } else {
                    Confirmed::BySender
                };
                let handled = crate::judge::session::handle::handle_confirmed(
                    self.judge,
                    tx,
                    &letter,
                    self.now,
                    confirmed,
                    request.created_at,
                )?;
                self.caused.extend(handled.letters);
                // This answer speaks as the held letter's does: in the language the account
                // has now (the held letter may have chosen it), else the one it was written in.
                match tx.player_language(&self.sender)? {
                    Some(language) => self.language = language,
                    None => self.answer_in_letter_language(tx, &letter)?,
                }
            }
            Some(Waiting::Move { player, from }) => self.move_account(tx, line, player, &from)?,
            None => {}
        }
        // Proven from now on (after a move, the account now at this address).
        tx.confirm_address(&self.sender, self.now)?;
        self.proven = true;
        Ok(())
    }

    /// The account moves to the confirming address; the old address is told.
    fn move_account(
        &mut self,
        tx: &Tx,
        line: usize,
        player: i64,
        from: &str,
    ) -> rusqlite::Result<()> {
        let to = self.sender.clone();
        if !tx.change_email(player, &to)? {
            self.fail(line, msg!("wishes.address_taken", address = to));
            return Ok(());
        }
        let words = self.words();
        self.caused.push(OutgoingLetter::fresh(
            from,
            tr!(words, "wishes.address_subject"),
            tr!(
                words,
                "wishes.address_moved",
                old = from,
                new = to,
                keeper = self.judge.config.judge.keeper
            ) + "\n",
        ));
        self.say(msg!("wishes.address_changed", address = to));
        self.answer_to = to;
        Ok(())
    }
}

/// The catalog messages that show a token to send back (in every language).
const REQUESTS: [&str; 3] = [
    "confirm.send_back",
    "wishes.address_confirm",
    "lockout.held",
];

/// Words at least this long of a request's fixed text show that it was copied.
const FRAGMENT_CHARS: usize = 24;

/// Whether the sender's own words `own` hold a copy of the judge's own words in one of the
/// letters that show a token (a fixed run of at least `FRAGMENT_CHARS` of them, compared
/// without case, punctuation or line breaks, so a rewrapped or indented copy is found too).
fn copies_a_request(messages: &crate::report::Messages, own: &str) -> bool {
    if own.trim().is_empty() {
        return false;
    }
    let own = comparable(own);
    messages.languages().any(|language| {
        REQUESTS
            .iter()
            .filter_map(|key| messages.get(language, key))
            .any(|text| {
                fixed_runs(text)
                    .map(|run| comparable(&run))
                    .filter(|run| run.chars().count() >= FRAGMENT_CHARS)
                    .any(|run| own.contains(&run))
            })
    })
}

/// The runs of a catalog text between its placeholders (`{address}`, `{token}`...).
fn fixed_runs(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split('{').enumerate().map(|(i, piece)| {
        if i == 0 {
            piece.to_string()
        } else {
            piece
                .split_once('}')
                .map_or(String::new(), |(_, rest)| rest.to_string())
        }
    })
}

/// Text as compared for copies: lower-case letters and digits, every other run one space.
fn comparable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().to_string()
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
    fn a_copy_of_a_request_is_found_however_it_is_wrapped_or_indented() {
        let messages = crate::report::Messages::built_in();
        let copy = "No!\n\n    Anyone can put another's address on a letter, so before the judge\n    writes regularly to bob@x.test, or changes its account, it asks the\n    address itself.\n\n    CONFIRM abc";
        assert!(copies_a_request(messages, copy));
        let russian = "Чужой адрес может поставить на письмо кто угодно, поэтому, прежде чем\nрегулярно писать на bob@x.test или менять его учётную запись, судья\nспрашивает";
        assert!(copies_a_request(messages, russian));
        assert!(!copies_a_request(
            messages,
            "CONFIRM abc\nYes, that was me."
        ));
        assert!(!copies_a_request(messages, ""));
    }

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
