//! A sentence not yet in any language: a catalog key and its values (`Message`, made with
//! `msg!`), rendered later in each reader's language by `report::Words`. Plain data, so the
//! rules cores can say why in words the catalogs write.

use std::fmt::Display;

use chrono::{DateTime, Utc};

use crate::diplomacy::map::{PowerInfo, Province};
use crate::lang::Lang;

/// A value to put in a message: text, another message rendered in the same language, a
/// moment written the reader's way, or text already written in each language (language code
/// and text; the reader's is taken, else the English, else the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Text(String),
    Message(Message),
    When(When),
    Each(Vec<(Lang, String)>),
}

/// A moment (a deadline) to show in a time zone, written by the catalog's `deadline.format`
/// (a chrono format; `{weekday}` is a name from `deadline.weekdays`, Sunday first); no
/// moment is `deadline.none`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct When {
    pub at: Option<DateTime<Utc>>,
    /// An IANA zone such as `Europe/Moscow`; one that is unknown shows the time in UTC.
    pub zone: String,
}

impl From<&When> for Arg {
    fn from(when: &When) -> Arg {
        Arg::When(when.clone())
    }
}

impl<T: Display + ?Sized> From<&T> for Arg {
    fn from(value: &T) -> Arg {
        Arg::Text(value.to_string())
    }
}

/// A value already made (a power's name in a case, a list), as it is.
impl From<&Arg> for Arg {
    fn from(arg: &Arg) -> Arg {
        arg.clone()
    }
}

impl From<&Message> for Arg {
    fn from(message: &Message) -> Arg {
        Arg::Message(message.clone())
    }
}

/// A power's name in each language its variant gives one (`England`, `Англия`).
impl From<&PowerInfo> for Arg {
    fn from(power: &PowerInfo) -> Arg {
        Arg::Each(
            Lang::ALL
                .map(|l| (l, power.name_in(l).to_string()))
                .to_vec(),
        )
    }
}

/// A province's name in each language its variant gives one (`London`, `Лондон`).
impl From<&Province> for Arg {
    fn from(province: &Province) -> Arg {
        Arg::Each(
            Lang::ALL
                .map(|l| (l, province.name_in(l).to_string()))
                .to_vec(),
        )
    }
}

/// A sentence not yet in any language: its catalog key and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

/// `msg!("key", name = value, ...)`: a [`Message`] to render later; values are borrowed
/// and may be anything `Display`, or another `Message`.
#[macro_export]
macro_rules! msg {
    ($key:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::message::Message {
            key: $key,
            args: vec![$((stringify!($name), $crate::message::Arg::from(&$value))),*],
        }
    };
}
