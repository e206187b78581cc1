//! Mail in the database: raw messages as they came (deduplicated by Message-ID, sender and
//! body: see `letter::dedup_key`), the quarantine, the outbox with its retries, and the per-sender rate count.

use chrono::{DateTime, Duration, Utc};
use rusqlite::{OptionalExtension, params};

use super::{Tx, time_text};
use crate::mail::compose::Composed;

/// What became of a stored message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageState {
    New,
    Handled,
    /// Could not be handled; kept with the reason.
    Quarantined,
    /// Deliberately not answered (automatic mail, rate limit); kept with the reason.
    Ignored,
}

impl MessageState {
    pub fn word(self) -> &'static str {
        match self {
            MessageState::New => "new",
            MessageState::Handled => "handled",
            MessageState::Quarantined => "quarantined",
            MessageState::Ignored => "ignored",
        }
    }
}

/// What is left of a stored message's raw bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawState {
    /// As it came (not yet settled, or quarantined and within its retention).
    Whole,
    /// Handled or ignored: the header block, and the commands read with passwords hidden.
    Redacted,
    /// Quarantined past its retention: the header block only.
    Purged,
}

impl RawState {
    fn word(self) -> &'static str {
        match self {
            RawState::Whole => "whole",
            RawState::Redacted => "redacted",
            RawState::Purged => "purged",
        }
    }
}

/// A stored message as the keeper sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMessage {
    pub id: i64,
    /// new, handled, quarantined, ignored
    pub state: String,
    /// Why it was quarantined or ignored, or why its answer was held back.
    pub reason: Option<String>,
    /// What is left of the raw letter: whole, redacted, purged.
    pub raw_state: String,
    pub raw: Vec<u8>,
    /// Attempts begun at handling it.
    pub attempts: u32,
}

/// A stored letter not yet settled, as a new attempt at it needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsettledMessage {
    pub id: i64,
    pub raw: Vec<u8>,
    /// The size the letter came with (its raw copy may be cut at the size limit).
    pub size: usize,
    /// Attempts begun so far.
    pub attempts: u32,
    /// Why the last attempt failed, when the judge lived to say it.
    pub reason: Option<String>,
}

/// A letter in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    pub message_id: String,
    pub recipients: Vec<String>,
    pub raw: Vec<u8>,
    pub attempts: u32,
}

/// A letter of the outbox as a sending round claims it: who it is for, its bytes read when it
/// is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxEnvelope {
    pub id: i64,
    pub message_id: String,
    pub recipients: Vec<String>,
}

/// A letter waiting in the outbox, without its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedLetter {
    pub id: i64,
    pub recipients: Vec<String>,
    /// Its next attempt is due now (not waiting out a retry delay).
    pub due: bool,
    /// The judge process sending it now, if one claimed it (`Tx::claim_outbox`).
    pub claimed_by: Option<String>,
}

fn split_recipients(text: &str) -> Vec<String> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

