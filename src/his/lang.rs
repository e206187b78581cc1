//! The languages the referee writes in, and a sentence written in each of them: the core says
//! why things happen in English and in Russian side by side (plain data, no files), and the mail
//! side picks the reader's. Space and leader names stay as the map data has them; power names
//! and the words for units are given here, with the Russian cases and plural forms the
//! sentences need.

use super::power::Power;

pub use crate::lang::Lang;

/// A sentence in every language the referee writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Phrase {
    pub en: String,
    pub ru: String,
}

impl Phrase {
    pub fn new(en: impl Into<String>, ru: impl Into<String>) -> Phrase {
        Phrase {
            en: en.into(),
            ru: ru.into(),
        }
    }

    /// The sentence written once per language by `write`.
    pub fn by(write: impl Fn(Lang) -> String) -> Phrase {
        Phrase {
            en: write(Lang::En),
            ru: write(Lang::Ru),
        }
    }

    /// The same text in every language (a name, a line as written).
    pub fn same(text: impl Into<String>) -> Phrase {
        let text = text.into();
        Phrase {
            ru: text.clone(),
            en: text,
        }
    }

    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Ru => &self.ru,
        }
    }
}

/// The English sentence, where a plain error string is wanted (tests, stored-game checks).
impl From<Phrase> for String {
    fn from(phrase: Phrase) -> String {
        phrase.en
    }
}

/// The Russian word for a count: `one` for 1, 21, 31..., `few` for 2-4, 22-24..., `many` else.
pub fn plural<'a>(n: u32, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    match (n % 10, n % 100) {
        (1, r) if r != 11 => one,
        (2..=4, r) if !(12..=14).contains(&r) => few,
        _ => many,
    }
}

/// `n` and its Russian word: `2 части`.
pub fn count(n: u32, one: &str, few: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, few, many))
}

/// `n` and its English word: `1 hit`, `2 hits`.
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
    /// The name in `lang`, as the subject of a sentence.
    pub fn name_in(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.name(),
            Lang::Ru => self.ru(Case::Nom),
        }
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

    /// The Russian verb that agrees with the name: `singular` or `plural`.
    pub fn ru_verb<'a>(self, singular: &'a str, plural: &'a str) -> &'a str {
        if self.ru_plural() { plural } else { singular }
    }
}

/// Powers named together: `Ottoman and Hapsburg`, `Османы и Габсбурги`.
pub fn power_list(powers: &[Power], lang: Lang, case: Case) -> String {
    let names: Vec<&str> = powers
        .iter()
        .map(|p| match lang {
            Lang::En => p.name(),
            Lang::Ru => p.ru(case),
        })
        .collect();
    names.join(match lang {
        Lang::En => " and ",
        Lang::Ru => " и ",
    })
}

/// The Russian verb for powers named together: plural when more than one.
pub fn ru_verb_of<'a>(powers: &[Power], singular: &'a str, plural: &'a str) -> &'a str {
    match powers {
        [one] => one.ru_verb(singular, plural),
        _ => plural,
    }
}
