//! The picture of each phase of a game, as the archive shows it and `strategos map --game`
//! writes it: the board at the start of the phase and, once the phase is played, the orders
//! given in it with what came of them and the retreats they left. The orders of the phase
//! being played are never drawn: they are secret until it is processed. A Here I Stand game,
//! kept as its history of moves, has one picture: its board as it stands.

use crate::diplomacy::adjudicate::{Submitted, adjudicate};
use crate::diplomacy::power::PowerId;
use crate::drawing::{Scene, board::drawn_orders, draw, phase_in};
use crate::judge::orders::stored_orders;
use crate::report::messages::Words;
use crate::store::{GameRow, Tx, position_from_json};
use crate::variant::Variant;

/// One phase's picture.
pub struct PhasePicture {
    /// The phase, counted from 0 as ROLLBACK counts.
    pub phase_serial: i64,
    /// `Spring 1901 movement`.
    pub title: String,
    pub svg: String,
}

/// The pictures of every phase of `game` kept in its history; none when its variant has no
/// map or is not known.
pub fn phase_pictures(
    tx: &Tx,
    variants: &[Variant],
    game: &GameRow,
    words: Words,
) -> rusqlite::Result<Vec<PhasePicture>> {
    if game.variant == crate::judge::his::VARIANT {
        // A Here I Stand game is kept as its history of moves: its board as it stands.
        return Ok(crate::judge::his::picture(game, words)
            .map(|svg| PhasePicture {
                phase_serial: game.phase_serial,
                title: crate::tr!(words, "map.board_now"),
                svg,
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
        let Ok(position) = position_from_json(map, &row.position) else {
            continue;
        };
        let played = row.phase_serial < game.phase_serial || game.state == "finished";
        let mut submitted = Vec::new();
        if played {
            for (i, power) in map.powers.iter().enumerate() {
                if let Some((lines, _)) = tx.orders(game.id, row.phase_serial, &power.id)? {
                    submitted.extend(
                        stored_orders(map, position.turn.kind, &lines)
                            .into_iter()
                            .map(|order| Submitted {
                                power: PowerId(i as u8),
                                order,
                            }),
                    );
                }
            }
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
        let title = phase_in(words, variant, &position);
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
            svg,
        });
    }
    Ok(out)
}
