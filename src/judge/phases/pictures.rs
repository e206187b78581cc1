//! The picture of a game's board that letters carry, as `map.png`: after each phase the new
//! position with the orders just played and the retreats they left (results letters, unless
//! the master said `SET GAME MAP OFF` or the player `SET MAP OFF`), and the board as it
//! stands for `GET MAP game`. Drawing is `crate::drawing`; this says what to draw. A busy
//! deadline's results pictures are foreseen and painted ahead on other cores
//! (`PicturesAhead`).

use std::collections::HashMap;
use std::sync::{Condvar, Mutex};

use blake2::{Blake2b512, Digest};
use chrono::{DateTime, Utc};

use crate::diplomacy::adjudicate::{Resolution, RetreatOptions, Submitted};
use crate::diplomacy::position::Position;
use crate::drawing::DrawnOrder;
use crate::drawing::{self, Scene, orders::drawn_orders};
use crate::game::GameState;
use crate::lang::Lang;
use crate::letter::Attachment;
use crate::report::messages::Words;
use crate::store::{GameRow, Tx};
use crate::tr;
use crate::variant::Variant;

/// The file name a picture is sent as.
pub const FILE_NAME: &str = "map.png";

fn attachment(svg: &str) -> Option<Attachment> {
    png_attachment(drawing::png::render_png(svg, 1.0)?)
}

/// A PNG picture as the attachment letters carry (`map.png`).
pub(crate) fn png_attachment(bytes: Vec<u8>) -> Option<Attachment> {
    Some(Attachment {
        name: FILE_NAME.to_string(),
        media_type: "image/png".to_string(),
        bytes,
    })
}

/// The picture of `next`, the board after a phase: the phase's orders drawn from where they
/// were given, failed ones marked, and the units dislodged with their retreats; owned, so
/// that it can be painted on another thread (`PicturesAhead`). Its `key` is a digest of
/// everything painted, so two equal keys are one picture.
pub struct ResultsScene {
    variant: String,
    language: Lang,
    title: String,
    next: Position,
    orders: Vec<DrawnOrder>,
    retreats: Vec<RetreatOptions>,
    key: [u8; 32],
}

impl ResultsScene {
    /// The results picture of the phase played from `before` with `submitted`, leading to
    /// `next`; `None` when the variant has no map.
    pub fn new(
        words: Words,
        variant: &Variant,
        game: &GameRow,
        before: &Position,
        submitted: &[Submitted],
        resolution: &Resolution,
        next: &Position,
    ) -> Option<ResultsScene> {
        variant.layout.as_deref()?;
        let orders = drawn_orders(words, &variant.map, before, submitted, &resolution.outcomes);
        let title = tr!(
            words,
            "map.title_result",
            game = game.name,
            played = drawing::phase_in(words, variant, before),
            next = drawing::phase_in(words, variant, next)
        );
        let mut scene = ResultsScene {
            variant: variant.id.clone(),
            language: words.language(),
            title,
            next: next.clone(),
            orders,
            retreats: resolution.dislodged.clone(),
            key: [0; 32],
        };
        // Everything the picture shows, and the words it is written in.
        let mut digest = Blake2b512::new();
        for part in [
            scene.variant.as_str(),
            scene.language.code(),
            &scene.title,
            &format!("{:?}", scene.next),
            &format!("{:?}", scene.orders),
            &format!("{:?}", scene.retreats),
        ] {
            digest.update((part.len() as u64).to_le_bytes());
            digest.update(part.as_bytes());
        }
        scene.key.copy_from_slice(&digest.finalize()[..32]);
        Some(scene)
    }

    /// The digest of all the picture shows.
    pub fn key(&self) -> &[u8; 32] {
        &self.key
    }

    /// The language its words are in.
    pub fn language(&self) -> Lang {
        self.language
    }

    /// The picture painted (`variant` and `words` are the scene's own).
    fn paint(&self, variant: &Variant, words: Words) -> Option<Attachment> {
        let layout = variant.layout.as_deref()?;
        png_attachment(drawing::layers::board_png(
            &Scene {
                map: &variant.map,
                layout,
                position: &self.next,
                title: self.title.clone(),
                orders: self.orders.clone(),
                retreats: self.retreats.clone(),
            },
            words,
        )?)
    }
}

