//! Supply credit between powers by mail (Diadochi V rule 8): granting, passing on, ending
//! and asking. Credit changes the position of the game; it counts at the next adjustment.

use crate::diplomacy::credit::{self, Lapse, LapseReason, Refusal};
use crate::diplomacy::map::Map;
use crate::diplomacy::position::Position;
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
    code: &str,
) -> rusqlite::Result<Result<CreditChange, Message>> {
    let CreditOrder {
        action,
        amount,
        other,
    } = order;
    let map = &variant.map;
    let rules = &variant.rules;
    if !rules.supply_credit {
        return Ok(Err(msg!("credit.none_in_variant", variant = variant.name)));
    }
    let Some(other) = power_named(map, other) else {
        return Ok(Err(msg!("credit.not_a_power", power = other)));
    };
    let (me, them) = (map.power(power).clone(), map.power(other).clone());
    let refused = |why: Refusal| refusal(variant, why, power, other, amount);
    let change = match action {
        CreditAction::Ask => {
            if let Err(why) = credit::ask(map, rules, &position, power, other, amount) {
                return Ok(Err(refused(why)));
            }
            return Ok(Ok(CreditChange {
                said: msg!("credit.asked", other = them, amount = amount),
                notice: Some((
                    other,
                    msg!(
                        "credit.ask_subject",
                        game = crate::judge::phases::subjects::prefix(code, game),
                        power = me
                    ),
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
            if let Err(why) = credit::grant(map, rules, &mut position, power, other, amount) {
                return Ok(Err(refused(why)));
            }
            CreditChange {
                said: msg!("credit.lends", power = me, amount = amount, other = them),
                notice: Some((
                    other,
                    msg!(
                        "credit.grant_subject",
                        game = crate::judge::phases::subjects::prefix(code, game),
                        power = me
                    ),
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
            if let Err(why) = credit::pass(map, rules, &mut position, power, other, amount) {
                return Ok(Err(refused(why)));
            }
            CreditChange {
                said: msg!("credit.passes", power = me, amount = amount, other = them),
                notice: Some((
                    other,
                    msg!(
                        "credit.pass_subject",
                        game = crate::judge::phases::subjects::prefix(code, game),
                        power = me
                    ),
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
            if let Err(why) = credit::end(rules, &mut position, power, other) {
                return Ok(Err(refused(why)));
            }
            CreditChange {
                said: msg!("credit.ends", power = me, other = them),
                notice: Some((
                    other,
                    msg!(
                        "credit.end_subject",
                        game = crate::judge::phases::subjects::prefix(code, game),
                        power = me
                    ),
                    msg!("credit.ended", power = me, game = game.name),
                )),
            }
        }
    };
    game.position = Some(position_to_json(map, &position));
    tx.save_game(game)?;
    Ok(Ok(change))
}

/// Why a credit command of `power` naming `other` was refused (rule 8), for the player.
fn refusal(
    variant: &Variant,
    why: Refusal,
    power: PowerId,
    other: PowerId,
    amount: u32,
) -> Message {
    let map = &variant.map;
    let (me, them) = (map.power(power), map.power(other));
    match why {
        Refusal::NotInVariant => msg!("credit.none_in_variant", variant = variant.name),
        Refusal::SamePower => msg!("credit.same_power", power = *me),
        Refusal::NoAmount => msg!("credit.no_amount"),
        Refusal::NoCentre { power: p } if p == power => msg!("credit.ask_needs_centre"),
        Refusal::NoCentre { .. } => msg!("credit.no_centre", other = *them),
        Refusal::BeyondSupply { supply, lent } => msg!(
            "credit.cannot_lend",
            power = *me,
            supply = supply,
            lent = lent,
            amount = amount
        ),
        Refusal::BeyondReceived { received } => msg!(
            "credit.cannot_pass",
            power = *me,
            other = *them,
            received = received,
            amount = amount
        ),
        Refusal::NoCredit => msg!("credit.no_credit", power = *me, other = *them),
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
                power = map.power(c.lender).name_in(words.language()),
                amount = c.amount,
                other = map.power(c.borrower).name_in(words.language())
            )
        })
        .collect()
}

/// One sentence for each credit that lapsed, with its reason (rule 8), for reports.
pub fn lapse_lines(words: Words, map: &Map, lapsed: &[Lapse]) -> Vec<String> {
    lapsed
        .iter()
        .map(|l| {
            let (lender, borrower) = (
                map.power(l.lender).name_in(words.language()),
                map.power(l.borrower).name_in(words.language()),
            );
            match l.reason {
                LapseReason::SamePower => {
                    tr!(
                        words,
                        "credit.lapse_same_power",
                        power = lender,
                        amount = l.amount
                    )
                }
                LapseReason::NoCentre => tr!(
                    words,
                    "credit.lapse_no_centre",
                    power = lender,
                    other = borrower,
                    amount = l.amount
                ),
                LapseReason::LenderShort { supply } => tr!(
                    words,
                    "credit.lapse_lender_short",
                    power = lender,
                    other = borrower,
                    amount = l.amount,
                    supply = supply
                ),
            }
        })
        .collect()
}
