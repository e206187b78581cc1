//! Supply credit between powers (Diadochi V rule 8), pure: lending, passing on, ending and
//! asking, each refused with its reason where the rule does not allow it, and the credits
//! still in force when they count (at the adjustments), each lapsed one with its reason.
//!
//! The card: "Разрешается прошение кредита у другой державы на предоставление возможностей
//! нескольких центров снабжения, но при условии, что просящая держава обладает хотя бы одним
//! центром. Единицы не распускаются у державы, которая предоставила кредит. Получатель
//! кредита может отдать его третьей стороне. Кредит может быть прекращён. Кредитные центры не
//! учитываются при выполнении условия победы." (A power may ask another power for credit of
//! the capacity of some supply centres, provided the asking power owns at least one centre.
//! The power that granted credit disbands no units for it. The receiver of credit may pass it
//! on to a third party. Credit may be ended. Credit centres do not count toward victory.)

use super::map::Map;
use super::position::{Credit, Position};
use super::power::PowerId;
use super::rules::Rules;

/// Why a credit command is not carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The variant has no supply credit.
    NotInVariant,
    /// Credit is asked of, lent or passed to another power; never to oneself.
    SamePower,
    /// A credit of nothing.
    NoAmount,
    /// The power that would have the credit owns no centre that supplies it ("the asking
    /// power owns at least one centre").
    NoCentre { power: PowerId },
    /// A power cannot lend supply it does not have: its own supply, less what it lends.
    BeyondSupply { supply: u32, lent: u32 },
    /// A power passes on only credit it received, and only to a third party: credit from
    /// the power it would go to is not counted.
    BeyondReceived { received: u32 },
    /// END: the lender gives that power no credit.
    NoCredit,
}

/// Why a credit no longer counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LapseReason {
    /// The lender and the borrower are one power (credit is from another power).
    SamePower,
    /// The borrower owns no centre that supplies it.
    NoCentre,
    /// The lender's own supply no longer covers what it lends: it has only `supply`.
    LenderShort { supply: u32 },
}

/// Credit that stopped counting: `amount` of what `lender` lent `borrower`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lapse {
    pub lender: PowerId,
    pub borrower: PowerId,
    pub amount: u32,
    pub reason: LapseReason,
}

/// The credits of a position as they count now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    /// What still counts, in the order the credits were given.
    pub in_force: Vec<Credit>,
    /// What does not, with why.
    pub lapsed: Vec<Lapse>,
}

/// What a power has on credit: supply borrowed and supply lent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Balance {
    pub borrowed: u32,
    pub lent: u32,
}

/// The borrowed and lent totals of `power` in `credits`.
pub fn balance(credits: &[Credit], power: PowerId) -> Balance {
    let sum = |f: &dyn Fn(&Credit) -> bool| credits.iter().filter(|c| f(c)).map(|c| c.amount).sum();
    Balance {
        borrowed: sum(&|c| c.borrower == power && c.lender != power),
        lent: sum(&|c| c.lender == power && c.borrower != power),
    }
}

/// Whether `power` owns a centre that supplies it now: the condition of rule 8.
fn has_centre(map: &Map, position: &Position, power: PowerId) -> bool {
    !position.supplying_centres(map, power).is_empty()
}

/// The credits of `position` checked against rule 8 as it stands now: a credit to oneself
/// never counts; a borrower that owns no supplying centre loses its credit; a lender whose
/// own supply no longer covers what it lends loses its latest credits first, down to what
/// its supply covers. Counted at every adjustment, so a credit lapses as soon as its
/// conditions are gone, not only when it was granted.
pub fn ledger(map: &Map, position: &Position) -> Ledger {
    let mut in_force = Vec::new();
    let mut lapsed = Vec::new();
    for c in position.credits.iter().filter(|c| c.amount > 0) {
        let reason = if c.lender == c.borrower {
            Some(LapseReason::SamePower)
        } else if !has_centre(map, position, c.borrower) {
            Some(LapseReason::NoCentre)
        } else {
            None
        };
        match reason {
            Some(reason) => lapsed.push(Lapse {
                lender: c.lender,
                borrower: c.borrower,
                amount: c.amount,
                reason,
            }),
            None => in_force.push(*c),
        }
    }
    let lenders: Vec<PowerId> = {
        let mut l: Vec<PowerId> = in_force.iter().map(|c| c.lender).collect();
        l.sort();
        l.dedup();
        l
    };
    for lender in lenders {
        let supply = position.supply_of(map, lender);
        let mut over = balance(&in_force, lender).lent.saturating_sub(supply);
        for c in in_force.iter_mut().rev().filter(|c| c.lender == lender) {
            if over == 0 {
                break;
            }
            let cut = c.amount.min(over);
            c.amount -= cut;
            over -= cut;
            lapsed.push(Lapse {
                lender,
                borrower: c.borrower,
                amount: cut,
                reason: LapseReason::LenderShort { supply },
            });
        }
    }
    in_force.retain(|c| c.amount > 0);
    Ledger { in_force, lapsed }
}