/// Results pictures painted ahead on other cores while the games of a busy deadline are
/// processed one after another: the daemon foresees the pictures of the games due next
/// (`Judge::foresee_pictures`) and hands them to painting threads; processing a game takes
/// its picture from here by the scene's key (waiting if it is being painted, painting it
/// itself if no thread has begun it), and paints one never foreseen as before. A picture is
/// found only by the digest of all it shows, so a foresight that proved wrong (the game
/// changed meanwhile) costs time, never a wrong picture.
#[derive(Default)]
pub struct PicturesAhead {
    slots: Mutex<Slots>,
    changed: Condvar,
    /// Pictures a game took painted by another thread, since the judge started.
    taken: std::sync::atomic::AtomicUsize,
}

#[derive(Default)]
struct Slots {
    /// Scenes waiting for a painter, in the order their games come.
    queue: std::collections::VecDeque<[u8; 32]>,
    by_key: HashMap<[u8; 32], Slot>,
    /// No more scenes come this round: painters stop once the queue is empty.
    closed: bool,
}

enum Slot {
    Waiting(Box<ResultsScene>),
    Painting,
    Painted(Option<Attachment>),
}

impl PicturesAhead {
    /// Puts a foreseen scene in the queue (once: a key already there is left).
    pub fn foreseen(&self, scene: ResultsScene) {
        let mut slots = self.lock();
        if let std::collections::hash_map::Entry::Vacant(slot) = slots.by_key.entry(scene.key) {
            let key = scene.key;
            slot.insert(Slot::Waiting(Box::new(scene)));
            slots.queue.push_back(key);
            self.changed.notify_all();
        }
    }

    /// Opens the queue for a round of painting.
    pub fn open(&self) {
        self.lock().closed = false;
    }

    /// Closes the queue: the painters stop when it is empty; what is left unclaimed is
    /// forgotten (foreseen for games that were not processed after all).
    pub fn close(&self) {
        let mut slots = self.lock();
        slots.closed = true;
        slots.queue.clear();
        slots.by_key.clear();
        self.changed.notify_all();
    }

