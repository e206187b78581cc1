//! Supply credit between powers by mail (Diadochi V rule 8): granting, passing on, ending
//! and asking. Credit changes the position of the game; it counts at the next adjustment.

use crate::diplomacy::map::Map;
use crate::diplomacy::position::{Credit, Position};
use crate::diplomacy::power::PowerId;
use crate::store::{GameRow, Tx, position_to_json};
use crate::text::command::CreditAction;
use crate::variant::Variant;

/// What a credit command did: the sentence for the answer and a note for the other power.
pub struct CreditChange {
    pub said: String,
    /// `(power told, subject, body)`.
    pub notice: Option<(PowerId, String, String)>,
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

/// Carries out a credit command of `power` in `game`; an error is a sentence for the player.
pub fn change_credit(
    tx: &Tx,
    variant: &Variant,
    game: &mut GameRow,
    mut position: Position,
    power: PowerId,
    order: CreditOrder,
) -> rusqlite::Result<Result<CreditChange, String>> {
    let CreditOrder {
        action,
        amount,
        other,
    } = order;
    let map = &variant.map;
    if !variant.rules.supply_credit {
        return Ok(Err(format!("{} has no supply credit", variant.name)));
    }
    let Some(other) = power_named(map, other).filter(|o| *o != power) else {
        return Ok(Err(format!("'{other}' is not another power of this game")));
    };
    let (me, them) = (map.power(power).name.clone(), map.power(other).name.clone());
    let owns_a_centre = |p: PowerId| position.centres_of(map, p) > 0;
    let change = match action {
        CreditAction::Ask => {
            if !owns_a_centre(power) {
                return Ok(Err(
                    "only a power that owns a supply centre may ask for credit".into(),
                ));
            }
            return Ok(Ok(CreditChange {
                said: format!("{them} is asked for a credit of {amount} supply."),
                notice: Some((
                    other,
                    format!("Game '{}': {me} asks you for credit", game.name),
                    format!(
                        "{me} asks {them} for a credit of {amount} supply in game '{}'.\n\
                         To grant it, sign on and write: CREDIT {amount} TO {}\n",
                        game.name,
                        map.power(power).id
                    ),
                )),
            }));
        }
        CreditAction::Grant => {
            if !owns_a_centre(other) {
                return Ok(Err(format!(
                    "{them} owns no supply centre, so it cannot take credit"
                )));
            }
            let (_, lent) = position.credit_balance(power);
            let supply = position.supply_of(map, power);
            if lent + amount > supply {
                return Ok(Err(format!(
                    "{me} has {supply} supply and lends {lent} already, so it cannot lend {amount} more"
                )));
            }
            add(&mut position, power, other, amount);
            CreditChange {
                said: format!("{me} lends {amount} supply to {them}."),
                notice: Some((
                    other,
                    format!("Game '{}': credit from {me}", game.name),
                    format!("{me} lends you {amount} supply in game '{}'.\n", game.name),
                )),
            }
        }
        CreditAction::Pass => {
            if !owns_a_centre(other) {
                return Ok(Err(format!(
                    "{them} owns no supply centre, so it cannot take credit"
                )));
            }
            let (received, _) = position.credit_balance(power);
            if amount > received {
                return Ok(Err(format!(
                    "{me} has {received} supply of credit to pass on, not {amount}"
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
                said: format!("{me} passes {amount} supply of credit on to {them}."),
                notice: Some((
                    other,
                    format!("Game '{}': credit passed on by {me}", game.name),
                    format!(
                        "{me} passes {amount} supply of credit on to you in game '{}'.\n",
                        game.name
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
                return Ok(Err(format!("{me} gives {them} no credit")));
            }
            CreditChange {
                said: format!("{me} ends its credit to {them}."),
                notice: Some((
                    other,
                    format!("Game '{}': credit ended by {me}", game.name),
                    format!("{me} ends its credit to you in game '{}'.\n", game.name),
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
pub fn credit_lines(map: &Map, position: &Position) -> Vec<String> {
    position
        .credits
        .iter()
        .map(|c| {
            format!(
                "{} lends {} supply to {}.",
                map.power(c.lender).name,
                c.amount,
                map.power(c.borrower).name
            )
        })
        .collect()
}
