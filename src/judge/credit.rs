//! Supply credit between powers by mail (Diadochi V rule 8): granting, passing on, ending
//! and asking. Credit changes the position of the game; it counts at the next adjustment.

use crate::diplomacy::map::Map;
use crate::diplomacy::position::{Credit, Position};
use crate::diplomacy::power::PowerId;
use crate::report::{Message, Words};
use crate::store::{GameRow, Tx, position_to_json};
use crate::text::command::CreditAction;
use crate::variant::Variant;
use crate::{msg, tr};

/// What a credit command did: the sentence for the answer and a note for the other power,
/// each to be written in its reader's language.
pub struct CreditChange {
    pub said: Message,
    /// `(power told, subject, body)`.
    pub notice: Option<(PowerId, Message, Message)>,
}

/// The power named `name`: its id, name, or letter.
pub fn power_named(map: &Map, name: &str) -> Option<PowerId> {
    map.power_by_id(name).or_else(|| {
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => map
                .powers
                .iter()
                .position(|p| p.letter.eq_ignore_ascii_case(&c))
                .map(|i| PowerId(i as u8)),
            _ => None,
        }
    })
}

/// A credit command as a player wrote it.
pub struct CreditOrder<'a> {
    pub action: CreditAction,
    pub amount: u32,
    /// The other power, by id, name or letter.
    pub other: &'a str,
}

/// Carries out a credit command of `power` in `game`; an error is a message for the player.
pub fn change_credit(
    tx: &Tx,
    variant: &Variant,
    game: &mut GameRow,
    mut position: Position,
    power: PowerId,
    order: CreditOrder,
) -> rusqlite::Result<Result<CreditChange, Message>> {
    let CreditOrder {
        action,
        amount,
        other,
    } = order;
    let map = &variant.map;
    if !variant.rules.supply_credit {
        return Ok(Err(msg!("credit.none_in_variant", variant = variant.name)));
    }
    let Some(other) = power_named(map, other).filter(|o| *o != power) else {
        return Ok(Err(msg!("credit.not_a_power", power = other)));
    };
    let (me, them) = (map.power(power).name.clone(), map.power(other).name.clone());
    let owns_a_centre = |p: PowerId| position.centres_of(map, p) > 0;
    let change = match action {
        CreditAction::Ask => {
            if !owns_a_centre(power) {
                return Ok(Err(msg!("credit.ask_needs_centre")));
            }
            return Ok(Ok(CreditChange {
                said: msg!("credit.asked", other = them, amount = amount),
                notice: Some((
                    other,
                    msg!("credit.ask_subject", game = game.name, power = me),
                    msg!(
                        "credit.ask",
                        power = me,
                        other = them,
                        amount = amount,
                        game = game.name,
                        id = map.power(power).id
                    ),
                )),
            }));
        }
        CreditAction::Grant => {
            if !owns_a_centre(other) {
                return Ok(Err(msg!("credit.no_centre", other = them)));
            }
            let (_, lent) = position.credit_balance(power);
            let supply = position.supply_of(map, power);
            if lent + amount > supply {
                return Ok(Err(msg!(
                    "credit.cannot_lend",
                    power = me,
                    supply = supply,
                    lent = lent,
                    amount = amount
                )));
            }
            add(&mut position, power, other, amount);
            CreditChange {
                said: msg!("credit.lends", power = me, amount = amount, other = them),
                notice: Some((
                    other,
                    msg!("credit.grant_subject", game = game.name, power = me),
                    msg!(
                        "credit.granted",
                        power = me,
                        amount = amount,
                        game = game.name
                    ),
                )),
            }
        }
        CreditAction::Pass => {
            if !owns_a_centre(other) {
                return Ok(Err(msg!("credit.no_centre", other = them)));
            }
            let (received, _) = position.credit_balance(power);
            if amount > received {
                return Ok(Err(msg!(
                    "credit.cannot_pass",
                    power = me,
                    received = received,
                    amount = amount
                )));
            }
            let mut left = amount;
            let mut moved = Vec::new();
            for credit in position.credits.iter_mut().filter(|c| c.borrower == power) {
                let take = credit.amount.min(left);
                credit.amount -= take;
                left -= take;
                moved.push((credit.lender, take));
                if left == 0 {
                    break;
                }
            }
            position.credits.retain(|c| c.amount > 0);
            for (lender, n) in moved.into_iter().filter(|(_, n)| *n > 0) {
                add(&mut position, lender, other, n);
            }
            CreditChange {
                said: msg!("credit.passes", power = me, amount = amount, other = them),
                notice: Some((
                    other,
                    msg!("credit.pass_subject", game = game.name, power = me),
                    msg!(
                        "credit.passed",
                        power = me,
                        amount = amount,
                        game = game.name
                    ),
                )),
            }
        }
        CreditAction::End => {
            let before = position.credits.len();
            position
                .credits
                .retain(|c| !(c.lender == power && c.borrower == other));
            if position.credits.len() == before {
                return Ok(Err(msg!("credit.no_credit", power = me, other = them)));
            }
            CreditChange {
                said: msg!("credit.ends", power = me, other = them),
                notice: Some((
                    other,
                    msg!("credit.end_subject", game = game.name, power = me),
                    msg!("credit.ended", power = me, game = game.name),
                )),
            }
        }
    };
    game.position = Some(position_to_json(map, &position));
    tx.save_game(game)?;
    Ok(Ok(change))
}

fn add(position: &mut Position, lender: PowerId, borrower: PowerId, amount: u32) {
    match position
        .credits
        .iter_mut()
        .find(|c| c.lender == lender && c.borrower == borrower)
    {
        Some(c) => c.amount += amount,
        None => position.credits.push(Credit {
            lender,
            borrower,
            amount,
        }),
    }
}

/// `Rome lends 2 supply to Egypt.` for each credit, for reports.
pub fn credit_lines(words: Words, map: &Map, position: &Position) -> Vec<String> {
    position
        .credits
        .iter()
        .map(|c| {
            tr!(
                words,
                "credit.line",
                power = map.power(c.lender).name,
                amount = c.amount,
                other = map.power(c.borrower).name
            )
        })
        .collect()
}