    /// A painting thread's work: the queue's scenes painted one after another (each with its
    /// variant and words, from `judge`) until the queue is closed.
    pub fn paint_queue(&self, judge: &crate::judge::Judge) {
        loop {
            let scene = {
                let mut slots = self.lock();
                loop {
                    if let Some(key) = slots.queue.pop_front() {
                        match slots.by_key.insert(key, Slot::Painting) {
                            Some(Slot::Waiting(scene)) => break scene,
                            // Taken by the game's own processing meanwhile.
                            Some(other) => {
                                slots.by_key.insert(key, other);
                                continue;
                            }
                            None => {
                                slots.by_key.remove(&key);
                                continue;
                            }
                        }
                    }
                    if slots.closed {
                        return;
                    }
                    slots = self.changed.wait(slots).unwrap_or_else(|e| e.into_inner());
                }
            };
            let painted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                judge
                    .variant(&scene.variant)
                    .and_then(|v| scene.paint(v, judge.templates.words(scene.language)))
            }));
            let mut slots = self.lock();
            match painted {
                Ok(picture) => {
                    if let Some(slot) = slots.by_key.get_mut(&scene.key) {
                        *slot = Slot::Painted(picture);
                    }
                }
                // The game's own processing paints it, and fares as it would have.
                Err(_) => {
                    slots.by_key.remove(&scene.key);
                }
            }
            self.changed.notify_all();
        }
    }

    /// The picture of `scene`: painted ahead (waiting while a thread paints it), else painted
    /// now.
    pub fn take_or_paint(
        &self,
        scene: ResultsScene,
        variant: &Variant,
        words: Words,
    ) -> Option<Attachment> {
        let mut slots = self.lock();
        loop {
            match slots.by_key.remove(&scene.key) {
                Some(Slot::Painted(picture)) => {
                    self.taken
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return picture;
                }
                Some(Slot::Painting) => {
                    slots.by_key.insert(scene.key, Slot::Painting);
                    slots = self.changed.wait(slots).unwrap_or_else(|e| e.into_inner());
                }
                // Waiting (its queue entry is skipped by the painters), or never foreseen.
                Some(Slot::Waiting(_)) | None => break,
            }
        }
        drop(slots);
        scene.paint(variant, words)
    }

    /// How many pictures games took painted by another thread, since the judge started (for
    /// tests and benchmarks).
    pub fn taken_ahead(&self) -> usize {
        self.taken.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl crate::judge::Judge {
    /// The results pictures that processing game `id` now would paint, foreseen without
    /// changing anything: when its deadline (or its early processing) is due and its phase
    /// would be played (every order in, or the grace over under civil disorder), one scene
    /// per language of the members who get pictures. A wrong guess costs only painting.
    pub fn foresee_pictures(
        &self,
        tx: &Tx,
        id: i64,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<ResultsScene>> {
        let game = tx.game(id)?;
        let settings = &game.settings;
        let due = game.deadline_at.is_some_and(|d| d <= now)
            || game.process_at.is_some_and(|at| at <= now);
        if game.state != GameState::Active
            || !due
            || settings.paused
            || settings.manual_process
            || !settings.map
            || !self.config.maps.results_pictures
        {
            return Ok(Vec::new());
        }
        let Some((variant, position)) = self.game_position(&game) else {
            return Ok(Vec::new());
        };
        if variant.layout.is_none() {
            return Ok(Vec::new());
        }
        let played = self.play(tx, &game, variant, &position)?;
        let on_time = game.deadline_at.is_some_and(|d| d > now);
        let grace_over = game
            .deadline_at
            .is_some_and(|d| now >= settings.grace_end(game.phase_serial, position.turn.kind, d));
        if !played.missing.is_empty() && (on_time || !grace_over || !settings.civil_disorder) {
            return Ok(Vec::new());
        }
        let mut languages = std::collections::BTreeSet::new();
        // A picture already painted ahead and kept is not painted again.
        let kept = |scene: &ResultsScene| {
            tx.picture_ahead_key(game.id, scene.language)
                .ok()
                .flatten()
                .is_some_and(|key| key == scene.key)
        };
        for m in tx.members(game.id)? {
            let wants = tx.member_wishes(game.id, m.player_id)?.map.unwrap_or(true);
            if wants {
                languages.insert(self.language_of(tx, &game, &m)?);
            }
        }
        Ok(languages
            .into_iter()
            .filter_map(|language| {
                ResultsScene::new(
                    self.templates.words(language),
                    variant,
                    &game,
                    &position,
                    &played.submitted,
                    &played.resolution,
                    &played.progress.next,
                )
            })
            .filter(|scene| !kept(scene))
            .collect())
    }

    /// The results pictures of game `id` that its deadline would paint if its orders stay
    /// as they are (played then, or at the end of the grace when a power is missing), for
    /// painting them ahead while the judge is idle; none but those not already kept.
    pub fn foresee_pictures_ahead(&self, tx: &Tx, id: i64) -> rusqlite::Result<Vec<ResultsScene>> {
        let game = tx.game(id)?;
        let (Some(deadline), Some((_, position))) = (game.deadline_at, self.game_position(&game))
        else {
            return Ok(Vec::new());
        };
        let at = game
            .settings
            .grace_end(game.phase_serial, position.turn.kind, deadline)
            .max(deadline);
        self.foresee_pictures(tx, id, at)
    }

    /// A foreseen picture painted, in its scene's language (for painting ahead).
    pub fn paint_scene(&self, scene: &ResultsScene) -> Option<Attachment> {
        let variant = self.variant(&scene.variant)?;
        scene.paint(variant, self.templates.words(scene.language))
    }
}

/// The picture of the board as it stands (no orders: those of the phase being played are
/// secret).
pub fn board_picture(
    words: Words,
    variant: &Variant,
    game: &GameRow,
    position: &Position,
) -> Option<Attachment> {
    let layout = variant.layout.as_deref()?;
    let title = tr!(
        words,
        "map.title_game",
        game = game.name,
        phase = drawing::phase_in(words, variant, position)
    );
    png_attachment(drawing::layers::board_png(
        &Scene::board(&variant.map, layout, position, title),
        words,
    )?)
}

/// A variant's starting board, for `GET MAP <variant>`.
pub fn variant_picture(words: Words, variant: &Variant) -> Option<Attachment> {
    png_attachment(drawing::variant_png(variant, false, words).ok()?)
}

/// A Here I Stand board as a picture (the move under way as an arrow).
pub fn his_picture(svg: &str) -> Option<Attachment> {
    attachment(svg)
}
