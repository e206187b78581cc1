//! The daemon's outbox: sending what is due in the order it was queued (a letter waiting for
//! its retry holds back the later letters to the same address), each letter claimed by the
//! process sending it so that two judge processes on one database never send it twice, and
//! the keeper told of letters that could not be delivered; and `queue`, how a letter is put
//! in it (composed, with its Message-ID and its game's thread).

use super::*;

/// What one sending round did.
#[derive(Debug, Default, Clone, Copy)]
struct Sending {
    /// Letters sent.
    sent: usize,
    /// Due letters not sent because another live judge process is sending an earlier letter
    /// to one of their addresses (or because the round was full): sending again soon sends
    /// them.
    behind_others: usize,
}

impl Daemon {
    /// Sends what the outbox holds that is due; returns how many went out.
    ///
    /// Letters to one address leave in the order they were queued: once a letter waits (its
    /// retry is not due yet, or it has just failed for a while), every later letter sharing a
    /// recipient with it waits too, so that a newer letter (a report) never overtakes an older
    /// one being retried (the answer before it) when the server comes back. Letters to other
    /// addresses go on. A sending that cannot be recorded (the database busy or full) ends the
    /// round, so no more letters go out than the outbox can account for.
    pub fn flush(&mut self) -> usize {
        self.send_due().sent
    }

    /// For `strategos deliver`, after its round: sends again while letters wait behind a
    /// letter to the same address that another live judge process is sending, calling
    /// `pause` between tries (at most `most` times), so that the process does not exit with
    /// an answer it caused left in the outbox. Two letters from one player piped at once are
    /// answered by two processes: the later answer waits for the earlier one to leave, and
    /// the process that queued it may be the only one left to send it. Returns how many went
    /// out.
    pub fn send_before_leaving(&mut self, most: usize, pause: &mut dyn FnMut()) -> usize {
        let mut sending = self.send_due();
        let mut sent = sending.sent;
        for _ in 0..most {
            if sending.behind_others == 0 {
                break;
            }
            pause();
            sending = self.send_due();
            sent += sending.sent;
        }
        if sending.behind_others > 0 {
            warn!(
                letters = sending.behind_others,
                "letters still wait behind another judge process's; the next round sends them"
            );
        }
        sent
    }

