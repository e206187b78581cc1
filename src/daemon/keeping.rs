//! What the daemon removes once its time is up: the bodies of quarantined letters after
//! `limits.keep_quarantined_days`, and the pictures letters carried after
//! `limits.keep_sent_attachments_days`. Each round removes a hundred of each at most; the
//! headers and the letters' text stay.

use super::*;

impl Daemon {
    /// The moment `days` of keeping reach back to from now; `None` when they reach beyond
    /// the calendar (then nothing is old enough to remove).
    fn kept_since(&self, days: u32) -> Option<DateTime<Utc>> {
        self.clock
            .now()
            .checked_sub_signed(chrono::Duration::days(i64::from(days)))
    }

    /// Removes the bodies of the attachments (pictures) of letters sent more than
    /// `limits.keep_sent_attachments_days` ago, a hundred a round at most; the letters' text
    /// stays. A failure is logged and tried again next round. Returns how many.
    pub(super) fn purge_sent_attachments(&mut self) -> usize {
        const MOST_PER_ROUND: usize = 100;
        let Some(before) = self.kept_since(self.judge.config.limits.keep_sent_attachments_days)
        else {
            return 0;
        };
        let result = self.store.begin().and_then(|tx| {
            let removed = tx.purge_sent_parts(before, MOST_PER_ROUND)?;
            tx.commit()?;
            Ok(removed)
        });
        match result {
            Ok(removed) => removed,
            Err(e) => {
                warn!(error = %e, "cannot remove the attachments of letters sent long ago");
                0
            }
        }
    }

    /// Removes the bodies of quarantined letters kept longer than
    /// `limits.keep_quarantined_days` (their headers stay), a hundred a round at most.
    /// Returns how many.
    pub(super) fn purge_quarantine(&mut self) -> usize {
        const MOST_PER_ROUND: usize = 100;
        let Some(before) = self.kept_since(self.judge.config.limits.keep_quarantined_days) else {
            return 0;
        };
        let result = (|| -> rusqlite::Result<usize> {
            let tx = self.store.begin()?;
            let old = tx.quarantined_before(before, MOST_PER_ROUND)?;
            for (id, raw) in &old {
                tx.replace_raw(*id, &purged(raw), RawState::Purged)?;
            }
            tx.commit()?;
            Ok(old.len())
        })();
        match result {
            Ok(n) => {
                if n > 0 {
                    info!(
                        letters = n,
                        "quarantined letters past their retention purged"
                    );
                }
                n
            }
            Err(e) => {
                warn!(error = %e, "purging the quarantine failed; trying again next round");
                0
            }
        }
    }
}
