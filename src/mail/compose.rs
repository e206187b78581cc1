//! Writing an `OutgoingLetter` as RFC 5322 bytes with lettre's builder: encoded words for
//! non-ASCII headers, a safe transfer encoding for the UTF-8 text, CRLF line ends, and the
//! headers that keep robots and other judges from answering (`Auto-Submitted`, the marker).
//! A letter with attachments (the picture of a board) is multipart/mixed: the same text part,
//! then each file in base64.
//!
//! Nothing here can inject a header: CR, LF and other control characters in subjects and
//! names become spaces, and message ids keep only visible ASCII.
//!
//! Composing takes time linear in the size of the letter: the body's line ends are made CRLF
//! here in one pass (lettre would insert each `\r` into the string one at a time, moving the
//! rest of the body each time), and lines over 76 octets (RFC 5322 allows 998) make lettre
//! pick quoted-printable or base64, both wrapped in one pass.

use std::time::SystemTime;

use chrono::{DateTime, Utc};
use email_encoding::body::Encoding;
use lettre::address::Envelope;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};

use crate::letter::{Address, OutgoingLetter};
use crate::mail::read::MARKER_HEADER;

/// The subject of an answer: `Re: ` before the trimmed subject, unless it already starts with
/// `Re:` in any case; `Re: your letter` when the subject is empty. Control characters become
/// spaces.
pub fn reply_subject(subject: &str) -> String {
    let subject = one_line(subject);
    let already = subject
        .get(..3)
        .is_some_and(|start| start.eq_ignore_ascii_case("re:"));
    if subject.is_empty() {
        "Re: your letter".to_string()
    } else if already {
        subject
    } else {
        format!("Re: {subject}")
    }
}

/// A new Message-ID for a letter the judge writes at `now`: the time, 16 hex digits drawn at
/// random, `strategos@` and the judge's domain. Drawn, not counted: a counter would tell
/// players who compare their letters how many went out between them, and so the order the
/// copies of one letter were sent in.
pub fn message_id(now: DateTime<Utc>, domain: &str) -> String {
    let mut bytes = [0u8; 8];
    // Without the system's randomness: the clock and a process counter, unique still.
    if getrandom::fill(&mut bytes).is_err() {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        bytes = (nanos ^ n.rotate_left(32) ^ u64::from(std::process::id())).to_be_bytes();
    }
    let drawn: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}.{drawn}.strategos@{domain}", now.format("%Y%m%d%H%M%S"))
}

/// The letter as RFC 5322 bytes, sent from `from`, with Message-ID `<message_id>`.
///
/// Recipients whose address lettre cannot parse are left out (they could not be sent to
/// anyway); with no recipient left the message still has its From and everything else.
/// The body's line ends become CRLF and lettre picks 7bit, quoted-printable or base64.
/// The result is empty only if lettre refuses a message built this way, which the checks
/// above are there to prevent.
pub fn compose(
    letter: &OutgoingLetter,
    from: &Address,
    message_id: &str,
    date: DateTime<Utc>,
) -> Vec<u8> {
    compose_apart(letter, from, message_id, date).whole()
}

/// A composed letter with its attachments' encoded bodies kept apart, so that the outbox
/// stores a game's picture once however many of its members' letters carry it: `raw` holds
/// a placeholder in place of each body, after all the letter's own text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composed {
    pub raw: Vec<u8>,
    /// Each attachment's placeholder in `raw` and its body as encoded for the letter, in
    /// the order they stand.
    pub parts: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Composed {
    /// The letter as it is sent: each placeholder replaced by its body.
    pub fn whole(self) -> Vec<u8> {
        let mut pieces = self.pieces();
        let mut out = Vec::with_capacity(
            self.raw.len() + self.parts.iter().map(|(_, b)| b.len()).sum::<usize>(),
        );
        let mut at = 0;
        for (start, end, body) in pieces.drain(..) {
            out.extend_from_slice(&self.raw[at..start]);
            out.extend_from_slice(body);
            at = end;
        }
        out.extend_from_slice(&self.raw[at..]);
        out
    }

    /// Where each placeholder stands in `raw` (start, end) with its body, in order. Each is
    /// found from the end, before the one after it: the bodies come after all the letter's
    /// text, so a player's text that happened to hold the same words is never taken for one.
    pub fn pieces(&self) -> Vec<(usize, usize, &[u8])> {
        let mut found = Vec::with_capacity(self.parts.len());
        let mut before = self.raw.len();
        for (placeholder, body) in self.parts.iter().rev() {
            let Some(start) = self.raw[..before]
                .windows(placeholder.len())
                .rposition(|w| w == placeholder.as_slice())
            else {
                continue;
            };
            found.push((start, start + placeholder.len(), body.as_slice()));
            before = start;
        }
        found.reverse();
        found
    }
}

