//! The picture of each phase of a game, as the archive shows it and `strategos map --game`
//! writes it: the board at the start of the phase and, once the phase is played, the orders
//! given in it with what came of them and the retreats they left. The orders of the phase
//! being played are never drawn: they are secret until it is processed. A Here I Stand game,
//! kept as its history of moves, has one picture: its board as it stands.
//!
//! Each picture carries a fingerprint of what it shows (the phase's board as stored, the
//! orders stored for it, whether it is played, the game's name, the language, the program's
//! version): the archive keeps a picture's file under its fingerprint and draws again only
//! what changed, so rewriting the archive after each letter does not redraw every phase of
//! every game.

use crate::diplomacy::adjudicate::{Submitted, adjudicate};
use crate::diplomacy::power::PowerId;
use crate::drawing::{Scene, draw, orders::drawn_orders, phase_in};
use crate::game::orders::stored_orders;
use crate::game::{GameKind, GameState};
use crate::report::messages::Words;
use crate::store::{GameRow, Tx, position_from_json};
use crate::variant::Variant;

/// One phase's picture.
pub struct PhasePicture {
    /// The phase, counted from 0 as ROLLBACK counts.
    pub phase_serial: i64,
    /// `Movement for Spring of 1901`.
    pub title: String,
    /// What the picture shows, in a number: equal fingerprints, equal pictures.
    pub fingerprint: u64,
    /// The picture; `None` when the caller said it has the picture of this fingerprint.
    pub svg: Option<String>,
}

impl PhasePicture {
    /// The file the archive keeps the picture in: `phase-3-0123456789abcdef.svg`.
    pub fn file_name(&self) -> String {
        format!("phase-{}-{:016x}.svg", self.phase_serial, self.fingerprint)
    }
}

/// A fingerprint of what a picture is drawn from.
fn fingerprint(parts: &[&str]) -> u64 {
    use std::hash::{Hash, Hasher};
    // SipHash with fixed keys: the same parts give the same number in every run.
    #[allow(deprecated)]
    let mut hasher = std::hash::SipHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    parts.hash(&mut hasher);
    hasher.finish()
}

/// The pictures of every phase of `game` kept in its history; none when its variant has no
/// map or is not known. `have(phase, fingerprint)` says the caller has that picture already:
/// it is then not drawn.
pub fn phase_pictures(
    tx: &Tx,
    variants: &[Variant],
    game: &GameRow,
    words: Words,
    have: &dyn Fn(i64, u64) -> bool,
) -> rusqlite::Result<Vec<PhasePicture>> {
    if game.kind() == GameKind::HereIStand {
        // A Here I Stand game is kept as its history of moves: its board as it stands.
        return Ok(crate::game::his::picture(game, words)
            .map(|svg| PhasePicture {
                phase_serial: game.phase_serial,
                title: crate::tr!(words, "map.board_now"),
                fingerprint: fingerprint(&[&svg]),
                svg: Some(svg),
            })
            .into_iter()
            .collect());
    }
    let Some(variant) = variants.iter().find(|v| v.id == game.variant) else {
        return Ok(Vec::new());
    };
    let Some(layout) = variant.layout.as_deref() else {
        return Ok(Vec::new());
    };
    let map = &variant.map;
    let mut out = Vec::new();
    for row in tx.phases(game.id)? {
        let Ok(position) = position_from_json(variant, &row.position) else {
            continue;
        };
        let played = row.phase_serial < game.phase_serial || game.state == GameState::Finished;
        let mut stored: Vec<String> = Vec::new();
        if played {
            for power in &map.powers {
                if let Some((lines, _)) = tx.orders(game.id, row.phase_serial, &power.id)? {
                    stored.push(format!("{}\n{lines}", power.id));
                }
            }
        }
        let title = phase_in(words, variant, &position);
        let mut parts: Vec<&str> = vec![
            &row.position,
            if played { "played" } else { "current" },
            &game.name,
            words.language().code(),
        ];
        parts.extend(stored.iter().map(String::as_str));
        let print = fingerprint(&parts);
        if have(row.phase_serial, print) {
            out.push(PhasePicture {
                phase_serial: row.phase_serial,
                title,
                fingerprint: print,
                svg: None,
            });
            continue;
        }
        let mut submitted = Vec::new();
        for text in &stored {
            let (power_id, lines) = text.split_once('\n').unwrap_or((text, ""));
            let Some(i) = map.powers.iter().position(|p| p.id == power_id) else {
                continue;
            };
            submitted.extend(
                stored_orders(variant, position.turn.kind, lines)
                    .into_iter()
                    .map(|order| Submitted {
                        power: PowerId(i as u8),
                        order,
                    }),
            );
        }
        let (orders, retreats) = if played {
            let resolution = adjudicate(map, &variant.rules, &position, &submitted);
            (
                drawn_orders(words, map, &position, &submitted, &resolution.outcomes),
                resolution.dislodged,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let svg = draw(
            &Scene {
                map,
                layout,
                position: &position,
                title: crate::tr!(words, "map.title_game", game = game.name, phase = title),
                orders,
                retreats,
            },
            words,
        );
        out.push(PhasePicture {
            phase_serial: row.phase_serial,
            title,
            fingerprint: print,
            svg: Some(svg),
        });
    }
    Ok(out)
}
