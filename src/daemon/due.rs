//! The clock's work in a round: reminders and phases due now, each game in a transaction of
//! its own with the letters it queues, in order. When several games are due and the machine
//! has more than one core, their results pictures (the costly part, several times the rest of
//! a game's work) are painted ahead by a thread a core: before each game is
//! processed, the games a few places after it are foreseen (`Judge::foresee_pictures`, which
//! only reads) and their scenes queued for painting threads; processing a game takes its
//! picture painted (`judge::pictures::PicturesAhead`), or paints it itself when no thread
//! has begun it. A game's state, reports and letters still commit in its own transaction,
//! one game after another; only the painting runs beside.

use super::*;

/// Games foreseen ahead of the one being processed, for each painting thread: enough to
/// keep the threads busy, few enough that the painted pictures waiting (about 190 kB each,
/// one a language a game) stay a few megabytes.
const AHEAD_PER_PAINTER: usize = 3;

/// Painting threads at most, whatever the cores: each holds a picture's pixels (about
/// 7 MB) while it paints.
const MOST_PAINTERS: usize = 8;

impl Daemon {
    /// Reminders and phases due now, each game in a transaction of its own with its letters
    /// queued in it (the number of letters is returned): a thousand games whose deadline
    /// passes at once hold one game's letters (and a few pictures painted ahead) in memory at
    /// a time, and each game's result is kept as soon as it is made.
    pub(super) fn tick(&mut self) -> usize {
        let now = self.clock.now();
        let due = (|| -> rusqlite::Result<Vec<i64>> {
            let tx = self.store.begin()?;
            let due = self.judge.due_games(&tx, now)?;
            tx.commit()?;
            Ok(due)
        })();
        let due = match due {
            Ok(due) => due,
            Err(e) => {
                warn!(error = %e, "processing deadlines failed; trying again next round");
                return 0;
            }
        };
        // A painter a core: the calling thread's own work (about a tenth of a game's) and its
        // waits leave the cores to them, and it paints whatever it finds unclaimed when its
        // game comes. One core: nothing to gain.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let painters = if cores > 1 {
            cores.min(MOST_PAINTERS)
        } else {
            0
        };
        let Daemon { judge, store, .. } = self;
        if painters == 0 || due.len() < 2 || !judge.config.maps.results_pictures {
            return Self::tick_games(judge, store, &due, 0, now);
        }
        let judge = &*judge;
        let ahead = &judge.pictures_ahead;
        ahead.open();
        std::thread::scope(|scope| {
            for _ in 0..painters {
                // Named, so that `top` and profiles tell them from the loop.
                let painter = std::thread::Builder::new()
                    .name("painter".into())
                    .spawn_scoped(scope, move || ahead.paint_queue(judge));
                if let Err(e) = painter {
                    warn!(error = %e, "cannot start a painting thread; the games paint their own");
                }
            }
            let sent = Self::tick_games(judge, store, &due, painters * AHEAD_PER_PAINTER, now);
            ahead.close();
            sent
        })
    }

    /// Each game of `due` in its own transaction, in order; before each, the games up to
    /// `ahead` places after it foreseen for the painting threads (in the same transaction:
    /// foreseeing only reads).
    fn tick_games(
        judge: &Judge,
        store: &mut Store,
        due: &[i64],
        ahead: usize,
        now: DateTime<Utc>,
    ) -> usize {
        let mut sent = 0;
        let mut foreseen = 0;
        for (n, &id) in due.iter().enumerate() {
            let result = (|| -> rusqlite::Result<usize> {
                let tx = store.begin()?;
                while ahead > 0 && foreseen < due.len().min(n + 1 + ahead) {
                    let game = due[foreseen];
                    foreseen += 1;
                    match judge.foresee_pictures(&tx, game, now) {
                        Ok(scenes) => scenes
                            .into_iter()
                            .for_each(|s| judge.pictures_ahead.foreseen(s)),
                        // Only time is lost: the game paints its own picture.
                        Err(e) => warn!(game, error = %e, "cannot foresee a game's picture"),
                    }
                }
                let letters = judge.tick_game(&tx, id, now)?;
                let mut encodings = Encodings::default();
                for letter in &letters {
                    Self::queue_sharing(judge, &tx, letter, None, now, &mut encodings)?;
                }
                tx.commit()?;
                Ok(letters.len())
            })();
            match result {
                Ok(n) => sent += n,
                Err(e) => {
                    warn!(game = id, error = %e, "processing a game's deadline failed; trying again next round");
                }
            }
        }
        sent
    }
}
