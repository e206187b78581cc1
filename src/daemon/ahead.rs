//! Idle time spent on the next deadline: while no letter waits and no game is due, the
//! results pictures of the games whose orders changed are painted, a batch at a time on every
//! core, as their deadlines would paint them if the orders stay so, and kept in the store
//! (`pictures_ahead`). A deadline then takes a game's picture from there when it shows
//! exactly the phase played (the digest of all it shows is the same), and paints it as
//! before when the orders changed since. A thousand games reaching one deadline thus do
//! their costly part in the quiet hours before it.

use super::*;
use crate::judge::phases::pictures::ResultsScene;
use crate::lang::Lang;

/// Games looked at in one batch for each painting thread: a batch is over in a fraction of
/// a second, so a letter arriving meanwhile waits no longer than that.
const GAMES_PER_PAINTER: usize = 4;

/// Painting threads at most, whatever the cores (each holds a picture's pixels, about 7 MB,
/// while it paints).
const MOST_PAINTERS: usize = 8;

/// A picture painted ahead: its game, language, digest and PNG.
type Painted = (i64, Lang, [u8; 32], Vec<u8>);

/// The games wanted in a batch, and the scenes foreseen for them with their games.
type Wanted = (Vec<i64>, Vec<(i64, ResultsScene)>);

impl Daemon {
    /// Paints one batch of the pictures wanted ahead of their deadlines and keeps them;
    /// returns whether any game was wanted (more may be). Nothing when results carry no
    /// pictures. The loop calls it between rounds while it has nothing else to do.
    pub fn paint_ahead(&mut self) -> bool {
        if !self.judge.config.maps.results_pictures {
            return false;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let painters = cores.clamp(1, MOST_PAINTERS);
        let wanted = (|| -> rusqlite::Result<Wanted> {
            let tx = self.store.begin()?;
            tx.forget_pictures_of_stopped_games()?;
            let ids = tx.pictures_wanted(painters * GAMES_PER_PAINTER)?;
            let mut scenes = Vec::new();
            for &id in &ids {
                match self.judge.foresee_pictures_ahead(&tx, id) {
                    Ok(found) => scenes.extend(found.into_iter().map(|s| (id, s))),
                    // Only time is lost: the deadline paints the picture.
                    Err(e) => warn!(game = id, error = %e, "cannot foresee a game's picture"),
                }
            }
            tx.commit()?;
            Ok((ids, scenes))
        })();
        let (ids, scenes) = match wanted {
            Ok(wanted) => wanted,
            Err(e) => {
                warn!(error = %e, "cannot read the pictures wanted ahead");
                return false;
            }
        };
        if ids.is_empty() {
            return false;
        }
        let judge = &self.judge;
        let share = scenes.len().div_ceil(painters).max(1);
        let painted: Vec<Painted> = std::thread::scope(|scope| {
            let threads: Vec<_> = scenes
                .chunks(share)
                .map(|chunk| {
                    scope.spawn(move || {
                        chunk
                            .iter()
                            .filter_map(|(id, scene)| {
                                // A picture that cannot be painted is the deadline's to paint.
                                let picture =
                                    catch_unwind(AssertUnwindSafe(|| judge.paint_scene(scene)))
                                        .ok()
                                        .flatten()?;
                                Some((*id, scene.language(), *scene.key(), picture.bytes))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            threads
                .into_iter()
                .flat_map(|t| t.join().unwrap_or_default())
                .collect()
        });
        let kept = (|| -> rusqlite::Result<()> {
            let tx = self.store.begin()?;
            for (id, language, key, png) in &painted {
                tx.keep_picture_ahead(*id, *language, key, png)?;
            }
            for &id in &ids {
                tx.picture_painted(id)?;
            }
            tx.commit()
        })();
        if let Err(e) = kept {
            warn!(error = %e, "cannot keep the pictures painted ahead");
            return false;
        }
        true
    }
}