/// `compose`, the attachments' bodies kept apart (`Composed`).
pub fn compose_apart(
    letter: &OutgoingLetter,
    from: &Address,
    message_id: &str,
    date: DateTime<Utc>,
) -> Composed {
    compose_sharing(letter, from, message_id, date, &mut Encodings::default())
}

/// Attachments' bodies as encoded for a letter (base64 wrapped in lines), kept for the
/// letters queued together: a game's results letters each carry the same picture, and
/// encoding it (and checking it for text first, as lettre does) for each of seven members
/// cost more than the rest of their letters together.
#[derive(Default)]
pub struct Encodings {
    /// The file's bytes, the encoding lettre chose for them, and their encoded body; the
    /// last few files only (a batch carries one picture for each language at most).
    kept: Vec<(Vec<u8>, ContentTransferEncoding, Vec<u8>)>,
}

/// Files whose encodings are kept at once: a game's pictures, one for each language.
const ENCODINGS_KEPT: usize = 4;

impl Encodings {
    /// `bytes` as a letter's body: its transfer encoding and the encoded text, encoded now
    /// or taken from the files encoded before.
    fn encoded(&mut self, bytes: &[u8]) -> (ContentTransferEncoding, Vec<u8>) {
        if let Some((_, encoding, body)) = self.kept.iter().find(|(b, _, _)| b == bytes) {
            return (*encoding, body.clone());
        }
        let body = Body::new(bytes.to_vec());
        let encoding = body.encoding();
        let body = body.into_vec();
        if self.kept.len() >= ENCODINGS_KEPT {
            self.kept.remove(0);
        }
        self.kept.push((bytes.to_vec(), encoding, body.clone()));
        (encoding, body)
    }
}