    /// Sends what is due (see `flush`).
    fn send_due(&mut self) -> Sending {
        const MOST_PER_ROUND: usize = 500;
        let now = self.clock.now();
        let from = self.judge.config.judge.address.clone();
        let max_attempts = self.judge.config.outbox.max_attempts;
        let queue = match self.store.begin().and_then(|tx| tx.outbox_queue(now)) {
            Ok(q) => q,
            Err(e) => {
                warn!(error = %e, "cannot read the outbox");
                return Sending::default();
            }
        };
        // The letters to try now, in the order queued, skipping those behind a waiting one. A
        // letter another live judge process is sending (`deliver` beside `run`) waits too.
        let me = process_token();
        let mut waiting: HashSet<String> = HashSet::new();
        // Addresses whose next letter is another live process's to send: the letters behind
        // it wait for that process, not for a retry.
        let mut held: HashSet<String> = HashSet::new();
        let mut behind_others = 0;
        let mut chosen = Vec::new();
        for queued in queue {
            let recipients: Vec<String> =
                queued.recipients.iter().map(|r| r.to_lowercase()).collect();
            let stale = queued
                .claimed_by
                .clone()
                .filter(|c| *c != me && !process_alive(c));
            let theirs = queued.claimed_by.is_some()
                && stale.is_none()
                && queued.claimed_by.as_deref() != Some(me.as_str());
            let behind = recipients.iter().any(|r| waiting.contains(r));
            if theirs || recipients.iter().any(|r| held.contains(r)) {
                if !theirs && queued.due {
                    behind_others += 1;
                }
                held.extend(recipients.iter().cloned());
                waiting.extend(recipients);
            } else if !queued.due || behind {
                waiting.extend(recipients);
            } else if chosen.len() >= MOST_PER_ROUND {
                // Left for the next round, which comes at once in `send_before_leaving`.
                behind_others += 1;
                waiting.extend(recipients);
            } else {
                chosen.push((queued.id, recipients, stale));
            }
        }
        // Each letter is claimed before it is sent (another judge process on the database may be
        // flushing too), and only the letters this round claimed go. One that another process
        // claimed since the queue was read holds back the later letters to its addresses.
        let letters = self.store.begin().and_then(|tx| {
            let mut letters = Vec::new();
            let mut taken: HashSet<String> = HashSet::new();
            for (id, recipients, stale) in &chosen {
                if recipients.iter().any(|r| taken.contains(r)) {
                    behind_others += 1;
                } else if tx.claim_outbox(*id, now, &me, stale.as_deref())? {
                    // Its bytes are read when it is sent: a round's letters, each carrying a
                    // picture, would otherwise all be in memory at once.
                    letters.push(tx.outbox_envelope(*id)?);
                    continue;
                }
                taken.extend(recipients.iter().cloned());
            }
            tx.commit()?;
            Ok(letters)
        });
        let letters = match letters {
            Ok(letters) => letters.into_iter().flatten().collect::<Vec<_>>(),
            Err(e) => {
                warn!(error = %e, "cannot read the outbox");
                return Sending::default();
            }
        };
        let mut staged = self.stage_round(&from, &letters);
        let mut sent = 0;
        // The claimed letters not sent nor recorded this round: released for the next one.
        let mut unsettled: Vec<i64> = letters.iter().map(|l| l.id).collect();
        // Addresses whose letter failed a moment ago in this round: their later letters wait.
        // (Not `waiting`, which also holds addresses whose later letters were merely left for
        // the next round; their earlier letters, chosen above, go now.)
        let mut failed: HashSet<String> = HashSet::new();
        for letter in letters {
            let recipients: Vec<String> =
                letter.recipients.iter().map(|r| r.to_lowercase()).collect();
            if recipients.iter().any(|r| failed.contains(r)) {
                failed.extend(recipients);
                continue;
            }
            let outcome = match staged.remove(&letter.id) {
                Some(outcome) => outcome,
                None => self
                    .letter_bytes(letter.id)
                    .and_then(|raw| self.transport.send(&from, &letter.recipients, &raw)),
            };
            let result = self.store.begin().and_then(|tx| {
                match &outcome {
                    Ok(()) => tx.mark_sent(letter.id, now)?,
                    Err(SendError::Transient(e) | SendError::Unavailable(e)) => {
                        if !tx.mark_retry(letter.id, e, max_attempts, now)? {
                            let why = format!("given up after {max_attempts} attempts: {e}");
                            Self::tell_keeper(&self.judge, &tx, &letter.recipients, &why, now)?;
                        }
                    }
                    Err(SendError::Permanent(e)) => {
                        tx.mark_failed(letter.id, e, now)?;
                        let why = format!("refused for good: {e}");
                        Self::tell_keeper(&self.judge, &tx, &letter.recipients, &why, now)?;
                    }
                }
                tx.commit()
            });
            if result.is_ok() {
                unsettled.retain(|id| *id != letter.id);
            }
            match (&outcome, result) {
                (Ok(()), Ok(())) => sent += 1,
                (_, Err(e)) => {
                    // Sent (or refused) but not recorded: it will be tried again, so send no
                    // more until the store can keep count.
                    warn!(message_id = %letter.message_id, error = %e, "cannot record a sending; no more sending this round");
                    break;
                }
                (Err(SendError::Unavailable(e)), Ok(())) => {
                    // The way out does not work: no other letter would go either, and each
                    // would wait for its own failure (a minute for a hung command).
                    warn!(message_id = %letter.message_id, error = %e, "a letter was not sent, and no more are tried this round");
                    break;
                }
                (Err(e), Ok(())) => {
                    warn!(message_id = %letter.message_id, error = %e, "a letter was not sent");
                    if e.is_transient() {
                        failed.extend(recipients);
                    }
                }
            }
        }
        if !unsettled.is_empty() {
            let released = self.store.begin().and_then(|tx| {
                for id in &unsettled {
                    tx.release_outbox(*id)?;
                }
                tx.commit()
            });
            if let Err(e) = released {
                warn!(error = %e, "cannot release the letters not sent; they wait for their lease");
            }
        }
        Sending {
            sent,
            behind_others,
        }
    }

    /// For a transport that stages (the sent Maildir): stages the letters `flush` is about to
    /// send, skipping those it would skip (behind a failure to the same address), then settles
    /// them together, so that the disk is waited for once a round rather than twice a letter.
    /// Returns each staged letter's outcome by outbox id; `flush` records them after this, so
    /// a letter marked sent is on disk (docs/reliability.md). Other transports: nothing.
    fn stage_round(
        &mut self,
        from: &str,
        letters: &[crate::store::OutboxEnvelope],
    ) -> HashMap<i64, Result<(), SendError>> {
        let mut outcomes = HashMap::new();
        if !self.transport.stages() {
            return outcomes;
        }
        let mut failed: HashSet<String> = HashSet::new();
        for letter in letters {
            let recipients: Vec<String> =
                letter.recipients.iter().map(|r| r.to_lowercase()).collect();
            if recipients.iter().any(|r| failed.contains(r)) {
                failed.extend(recipients);
                continue;
            }
            let outcome = self
                .letter_bytes(letter.id)
                .and_then(|raw| self.transport.stage(from, &letter.recipients, &raw));
            let unavailable = matches!(outcome, Err(SendError::Unavailable(_)));
            if matches!(outcome, Err(SendError::Transient(_))) {
                failed.extend(recipients);
            }
            outcomes.insert(letter.id, outcome);
            if unavailable {
                break;
            }
        }
        if let Err(e) = self.transport.settle() {
            for outcome in outcomes.values_mut().filter(|o| o.is_ok()) {
                *outcome = Err(e.clone());
            }
        }
        outcomes
    }

