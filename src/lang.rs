//! The languages the judge writes in: one `Lang` for letters, catalogs, templates and the
//! Here I Stand referee alike. Stored and written as its catalog code (`en`, `ru`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A language the judge writes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The code of the message catalogs and template folders: `en`, `ru`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// The language of a code (`ru`, `RU`), if the judge writes it.
    pub fn parse(code: &str) -> Option<Lang> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code.trim()))
    }

    /// The language of a stored code; English for any other.
    pub fn from_code(code: &str) -> Lang {
        Lang::parse(code).unwrap_or_default()
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Lang {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// A stored code the judge no longer writes reads as English, so a game's or a player's
/// other settings are never lost over it.
impl<'de> Deserialize<'de> for Lang {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Lang, D::Error> {
        let code = String::deserialize(deserializer)?;
        Ok(Lang::from_code(&code))
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn a_code_reads_back_and_an_unknown_one_is_english() {
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
            let json = serde_json::to_string(&lang).unwrap();
            assert_eq!(serde_json::from_str::<Lang>(&json).unwrap(), lang);
        }
        assert_eq!(Lang::parse("RU"), Some(Lang::Ru));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(serde_json::from_str::<Lang>("\"de\"").unwrap(), Lang::En);
    }
}