/// `compose_apart`, with the attachments' encodings shared with the other letters composed
/// with the same `encodings`.
pub fn compose_sharing(
    letter: &OutgoingLetter,
    from: &Address,
    message_id: &str,
    date: DateTime<Utc>,
    encodings: &mut Encodings,
) -> Composed {
    let from_mailbox = sender_mailbox(from);
    let recipients: Vec<Mailbox> = letter.to.iter().filter_map(mailbox).collect();
    let envelope_to: Vec<lettre::Address> = if recipients.is_empty() {
        vec![from_mailbox.email.clone()]
    } else {
        recipients.iter().map(|r| r.email.clone()).collect()
    };
    let Ok(envelope) = Envelope::new(Some(from_mailbox.email.clone()), envelope_to) else {
        return Composed {
            raw: Vec::new(),
            parts: Vec::new(),
        };
    };

    let mut builder = lettre::Message::builder()
        .from(from_mailbox)
        .subject(bounded_subject(&letter.subject))
        .date(SystemTime::from(date))
        .message_id(Some(angle(message_id)))
        .envelope(envelope);
    for recipient in recipients {
        builder = builder.to(recipient);
    }
    if let Some(id) = letter.in_reply_to.as_deref().and_then(thread_id) {
        builder = builder.in_reply_to(format!("<{id}>"));
    }
    let references: Vec<String> = thread(&letter.references)
        .into_iter()
        .map(|id| format!("<{id}>"))
        .collect();
    if !references.is_empty() {
        builder = builder.references(references.join(" "));
    }
    builder = builder
        .raw_header(raw_header("Auto-Submitted", "auto-replied"))
        .raw_header(raw_header(MARKER_HEADER, "yes"));

    let body = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(body(&letter.body));
    let mut kept = Vec::new();
    let message = if letter.attachments.is_empty() {
        builder.singlepart(body)
    } else {
        // The text as a letter without attachments has it, then each file (base64). A part's
        // last line break belongs to the boundary after it (RFC 2046), so text sent as it
        // stands (7bit) gets one more line end and reads back exactly as the single-part
        // letter's does; quoted-printable and base64 text already does.
        let text = if seven_bit(&wrap_long_lines(&letter.body, WIDTH)) {
            format!("{}\n", letter.body)
        } else {
            letter.body.clone()
        };
        let body = SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .body(self::body(&text));
        let mut parts = MultiPart::mixed().singlepart(body);
        for (i, attachment) in letter.attachments.iter().enumerate() {
            let media_type = ContentType::parse(&attachment.media_type)
                .unwrap_or_else(|_| ContentType::parse("application/octet-stream").expect("valid"));
            // The body as lettre encodes it, kept apart; the letter holds a placeholder,
            // written as it stands, which the body later replaces byte for byte.
            let (encoding, body) = encodings.encoded(&attachment.bytes);
            let placeholder = format!("STRATEGOS-ATTACHMENT-{i}-{message_id}").into_bytes();
            kept.push((placeholder.clone(), body));
            parts = parts.singlepart(
                lettre::message::Attachment::new(one_line(&attachment.name)).body(
                    Body::dangerous_pre_encoded(placeholder, encoding),
                    media_type,
                ),
            );
        }
        builder.multipart(parts)
    };
    match message {
        Ok(message) => Composed {
            raw: folded(message.formatted()),
            parts: kept,
        },
        Err(_) => Composed {
            raw: Vec::new(),
            parts: Vec::new(),
        },
    }
}

/// The widest header line written where a space allows a fold (RFC 5322 2.1.1's 78).
const HEADER_WIDTH: usize = 78;

