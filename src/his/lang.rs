//! The languages the referee writes in, and the values its sentences need. The core says why
//! things happen in `Message`s (catalog keys under `his.` in `templates/*/messages.toml`),
//! rendered in the reader's language on the mail side; it never picks a language itself. Space
//! and leader names stay as the map data has them; power names are data here (the Russian in
//! four cases), given to the catalogs in each case a sentence needs (`power`, `power_gen`,
//! `power_dat`, `power_ins`) with a number a verb agrees with (`power_n`: 1 singular, 2
//! plural); lists are folded into nested messages (`his.join.*`).

use super::power::Power;
use crate::message::{Arg, Message};
use crate::msg;

pub use crate::lang::Lang;

/// A value written once per language by `write`.
pub fn each(write: impl Fn(Lang) -> String) -> Arg {
    Arg::Each(Lang::ALL.into_iter().map(|l| (l, write(l))).collect())
}

/// A number a verb agrees with: 1 for singular, 2 for plural, per language
/// (`{power_n|идёт|идут|идут}`).
fn agreement(en_plural: bool, ru_plural: bool) -> Arg {
    let n = |plural: bool| if plural { "2" } else { "1" }.to_string();
    Arg::Each(vec![(Lang::En, n(en_plural)), (Lang::Ru, n(ru_plural))])
}

/// Values joined into one by `join` (`his.join.and`: `{first} and {rest}`), from the right;
/// no values are an empty text.
pub fn list(values: Vec<Arg>, join: impl Fn(Arg, Arg) -> Message) -> Arg {
    let mut values = values.into_iter().rev();
    let Some(mut joined) = values.next() else {
        return Arg::Text(String::new());
    };
    for value in values {
        joined = Arg::Message(join(value, joined));
    }
    joined
}

/// Values joined by `; `.
pub fn semicolons(values: Vec<Arg>) -> Arg {
    list(values, |first, rest| {
        msg!("his.join.semicolon", first = first, rest = rest)
    })
}

/// Values to choose from: `Graz, Linz, Passau` (`his.join.comma`, and `his.join.choice` before
/// the last: `Graz, Linz или Passau`).
pub fn choices(values: Vec<Arg>) -> Arg {
    let last = values.len().saturating_sub(1);
    let mut values = values.into_iter().enumerate().rev();
    let Some((_, mut joined)) = values.next() else {
        return Arg::Text(String::new());
    };
    for (i, value) in values {
        joined = Arg::Message(if i + 1 == last {
            msg!("his.join.choice", first = value, rest = joined)
        } else {
            msg!("his.join.comma", first = value, rest = joined)
        });
    }
    joined
}

/// Values joined by `, `.
pub fn commas(values: Vec<Arg>) -> Arg {
    list(values, |first, rest| {
        msg!("his.join.comma", first = first, rest = rest)
    })
}

/// Values on lines of their own.
pub fn lines(values: Vec<Arg>) -> Arg {
    list(values, |first, rest| {
        msg!("his.join.lines", first = first, rest = rest)
    })
}

/// Values written one after another.
pub fn concatenated(values: Vec<Arg>) -> Arg {
    list(values, |first, rest| {
        msg!("his.join.concat", first = first, rest = rest)
    })
}

/// Powers named together, in `case`: `Ottoman and Hapsburg`, `Османы и Габсбурги`.
pub fn powers_named(powers: &[Power], case: Case) -> Arg {
    let names = powers.iter().map(|p| p.named(case)).collect();
    list(names, |first, rest| {
        msg!("his.join.and", first = first, rest = rest)
    })
}

/// The number a verb agrees with for powers named together: plural for more than one.
pub fn powers_number(powers: &[Power]) -> Arg {
    match powers {
        [one] => one.number(),
        _ => agreement(true, true),
    }
}

/// `n` and its English word, for a roll's details (the dice are told in English): `1 unit`,
/// `2 units`.
pub fn en_count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The Russian cases the sentences put a power's name in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// Who: `Габсбурги`.
    Nom,
    /// Of whom: `Габсбургов`.
    Gen,
    /// To whom: `Габсбургам`.
    Dat,
    /// With whom: `Габсбургами`.
    Ins,
}

impl Power {
    /// The name as a message's value: English plain, Russian in `case`.
    pub fn named(self, case: Case) -> Arg {
        Arg::Each(vec![
            (Lang::En, self.name().to_string()),
            (Lang::Ru, self.ru(case).to_string()),
        ])
    }

    /// The number a verb agrees with the name by (`power_n`): English names are singular,
    /// Russian ones as `ru_plural` says.
    pub fn number(self) -> Arg {
        agreement(false, self.ru_plural())
    }

    /// The Russian name in a case.
    pub fn ru(self, case: Case) -> &'static str {
        let [nom, genitive, dat, ins] = match self {
            Power::Ottoman => ["Османы", "Османов", "Османам", "Османами"],
            Power::Hapsburg => ["Габсбурги", "Габсбургов", "Габсбургам", "Габсбургами"],
            Power::England => ["Англия", "Англии", "Англии", "Англией"],
            Power::France => ["Франция", "Франции", "Франции", "Францией"],
            Power::Papacy => ["Папство", "Папства", "Папству", "Папством"],
            Power::Protestant => [
                "Протестанты",
                "Протестантов",
                "Протестантам",
                "Протестантами",
            ],
            Power::Genoa => ["Генуя", "Генуи", "Генуе", "Генуей"],
            Power::HungaryBohemia => [
                "Венгрия-Богемия",
                "Венгрии-Богемии",
                "Венгрии-Богемии",
                "Венгрией-Богемией",
            ],
            Power::Scotland => ["Шотландия", "Шотландии", "Шотландии", "Шотландией"],
            Power::Venice => ["Венеция", "Венеции", "Венеции", "Венецией"],
            Power::Independent => ["независимые", "независимых", "независимым", "независимыми"],
        };
        match case {
            Case::Nom => nom,
            Case::Gen => genitive,
            Case::Dat => dat,
            Case::Ins => ins,
        }
    }

    /// Whether the Russian name is plural (`Габсбурги идут`, `Англия идёт`).
    pub fn ru_plural(self) -> bool {
        matches!(
            self,
            Power::Ottoman | Power::Hapsburg | Power::Protestant | Power::Independent
        )
    }
}