    /// The bytes of outbox letter `id`, made whole, read when it is sent.
    fn letter_bytes(&mut self, id: i64) -> Result<Vec<u8>, SendError> {
        let read = self.store.begin().and_then(|tx| tx.outbox_letter(id));
        match read {
            Ok(Some(row)) => Ok(row.raw),
            Ok(None) => Err(SendError::Transient(format!(
                "letter {id} is no longer in the outbox"
            ))),
            Err(e) => Err(SendError::Transient(format!(
                "cannot read letter {id} from the outbox: {e}"
            ))),
        }
    }

    /// Tells the keeper that a letter could not be delivered (never about letters to the
    /// keeper, so a broken keeper address does not loop).
    fn tell_keeper(
        judge: &Judge,
        tx: &Tx,
        recipients: &[String],
        error: &str,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        let keeper = judge.config.judge.keeper.to_lowercase();
        if recipients.iter().any(|r| r.to_lowercase() == keeper) {
            return Ok(());
        }
        let letter = OutgoingLetter::fresh(
            &keeper,
            format!("Undeliverable: a letter to {}", recipients.join(", ")),
            format!(
                "A letter to {} could not be delivered: {error}\nThe games go on.\n",
                recipients.join(", ")
            ),
        );
        Self::queue(judge, tx, &letter, None, now)
    }
}

/// This process as the outbox's claims name it: its pid and its start time (so a new process
/// given the same pid is another one), from `/proc/self/stat`.
pub fn process_token() -> String {
    // Read once: a process's id and start time do not change while it runs.
    static TOKEN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TOKEN
        .get_or_init(|| {
            let pid = std::process::id();
            format!("{pid}-{}", start_time(pid).unwrap_or_default())
        })
        .clone()
}

/// When process `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in brackets and may hold spaces: count after it.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process a claim names still runs (the same pid, started at the same time).
pub(super) fn process_alive(token: &str) -> bool {
    let Some((pid, started)) = token.split_once('-') else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    match start_time(pid) {
        Some(now) => started == now.to_string(),
        None => false,
    }
}

impl Daemon {
    /// Composes a letter and puts it in the outbox.
    pub fn queue(
        judge: &Judge,
        tx: &Tx,
        letter: &OutgoingLetter,
        caused_by: Option<i64>,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<()> {
        Self::queue_sharing(judge, tx, letter, caused_by, now, &mut Encodings::default())
    }

    /// `queue`, the attachments encoded once for the letters queued with the same
    /// `encodings` (a game's results letters, which carry one picture).
    pub(super) fn queue_sharing(
        judge: &Judge,
        tx: &Tx,
        letter: &OutgoingLetter,
        caused_by: Option<i64>,
        now: DateTime<Utc>,
        encodings: &mut Encodings,
    ) -> rusqlite::Result<()> {
        let judge = &judge.config.judge;
        let domain = judge.address.rsplit('@').next().unwrap_or("localhost");
        let message_id = crate::mail::compose::message_id(now, domain);
        let from = Address {
            email: judge.address.clone(),
            name: Some(judge.name.clone()),
        };
        // Every letter about a game (`OutgoingLetter::game`, set where it is written) refers to
        // the game's thread, so mail readers keep a game's letters together.
        let in_thread = letter
            .game
            .as_deref()
            .map(|name| tx.game_by_name(name))
            .transpose()?
            .flatten()
            .map(|game| crate::judge::phases::subjects::thread_root(&judge.address, &game))
            .filter(|root| !letter.references.contains(root))
            .map(|root| {
                let mut threaded = letter.clone();
                threaded.references.insert(0, root);
                threaded
            });
        let raw = compose_sharing(
            in_thread.as_ref().unwrap_or(letter),
            &from,
            &message_id,
            now,
            encodings,
        );
        let recipients: Vec<String> = letter.to.iter().map(|a| a.email.clone()).collect();
        tx.enqueue(&message_id, &recipients, &raw, caused_by, now)
    }
}