/// `raw` with every line of its header block longer than `HEADER_WIDTH` folded at the last
/// space (or tab) that keeps it within, else at the first after: unfolding gives the very
/// same header. A header holding no space after its width stays as it is; the ids and the
/// subject it is written from are bounded so that no such line reaches 998 octets.
fn folded(raw: Vec<u8>) -> Vec<u8> {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(raw.len(), |at| at + 2);
    let (head, rest) = raw.split_at(head_end);
    if head
        .split(|&b| b == b'\n')
        .all(|l| l.len() <= HEADER_WIDTH + 1)
    {
        return raw;
    }
    let mut out = Vec::with_capacity(raw.len() + 64);
    for line in head.split_inclusive(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r\n").unwrap_or(line);
        let mut line = line;
        while line.len() > HEADER_WIDTH {
            // A fold never makes a line of white space only: the break is after some text.
            let first_text = line.iter().position(|b| !b" \t".contains(b)).unwrap_or(0);
            let is_space = |b: &u8| *b == b' ' || *b == b'\t';
            let within = line[..=HEADER_WIDTH]
                .iter()
                .rposition(is_space)
                .filter(|&at| at > first_text);
            let after = || {
                line[HEADER_WIDTH..]
                    .iter()
                    .position(is_space)
                    .map(|at| at + HEADER_WIDTH)
            };
            let Some(at) = within.or_else(after) else {
                break;
            };
            out.extend_from_slice(&line[..at]);
            out.extend_from_slice(b"\r\n");
            line = &line[at..];
        }
        out.extend_from_slice(line);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(rest);
    out
}

/// The body text encoded for the letter, as lettre's builder would encode it (the same
/// choice of transfer encoding, made on the text as written, and the same bytes), but with
/// the line ends written in one pass.
fn body(text: &str) -> Body {
    // Lines wrapped under 80 columns, as the classic judges write; plain ASCII with lines
    // within RFC 5322's 998 octets then goes as it stands (7bit), which tools reading raw
    // mail expect, rather than the quoted-printable lettre picks for lines of 76 or more.
    let text = wrap_long_lines(text, WIDTH);
    let text = text.as_ref();
    let plain = seven_bit(text);
    // Otherwise lettre chooses on the text before it writes the line ends, for a server
    // without SMTPUTF8; so do we.
    let encoding = if plain {
        Encoding::SevenBit
    } else {
        Encoding::choose(text, false)
    };
    let text = crlf_line_ends(text);
    let encoding = match encoding {
        // ASCII with every line under 76 octets: the text itself is the body.
        Encoding::SevenBit => {
            return Body::dangerous_pre_encoded(
                text.into_bytes(),
                ContentTransferEncoding::SevenBit,
            );
        }
        Encoding::Base64 => ContentTransferEncoding::Base64,
        // 8bit is never chosen without SMTPUTF8; quoted-printable takes any text.
        Encoding::QuotedPrintable | Encoding::EightBit => ContentTransferEncoding::QuotedPrintable,
    };
    // Both encodings take any text, and lettre finds no bare LF left to change. (Were lettre
    // to refuse, its own choice on the CRLF text is as good, and as fast.)
    Body::new_with_encoding(text, encoding)
        .unwrap_or_else(|bytes| Body::new(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Whether text goes as it stands (7bit): plain ASCII, every line within RFC 5322's 998 octets.
fn seven_bit(text: &str) -> bool {
    text.is_ascii() && text.lines().all(|l| l.len() <= MOST_OCTETS)
}

/// The widest line the judge writes, in characters, where the words allow.
pub const WIDTH: usize = 78;

/// The longest line a letter may have, in octets (RFC 5322 2.1.1), its line end left out.
const MOST_OCTETS: usize = 998;

/// `text` with every line longer than `width` characters broken at spaces into lines of at
/// most `width` (a word longer than that stays whole on its own line; a line of dice stays
/// whole), never inside a date (`text::date::joined`). The lines a long line
/// becomes keep its indentation, and a list item's (`- `, `* `) continue under its text.
/// Linear in the text's length; text with no long line comes back as it is.
pub fn wrap_long_lines(text: &str, width: usize) -> std::borrow::Cow<'_, str> {
    if text
        .lines()
        .all(|l| l.len() <= width || l.chars().count() <= width)
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line_end = line.strip_suffix('\r');
        let line = line_end.unwrap_or(line);
        // A line of dice (a roll, the commitment, the seed revealed) is one line whatever its
        // length (`docs/dice.md`): anyone verifying the rolls reads it whole. The judge's own
        // are far below the 998 octets a line of mail may have; one a player wrote into press
        // past them is broken like any other line.
        let dice = || {
            line.len() <= MOST_OCTETS
                && crate::dice::parse_line(line).is_some_and(|read| read.is_ok())
        };
        if line.len() > width && line.chars().count() > width && !dice() {
            wrap_line(line, width, &mut out);
        } else {
            out.push_str(line);
        }
        if line_end.is_some() {
            out.push('\r');
        }
    }
    std::borrow::Cow::Owned(out)
}

/// One long line, broken greedily at spaces, into `out`. The text between breaks is kept as
/// written (columns of a table keep their spacing); the spaces at a break are dropped. The
/// lines after the first start at the line's indentation, under a list item's text, or under
/// the second column of a two-column line (`  LIST      the games`).
fn wrap_line(line: &str, width: usize, out: &mut String) {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let indent = chars.iter().take_while(|(_, c)| *c == ' ').count();
    let rest = &line[chars.get(indent).map_or(line.len(), |(at, _)| *at)..];
    let hanging = if rest.starts_with("- ") || rest.starts_with("* ") {
        indent + 2
    } else {
        // The first run of two spaces or more after some text, if it leaves room.
        let mut column = None;
        let mut k = indent;
        while k + 1 < chars.len() {
            if chars[k].1 == ' ' && chars[k + 1].1 == ' ' {
                let mut end = k;
                while end < chars.len() && chars[end].1 == ' ' {
                    end += 1;
                }
                column = Some(end);
                break;
            }
            k += 1;
        }
        column.filter(|c| *c <= width * 5 / 8).unwrap_or(indent)
    };
    let hanging = if hanging * 2 > width * 5 / 4 {
        indent
    } else {
        hanging
    };
    let mut start = 0;
    let mut first = true;
    while start < chars.len() {
        let lead = if first { 0 } else { hanging };
        let room = width.saturating_sub(lead).max(1);
        let end = if chars.len() - start <= room {
            chars.len()
        } else {
            // The last space that leaves at most `room` characters and is not inside a date;
            // else the first such space after (a word longer than the line stays whole).
            let limit = start + room;
            let breaks = |k: usize| chars[k].1 == ' ' && !inside_a_date(line, &chars, k);
            match (start + 1..=limit).rev().find(|&k| breaks(k)) {
                Some(k) => k,
                None => (limit..chars.len())
                    .find(|&k| breaks(k))
                    .unwrap_or(chars.len()),
            }
        };
        if !first {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', hanging));
        }
        let from = chars[start].0;
        let to = chars.get(end).map_or(line.len(), |(at, _)| *at);
        out.push_str(line[from..to].trim_end_matches(' '));
        start = end;
        while start < chars.len() && chars[start].1 == ' ' {
            start += 1;
        }
        first = false;
    }
}

/// Whether the spaces around `chars[k]` (a space) lie between two words of one date. Only a
/// few characters either side are looked at, so wrapping stays linear.
fn inside_a_date(line: &str, chars: &[(usize, char)], k: usize) -> bool {
    const LONGEST: usize = 40;
    let at = |i: usize| chars.get(i).map_or(line.len(), |(b, _)| *b);
    let mut a = k;
    while a > 0 && chars[a - 1].1 == ' ' {
        a -= 1;
    }
    let mut s = a;
    while s > 0 && chars[s - 1].1 != ' ' && a - s <= LONGEST {
        s -= 1;
    }
    let mut b = k;
    while b < chars.len() && chars[b].1 == ' ' {
        b += 1;
    }
    let mut e = b;
    while e < chars.len() && chars[e].1 != ' ' && e - b <= LONGEST {
        e += 1;
    }
    s < a && b < e && crate::text::date::joined(&line[at(s)..at(a)], &line[at(b)..at(e)])
}

/// `text` with every LF that does not follow a CR written as CRLF, as lettre writes line
/// ends, in one pass.
pub fn crlf_line_ends(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8 + 2);
    let mut from = 0;
    for (at, _) in text.match_indices('\n') {
        out.push_str(&text[from..at]);
        if !text[..at].ends_with('\r') {
            out.push('\r');
        }
        out.push('\n');
        from = at + 1;
    }
    out.push_str(&text[from..]);
    out
}

fn raw_header(name: &'static str, value: &str) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value.to_string())
}

/// A recipient as lettre's mailbox, `None` if lettre cannot parse the address.
fn mailbox(address: &Address) -> Option<Mailbox> {
    let email = address.email.trim().parse::<lettre::Address>().ok()?;
    Some(Mailbox::new(display_name(address), email))
}

/// The judge's own mailbox. Its address comes from the configuration; if lettre will not
/// parse it, it is used as it stands with everything that could break a header removed.
fn sender_mailbox(address: &Address) -> Mailbox {
    mailbox(address).unwrap_or_else(|| {
        let kept: String = address
            .email
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_control() && !"<>,;:\"()[]\\".contains(*c))
            .collect();
        let (user, domain) = kept
            .rsplit_once('@')
            .unwrap_or((kept.as_str(), "strategos.invalid"));
        Mailbox::new(
            display_name(address),
            lettre::Address::new_dangerous(user, domain),
        )
    })
}