impl Tx<'_> {
    /// Stores a raw message unless one with the same key (`letter::dedup_key`: the
    /// Message-ID, sender and body) is already stored; returns its row id when it is new.
    /// `header_message_id` is the Message-ID as the letter gave it.
    pub fn record_message(
        &self,
        key: &str,
        header_message_id: &str,
        source: &str,
        raw: &[u8],
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Option<i64>> {
        // A letter stored before migration 4 was keyed by its bare Message-ID: offered again
        // (a mailbox not marked across the upgrade), it is the same letter.
        let stored_before: bool = self.query_row_cached(
            "SELECT EXISTS (SELECT 1 FROM messages WHERE message_id = ?1 AND header_message_id IS NULL)",
            [header_message_id],
            |r| r.get(0),
        )?;
        if stored_before {
            return Ok(None);
        }
        let inserted = self.execute_cached(
            "INSERT OR IGNORE INTO messages (message_id, header_message_id, received_at, source, raw)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, header_message_id, time_text(now), source, raw],
        )?;
        Ok((inserted == 1).then(|| self.tx.last_insert_rowid()))
    }

    /// How many stored messages carry this Message-ID (as the letter gave it; letters stored
    /// before migration 4 by their bare Message-ID count too).
    pub fn messages_with_id(&self, message_id: &str) -> rusqlite::Result<i64> {
        self.query_row_cached(
            "SELECT COUNT(*) FROM messages WHERE header_message_id = ?1
             OR (header_message_id IS NULL AND message_id = ?1)",
            [message_id],
            |r| r.get(0),
        )
    }

    /// Every stored message with this Message-ID (as the letter gave it), oldest first.
    pub fn stored_messages(&self, message_id: &str) -> rusqlite::Result<Vec<StoredMessage>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, state, reason, raw_state, raw, attempts FROM messages
             WHERE header_message_id = ?1 OR (header_message_id IS NULL AND message_id = ?1)
             ORDER BY id",
        )?;
        let rows = stmt.query_map([message_id], |r| {
            Ok(StoredMessage {
                id: r.get(0)?,
                state: r.get(1)?,
                reason: r.get(2)?,
                raw_state: r.get(3)?,
                raw: r.get(4)?,
                attempts: r.get(5)?,
            })
        })?;
        rows.collect()
    }

    /// Whether a message with this Message-ID was already stored.
    pub fn has_message(&self, message_id: &str) -> rusqlite::Result<bool> {
        Ok(self.messages_with_id(message_id)? > 0)
    }

    /// Records what became of a message, with the reason for a quarantine or an ignore.
    pub fn settle_message(
        &self,
        id: i64,
        state: MessageState,
        sender: Option<&str>,
        reason: Option<&str>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE messages SET state = ?2, sender = ?3, reason = ?4, handled_at = ?5 WHERE id = ?1",
            params![id, state.word(), sender, reason, time_text(now)],
        )?;
        Ok(())
    }

    /// Replaces a settled message's raw bytes with what is kept of them (`mail::redact`):
    /// `redacted` once handled or ignored, `purged` once its quarantine is over.
    pub fn replace_raw(&self, id: i64, raw: &[u8], raw_state: RawState) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE messages SET raw = ?2, raw_state = ?3 WHERE id = ?1",
            params![id, raw, raw_state.word()],
        )?;
        Ok(())
    }

    /// Quarantined messages still kept whole that were settled before `before`, oldest
    /// first, at most `limit`: `(id, raw)`.
    pub fn quarantined_before(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> rusqlite::Result<Vec<(i64, Vec<u8>)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, raw FROM messages WHERE state = 'quarantined' AND raw_state = 'whole'
             AND COALESCE(handled_at, received_at) < ?1 ORDER BY id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![time_text(before), limit as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        rows.collect()
    }

    /// Messages stored but not yet handled (after a crash), oldest first.
    pub fn unhandled_messages(&self) -> rusqlite::Result<Vec<(i64, Vec<u8>)>> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT id, raw FROM messages WHERE state = 'new' ORDER BY id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// The ids of messages stored but not yet settled, oldest first.
    pub fn unhandled_ids(&self) -> rusqlite::Result<Vec<i64>> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT id FROM messages WHERE state = 'new' ORDER BY id")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect()
    }

    /// Message `id` if it is stored and not yet settled.
    pub fn unhandled_message(&self, id: i64) -> rusqlite::Result<Option<UnsettledMessage>> {
        self.query_row_cached(
            "SELECT id, raw, COALESCE(size, length(raw)), attempts, reason FROM messages
                 WHERE id = ?1 AND state = 'new'",
            [id],
            |r| {
                Ok(UnsettledMessage {
                    id: r.get(0)?,
                    raw: r.get(1)?,
                    size: r.get::<_, i64>(2)?.max(0) as usize,
                    attempts: r.get(3)?,
                    reason: r.get(4)?,
                })
            },
        )
        .optional()
    }

    /// Records the size message `id` came with (its raw copy may be cut at the size limit).
    pub fn record_size(&self, id: i64, size: usize) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE messages SET size = ?2 WHERE id = ?1",
            params![id, size as i64],
        )?;
        Ok(())
    }

    /// Counts one more attempt at handling message `id`, to be committed before the attempt
    /// begins; returns the attempts begun so far, this one included.
    pub fn begin_attempt(&self, id: i64) -> rusqlite::Result<u32> {
        self.query_row_cached(
            "UPDATE messages SET attempts = attempts + 1 WHERE id = ?1 RETURNING attempts",
            [id],
            |r| r.get(0),
        )
    }

    /// Notes that the judge process `by` (`<pid>-<start time>`) is handling message `id`.
    pub fn mark_handling(&self, id: i64, by: &str) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE messages SET handled_by = ?2 WHERE id = ?1",
            params![id, by],
        )?;
        Ok(())
    }

    /// The messages stored but not yet settled, oldest first, with the process handling each
    /// (if one said so).
    pub fn unhandled_by(&self) -> rusqlite::Result<Vec<(i64, Option<String>)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, handled_by FROM messages WHERE state = 'new' ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// Takes back the last attempt at message `id`: it failed for want of the database (busy,
    /// full), which is no fault of the letter.
    pub fn give_back_attempt(&self, id: i64) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE messages SET attempts = MAX(attempts - 1, 0) WHERE id = ?1",
            [id],
        )?;
        Ok(())
    }

    /// Records why an attempt at a message not yet settled failed (kept as its reason).
    pub fn note_failed_attempt(&self, id: i64, why: &str) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE messages SET reason = ?2 WHERE id = ?1 AND state = 'new'",
            params![id, why],
        )?;
        Ok(())
    }

    /// The attempts begun at message `id` (0 if there is no such message).
    pub fn attempts(&self, id: i64) -> rusqlite::Result<u32> {
        Ok(self
            .query_row_cached("SELECT attempts FROM messages WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?
            .unwrap_or(0))
    }

    /// Quarantined messages with their reasons: `(message_id, reason)`, the Message-ID as
    /// the letter gave it.
    pub fn quarantine(&self) -> rusqlite::Result<Vec<(String, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT COALESCE(header_message_id, message_id), COALESCE(reason, '') FROM messages
             WHERE state = 'quarantined' ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    }

    /// Puts a composed letter in the outbox, to go out as soon as possible. Each attachment's
    /// body is stored once for the letters this transaction queues (a game's picture for
    /// each of its members), the letter holding a reference to it (migration 7).
    pub fn enqueue(
        &self,
        message_id: &str,
        recipients: &[String],
        letter: &Composed,
        caused_by: Option<i64>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        let pieces = letter.pieces();
        // A letter holding a NUL byte of its own (which lettre never writes) is kept whole,
        // and unmarked, so that nothing in it is ever taken for a reference.
        let parts = !pieces.is_empty() && !letter.raw.contains(&0);
        let raw = if !parts {
            letter.clone().whole()
        } else {
            let mut raw = Vec::with_capacity(letter.raw.len());
            let mut at = 0;
            for (start, end, body) in pieces {
                raw.extend_from_slice(&letter.raw[at..start]);
                raw.extend_from_slice(format!("\0part:{}\0", self.part(body, now)?).as_bytes());
                at = end;
            }
            raw.extend_from_slice(&letter.raw[at..]);
            raw
        };
        self.execute_cached(
            "INSERT INTO outbox (message_id, created_at, recipients, raw, next_attempt_at, caused_by, parts)
             VALUES (?1, ?2, ?3, ?4, ?2, ?5, ?6)",
            params![message_id, time_text(now), recipients.join(","), raw, caused_by, parts],
        )?;
        Ok(())
    }

    /// The id in `outbox_parts` of an attachment's body: the one this transaction stored
    /// already for an earlier letter, else a new one.
    /// Letters queued at another time get a body of their own, so that a body is removed only
    /// once every letter queued with it is settled (`purge_sent_parts`).
    fn part(&self, body: &[u8], now: DateTime<Utc>) -> rusqlite::Result<i64> {
        let queued_at = time_text(now);
        let mut parts = self.parts.borrow_mut();
        if let Some((_, _, id)) = parts
            .iter()
            .find(|(b, at, _)| *at == queued_at && b == body)
        {
            return Ok(*id);
        }
        self.execute_cached(
            "INSERT INTO outbox_parts (queued_at, bytes) VALUES (?1, ?2)",
            params![queued_at, body],
        )?;
        let id = self.tx.last_insert_rowid();
        // A phase's pictures: one per language of the game's members.
        if parts.len() >= 8 {
            parts.remove(0);
        }
        parts.push((body.to_vec(), queued_at, id));
        Ok(id)
    }

    /// Removes the bodies of attachments queued before `before` whose letters are all settled
    /// (no letter queued by then still waits to be sent), at most `limit` of them; the letters
    /// keep their text and read with an empty attachment. Returns how many were removed.
    pub fn purge_sent_parts(&self, before: DateTime<Utc>, limit: usize) -> rusqlite::Result<usize> {
        let oldest_pending: Option<String> = self
            .query_row_cached(
                "SELECT created_at FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        let before = time_text(before);
        let before = match oldest_pending {
            Some(pending) if pending <= before => pending,
            _ => before,
        };
        self.execute_cached(
            "UPDATE outbox_parts SET bytes = NULL WHERE id IN (
                 SELECT id FROM outbox_parts WHERE bytes IS NOT NULL AND queued_at < ?1
                 ORDER BY queued_at LIMIT ?2)",
            params![before, limit as i64],
        )
    }

    /// A letter of the outbox made whole: in one marked `parts`, each reference to a stored
    /// body replaced by it.
    fn whole_letter(&self, (mut row, parts): (OutboxRow, bool)) -> rusqlite::Result<OutboxRow> {
        const MARK: &[u8] = b"\0part:";
        if !parts {
            return Ok(row);
        }
        let mut whole = Vec::with_capacity(row.raw.len() * 2);
        let mut rest = row.raw.as_slice();
        while let Some(start) = rest.windows(MARK.len()).position(|w| w == MARK) {
            let after = &rest[start + MARK.len()..];
            let Some(end) = after.iter().position(|b| *b == 0) else {
                break;
            };
            let id: Option<i64> = std::str::from_utf8(&after[..end])
                .ok()
                .and_then(|t| t.parse().ok());
            // A body removed after its letters were sent leaves the attachment empty.
            let body: Option<Vec<u8>> = match id {
                Some(id) => self
                    .query_row_cached("SELECT bytes FROM outbox_parts WHERE id = ?1", [id], |r| {
                        r.get::<_, Option<Vec<u8>>>(0)
                    })
                    .optional()?
                    .map(Option::unwrap_or_default),
                None => None,
            };
            whole.extend_from_slice(&rest[..start]);
            match body {
                Some(body) => whole.extend_from_slice(&body),
                // Not a reference the judge wrote: left as it stands.
                None => whole.extend_from_slice(&rest[start..start + MARK.len() + end + 1]),
            }
            rest = &after[end + 1..];
        }
        whole.extend_from_slice(rest);
        row.raw = whole;
        Ok(row)
    }

    /// Letters due to be sent now, oldest first.
    pub fn due_letters(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> rusqlite::Result<Vec<OutboxRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, message_id, recipients, raw, attempts, parts FROM outbox
             WHERE state = 'pending' AND next_attempt_at <= ?1 ORDER BY id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![time_text(now), limit as i64], outbox_row)?;
        let rows: Vec<(OutboxRow, bool)> = rows.collect::<rusqlite::Result<_>>()?;
        drop(stmt);
        rows.into_iter().map(|row| self.whole_letter(row)).collect()
    }

    /// Every letter waiting to be sent, in the order queued, with whether it is due at `now`.
    pub fn outbox_queue(&self, now: DateTime<Utc>) -> rusqlite::Result<Vec<QueuedLetter>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, recipients, next_attempt_at <= ?1, claimed_by FROM outbox
             WHERE state = 'pending' ORDER BY id",
        )?;
        let rows = stmt.query_map([time_text(now)], |r| {
            let recipients: String = r.get(1)?;
            Ok(QueuedLetter {
                id: r.get(0)?,
                recipients: split_recipients(&recipients),
                due: r.get(2)?,
                claimed_by: r.get(3)?,
            })
        })?;
        rows.collect()
    }

    /// Claims a due letter for sending by the process `me` (`<pid>-<start time>`), so that
    /// another process on the same database (`strategos deliver` beside `strategos run`) does
    /// not send it too; a claim held by `stale` (a process that is gone) is taken over. Whether
    /// it was claimed: it was still pending, due, and not another live process's.
    pub fn claim_outbox(
        &self,
        id: i64,
        now: DateTime<Utc>,
        me: &str,
        stale: Option<&str>,
    ) -> rusqlite::Result<bool> {
        let claimed = self.execute_cached(
            "UPDATE outbox SET claimed_by = ?3
             WHERE id = ?1 AND state = 'pending' AND next_attempt_at <= ?2
               AND (claimed_by IS NULL OR claimed_by = ?3 OR claimed_by = ?4)",
            params![id, time_text(now), me, stale],
        )?;
        Ok(claimed == 1)
    }

    /// Gives back a claim: no one is sending the letter.
    pub fn release_outbox(&self, id: i64) -> rusqlite::Result<()> {
        self.execute_cached("UPDATE outbox SET claimed_by = NULL WHERE id = ?1", [id])?;
        Ok(())
    }

    /// One letter of the outbox, whatever its state.
    pub fn outbox_letter(&self, id: i64) -> rusqlite::Result<Option<OutboxRow>> {
        self.query_row_cached(
            "SELECT id, message_id, recipients, raw, attempts, parts FROM outbox WHERE id = ?1",
            [id],
            outbox_row,
        )
        .optional()?
        .map(|row| self.whole_letter(row))
        .transpose()
    }

    /// Outbox letter `id` without its bytes.
    pub fn outbox_envelope(&self, id: i64) -> rusqlite::Result<Option<OutboxEnvelope>> {
        self.query_row_cached(
            "SELECT message_id, recipients FROM outbox WHERE id = ?1",
            [id],
            |r| {
                Ok(OutboxEnvelope {
                    id,
                    message_id: r.get(0)?,
                    recipients: split_recipients(&r.get::<_, String>(1)?),
                })
            },
        )
        .optional()
    }

    pub fn mark_sent(&self, id: i64, now: DateTime<Utc>) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE outbox SET state = 'sent', sent_at = ?2, attempts = attempts + 1, claimed_by = NULL
             WHERE id = ?1",
            params![id, time_text(now)],
        )?;
        Ok(())
    }

    /// A transient failure: try again later, waiting longer each time (1, 2, 4... minutes, at
    /// most six hours); after `max_attempts` the letter is given up.
    pub fn mark_retry(
        &self,
        id: i64,
        error: &str,
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<bool> {
        let attempts: u32 =
            self.query_row_cached("SELECT attempts FROM outbox WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        let attempts = attempts + 1;
        if attempts >= max_attempts {
            self.mark_failed(id, error, now)?;
            return Ok(false);
        }
        let wait = Duration::minutes(1i64 << attempts.min(9)).min(Duration::hours(6));
        self.execute_cached(
            "UPDATE outbox SET attempts = ?2, last_error = ?3, next_attempt_at = ?4, claimed_by = NULL
             WHERE id = ?1",
            params![id, attempts, error, time_text(now + wait)],
        )?;
        Ok(true)
    }

    /// A permanent failure: recorded with the reason, never retried.
    pub fn mark_failed(&self, id: i64, error: &str, now: DateTime<Utc>) -> rusqlite::Result<()> {
        self.execute_cached(
            "UPDATE outbox SET state = 'failed', attempts = attempts + 1, last_error = ?2, sent_at = ?3 WHERE id = ?1",
            params![id, error, time_text(now)],
        )?;
        Ok(())
    }

    /// Counts one letter from `sender` in the current hour; returns the count so far.
    pub fn count_letter(&self, sender: &str, now: DateTime<Utc>) -> rusqlite::Result<u32> {
        let hour = now.format("%Y-%m-%dT%H").to_string();
        self.execute_cached(
            "INSERT INTO rate (sender, hour, count) VALUES (?1, ?2, 1)
             ON CONFLICT (sender, hour) DO UPDATE SET count = count + 1",
            params![sender, hour],
        )?;
        self.query_row_cached(
            "SELECT count FROM rate WHERE sender = ?1 AND hour = ?2",
            params![sender, hour],
            |r| r.get(0),
        )
    }
}

impl Tx<'_> {
    /// How many answers with this digest were sent to `recipient`, and when the last was.
    pub fn answers_sent(
        &self,
        recipient: &str,
        digest: &str,
    ) -> rusqlite::Result<Option<(u32, DateTime<Utc>)>> {
        let row: Option<(u32, String)> = self
            .query_row_cached(
                "SELECT count, last_at FROM answers WHERE recipient = ?1 AND digest = ?2",
                params![recipient, digest],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(row.and_then(|(count, last)| Some((count, super::parse_time(&last)?))))
    }

    /// Records one more answer with this digest sent to `recipient` now.
    pub fn record_answer(
        &self,
        recipient: &str,
        digest: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        self.execute_cached(
            "INSERT INTO answers (recipient, digest, count, last_at) VALUES (?1, ?2, 1, ?3)
             ON CONFLICT (recipient, digest) DO UPDATE SET count = count + 1, last_at = ?3",
            params![recipient, digest, time_text(now)],
        )?;
        Ok(())
    }

    /// Where the letter with `message_id` stands in the outbox's queue (its row, by which
    /// letters are sent in the order they were written), if it is there.
    pub fn outbox_place(&self, message_id: &str) -> rusqlite::Result<Option<i64>> {
        self.query_row_cached(
            "SELECT id FROM outbox WHERE message_id = ?1",
            [message_id],
            |r| r.get(0),
        )
        .optional()
    }

    /// Letters in the outbox by state: `(pending, sent, failed)`.
    pub fn outbox_counts(&self) -> rusqlite::Result<(i64, i64, i64)> {
        self.query_row_cached(
            "SELECT COALESCE(SUM(state = 'pending'), 0), COALESCE(SUM(state = 'sent'), 0), COALESCE(SUM(state = 'failed'), 0) FROM outbox",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
    }
}

/// An outbox row from `SELECT id, message_id, recipients, raw, attempts`.
/// An outbox row, and whether its letter holds references to stored bodies (`parts`).
fn outbox_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(OutboxRow, bool)> {
    let recipients: String = r.get(2)?;
    Ok((
        OutboxRow {
            id: r.get(0)?,
            message_id: r.get(1)?,
            recipients: split_recipients(&recipients),
            raw: r.get(3)?,
            attempts: r.get(4)?,
        },
        r.get(5)?,
    ))
}