fn allowed(rules: &Rules, from: PowerId, to: PowerId, amount: u32) -> Result<(), Refusal> {
    if !rules.supply_credit {
        return Err(Refusal::NotInVariant);
    }
    if from == to {
        return Err(Refusal::SamePower);
    }
    if amount == 0 {
        return Err(Refusal::NoAmount);
    }
    Ok(())
}

/// ASK: whether `asker` may ask `other` for credit (it must own a supplying centre).
pub fn ask(
    map: &Map,
    rules: &Rules,
    position: &Position,
    asker: PowerId,
    other: PowerId,
    amount: u32,
) -> Result<(), Refusal> {
    allowed(rules, asker, other, amount)?;
    if !has_centre(map, position, asker) {
        return Err(Refusal::NoCentre { power: asker });
    }
    Ok(())
}

/// Lends `amount` of `lender`'s own supply to `borrower`.
pub fn grant(
    map: &Map,
    rules: &Rules,
    position: &mut Position,
    lender: PowerId,
    borrower: PowerId,
    amount: u32,
) -> Result<(), Refusal> {
    allowed(rules, lender, borrower, amount)?;
    if !has_centre(map, position, borrower) {
        return Err(Refusal::NoCentre { power: borrower });
    }
    let supply = position.supply_of(map, lender);
    let lent = balance(&position.credits, lender).lent;
    if lent + amount > supply {
        return Err(Refusal::BeyondSupply { supply, lent });
    }
    add(position, lender, borrower, amount);
    Ok(())
}

/// Passes `amount` of the credit `from` received on to `to`, a third party: credit lent by
/// `to` itself cannot go back to it that way (that would be `to` lending to itself). The
/// credit passed stays its lender's, who may end it.
pub fn pass(
    map: &Map,
    rules: &Rules,
    position: &mut Position,
    from: PowerId,
    to: PowerId,
    amount: u32,
) -> Result<(), Refusal> {
    allowed(rules, from, to, amount)?;
    if !has_centre(map, position, to) {
        return Err(Refusal::NoCentre { power: to });
    }
    let passable = |c: &Credit| c.borrower == from && c.lender != to && c.lender != from;
    let received: u32 = position
        .credits
        .iter()
        .filter(|c| passable(c))
        .map(|c| c.amount)
        .sum();
    if amount > received {
        return Err(Refusal::BeyondReceived { received });
    }
    let mut left = amount;
    let mut moved = Vec::new();
    for credit in position.credits.iter_mut().filter(|c| passable(c)) {
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
        add(position, lender, to, n);
    }
    Ok(())
}

/// Ends all the credit `lender` gives `borrower`; the amount it was.
pub fn end(
    rules: &Rules,
    position: &mut Position,
    lender: PowerId,
    borrower: PowerId,
) -> Result<u32, Refusal> {
    allowed(rules, lender, borrower, 1)?;
    let amount: u32 = position
        .credits
        .iter()
        .filter(|c| c.lender == lender && c.borrower == borrower)
        .map(|c| c.amount)
        .sum();
    if amount == 0 {
        return Err(Refusal::NoCredit);
    }
    position
        .credits
        .retain(|c| !(c.lender == lender && c.borrower == borrower));
    Ok(amount)
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

impl Refusal {
    /// A machine word for the JSON interface.
    pub fn word(self) -> &'static str {
        match self {
            Refusal::NotInVariant => "not_in_variant",
            Refusal::SamePower => "same_power",
            Refusal::NoAmount => "no_amount",
            Refusal::NoCentre { .. } => "no_centre",
            Refusal::BeyondSupply { .. } => "beyond_supply",
            Refusal::BeyondReceived { .. } => "beyond_received",
            Refusal::NoCredit => "no_credit",
        }
    }
}

impl LapseReason {
    /// A machine word for the JSON interface.
    pub fn word(self) -> &'static str {
        match self {
            LapseReason::SamePower => "same_power",
            LapseReason::NoCentre => "no_centre",
            LapseReason::LenderShort { .. } => "lender_short",
        }
    }
}