fn display_name(address: &Address) -> Option<String> {
    address
        .name
        .as_deref()
        .map(one_line)
        .map(|name| name.chars().take(MOST_NAME_CHARS).collect::<String>())
        .filter(|name| !name.is_empty())
}

/// The longest display name written beside an address, in characters.
const MOST_NAME_CHARS: usize = 100;

/// Control characters (CR and LF among them) become spaces; ends trimmed.
pub fn one_line(text: &str) -> String {
    let line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    line.trim().to_string()
}

/// A message id of visible ASCII only, without angle brackets; `None` if nothing is left.
fn clean_id(id: &str) -> Option<String> {
    let id: String = id
        .chars()
        .filter(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>'))
        .collect();
    (!id.is_empty()).then_some(id)
}

/// The longest subject written, in characters: an answer's subject repeats the letter's, and
/// a word of thousands of characters would make a header line no server takes.
const MOST_SUBJECT_CHARS: usize = 200;

/// The subject on one line, cut to `MOST_SUBJECT_CHARS` (ending with `...` when cut).
fn bounded_subject(subject: &str) -> String {
    let subject = one_line(subject);
    if subject.chars().count() <= MOST_SUBJECT_CHARS {
        return subject;
    }
    let cut: String = subject.chars().take(MOST_SUBJECT_CHARS - 3).collect();
    format!("{}...", cut.trim_end())
}

/// A message id longer than this is not carried into a thread's headers: no mail system
/// writes one, and it would make a header line no server takes (RFC 5322 allows 998 octets).
const MOST_ID_OCTETS: usize = 250;

/// Message ids a thread's `References` keeps: its root and the last ones, the letter answered
/// last (RFC 5322 3.6.4 allows trimming; mail readers need the root and the parent).
const MOST_REFERENCES: usize = 10;

/// A message id fit for `In-Reply-To` or `References`.
fn thread_id(id: &str) -> Option<String> {
    clean_id(id).filter(|id| id.len() <= MOST_ID_OCTETS)
}

/// The `References` of a letter: its usable ids, the root and the last few.
fn thread(references: &[String]) -> Vec<String> {
    let ids: Vec<String> = references.iter().filter_map(|id| thread_id(id)).collect();
    if ids.len() <= MOST_REFERENCES {
        return ids;
    }
    let mut kept = vec![ids[0].clone()];
    kept.extend_from_slice(&ids[ids.len() - (MOST_REFERENCES - 1)..]);
    kept
}

fn angle(id: &str) -> String {
    format!(
        "<{}>",
        clean_id(id).unwrap_or_else(|| "no-id@strategos.invalid".to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::letter::Attachment;
    use mail_parser::MimeHeaders;

    /// A line of dice stays one line however long (those who verify the rolls read it
    /// whole); any other long line is broken at its spaces.
    #[test]
    fn a_roll_line_is_never_wrapped() {
        let roll = "Roll 12 (Hapsburg defending in the field battle at Vienna: 5 dice, 2 units, \
                    +2 Charles V, +1 defender, -1 against Ottoman cavalry): 6 5 4 2 6";
        let prose = "The Hapsburg army defends Vienna in a field battle with five dice, two \
                     units, Charles V and the defender's die.";
        let text = format!("{roll}\n> {roll}\n{prose}\n");
        let wrapped = wrap_long_lines(&text, WIDTH);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert_eq!(lines[0], roll);
        assert_eq!(lines[1], format!("> {roll}"));
        assert!(
            lines[2..].iter().all(|l| l.chars().count() <= WIDTH),
            "{wrapped}"
        );
        assert_eq!(lines.len(), 4, "{wrapped}");
        // One written into press past the 998 octets a line of mail may have is broken.
        let long = format!("Roll 3 (a purpose{}): 6 6", " and more".repeat(120));
        assert!(long.len() > MOST_OCTETS);
        assert!(
            wrap_long_lines(&long, WIDTH)
                .lines()
                .all(|l| l.chars().count() <= WIDTH)
        );
    }

    /// Letters composed sharing their encodings carry the bodies of the letters composed
    /// alone, byte for byte (the boundaries between parts are drawn at random): the same
    /// picture is encoded once, and a different file of the same size (a picture in the
    /// other language) is never taken for it.
    #[test]
    fn shared_encodings_change_no_letter() {
        let picture: Vec<u8> = (0..30_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let mut other = picture.clone();
        other[29_999] ^= 1;
        let from = Address::new("judge@example.test");
        let now = DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let mut encodings = Encodings::default();
        for (n, bytes) in [&picture, &picture, &other, &picture]
            .into_iter()
            .enumerate()
        {
            let mut letter =
                OutgoingLetter::fresh(&format!("p{n}@example.test"), "Results", "Moves.\n");
            letter.attachments.push(Attachment {
                name: "map.png".to_string(),
                media_type: "image/png".to_string(),
                bytes: bytes.clone(),
            });
            let id = format!("{n}.strategos@example.test");
            let shared = compose_sharing(&letter, &from, &id, now, &mut encodings);
            let alone = compose_apart(&letter, &from, &id, now);
            assert!(shared.parts == alone.parts, "letter {n}: the same body");
            let whole = shared.whole();
            let message = mail_parser::MessageParser::default().parse(&whole).unwrap();
            let file = message.attachments().next().unwrap().contents().to_vec();
            assert_eq!(&file, bytes, "letter {n} carries its own file");
        }
        assert_eq!(encodings.kept.len(), 2, "two files, each encoded once");
    }

    /// A letter composed with its attachments kept apart is, made whole, the letter: the
    /// text reads back as written and each file comes back byte for byte. Text of the
    /// player's that holds a placeholder's very words is left as it stands; the kept letter
    /// holds no body.
    #[test]
    fn a_letter_with_its_attachments_apart_is_whole_again() {
        let message_id = "20270105120000.7.strategos@example.test";
        let picture: Vec<u8> = (0..40_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let second: Vec<u8> = picture.iter().rev().copied().collect();
        let trap = format!("STRATEGOS-ATTACHMENT-0-{message_id}");
        let mut letter = OutgoingLetter::fresh(
            "ann@example.test",
            "Re: pictures",
            format!("Press: {trap}\nand more.\n"),
        );
        for (name, bytes) in [("map.png", &picture), ("other.png", &second)] {
            letter.attachments.push(Attachment {
                name: name.to_string(),
                media_type: "image/png".to_string(),
                bytes: bytes.clone(),
            });
        }
        let from = Address::new("judge@example.test");
        let now = DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let apart = compose_apart(&letter, &from, message_id, now);
        assert_eq!(apart.parts.len(), 2);
        assert!(apart.raw.len() < 4_000, "{} bytes kept", apart.raw.len());
        let pieces = apart.pieces();
        assert_eq!(pieces.len(), 2);
        assert!(String::from_utf8_lossy(&apart.raw[..pieces[0].0]).contains(&trap));
        let whole = apart.whole();
        let message = mail_parser::MessageParser::default()
            .parse(&whole)
            .expect("a letter");
        let files: Vec<(String, Vec<u8>)> = message
            .attachments()
            .map(|a| {
                (
                    a.attachment_name().unwrap_or_default().to_string(),
                    a.contents().to_vec(),
                )
            })
            .collect();
        assert_eq!(
            files,
            [
                ("map.png".to_string(), picture),
                ("other.png".to_string(), second)
            ]
        );
        assert!(message.body_text(0).unwrap().contains(&trap));
    }

    /// A date is never broken across lines, wherever the wrap falls in it, in either
    /// language's form or njudge's; other words are broken as before.
    #[test]
    fn a_date_stays_on_one_line() {
        for date in [
            "Wed 06 Jan 2027 12:16 UTC",
            "ср 06.01.2027 12:16 MSK",
            "Wed Jan 06 2027 12:16:00 +0000.",
        ] {
            for lead in 40..70 {
                let line = format!("{} before {date} and after it", "x".repeat(lead));
                let wrapped = wrap_long_lines(&line, WIDTH);
                assert!(
                    wrapped.lines().any(|l| l.contains(date)),
                    "{date} broken at {lead}:\n{wrapped}"
                );
                assert!(wrapped.lines().all(|l| l.chars().count() <= WIDTH));
            }
        }
        let plain = format!("{} 3 4 5 6 7 8 9", "x".repeat(72));
        assert_eq!(
            wrap_long_lines(&plain, WIDTH),
            format!("{} 3 4 5\n6 7 8 9", "x".repeat(72))
        );
    }
}
