//! A case of the JSON interface as typed fields, read straight from the JSON text (or from a
//! `serde_json::Value`) without building a tree of values first.
//!
//! Reading a case never fails on its shape: every field is `Given`, absent, null, of the shape
//! expected or of another one, so that `adjudicate.rs` can say what is wrong in the interface's
//! own words, for that case alone. Only text that is not JSON at all is an error here. As in a
//! JSON object read whole, a key given twice keeps its first place and its last value, and
//! keys the interface does not know are skipped unread.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Text as the JSON holds it: borrowed from the input unless it had escapes.
pub type Text<'de> = Cow<'de, str>;

/// A field of a case as given.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Given<T> {
    /// The key is not there.
    #[default]
    Absent,
    /// `null`.
    Null,
    /// Of the expected shape.
    Is(T),
    /// Of another shape (a number where text was expected...).
    Wrong,
}

impl<T> Given<T> {
    /// The value, if it is of the expected shape.
    pub fn get(&self) -> Option<&T> {
        match self {
            Given::Is(v) => Some(v),
            _ => None,
        }
    }

    /// Absent or null.
    pub fn is_missing(&self) -> bool {
        matches!(self, Given::Absent | Given::Null)
    }
}

/// A JSON number as serde_json reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Unsigned(u64),
    Negative(i64),
    Float(f64),
}

impl Number {
    /// As `serde_json::Value::as_i64`.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Number::Unsigned(u) => i64::try_from(u).ok(),
            Number::Negative(i) => Some(i),
            Number::Float(_) => None,
        }
    }

    /// As `serde_json::Value::as_u64`.
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Number::Unsigned(u) => Some(u),
            _ => None,
        }
    }
}

/// What a shape accepts; a JSON value of any other kind makes the field `Given::Wrong` (after
/// it is read past, unkept).
pub trait Shape<'de>: Sized {
    fn text(_: Text<'de>) -> Option<Self> {
        None
    }
    fn number(_: Number) -> Option<Self> {
        None
    }
    fn boolean(_: bool) -> Option<Self> {
        None
    }
    fn list<A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

impl<'de> Shape<'de> for Text<'de> {
    fn text(text: Text<'de>) -> Option<Self> {
        Some(text)
    }
}

impl<'de> Shape<'de> for Number {
    fn number(n: Number) -> Option<Self> {
        Some(n)
    }
}

impl<'de> Shape<'de> for bool {
    fn boolean(b: bool) -> Option<Self> {
        Some(b)
    }
}

impl<'de, T: Deserialize<'de>> Shape<'de> for Vec<T> {
    fn list<A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Some(items))
    }
}

/// An object read as its keys and values in order (`"orders"`, `"centers"`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairs<'de, T>(pub Vec<(Text<'de>, T)>);

impl<'de, T: Deserialize<'de>> Shape<'de> for Pairs<'de, T> {
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        // Past a few keys, an index keeps a hostile object of many keys linear.
        const SCAN: usize = 16;
        let mut pairs: Vec<(Text<'de>, T)> = Vec::new();
        let mut index: HashMap<Text<'de>, usize> = HashMap::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let value = map.next_value()?;
            let known = if pairs.len() <= SCAN {
                pairs.iter().position(|(k, _)| *k == key)
            } else {
                if index.is_empty() {
                    index = pairs
                        .iter()
                        .enumerate()
                        .map(|(i, (k, _))| (k.clone(), i))
                        .collect();
                }
                index.get(&key).copied()
            };
            match known {
                Some(i) => pairs[i].1 = value,
                None => {
                    if !index.is_empty() {
                        index.insert(key.clone(), pairs.len());
                    }
                    pairs.push((key, value));
                }
            }
        }
        Ok(Some(Pairs(pairs)))
    }
}

impl<'de, T: Shape<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(GivenVisitor(PhantomData))
    }
}

struct GivenVisitor<T>(PhantomData<T>);

fn given<T>(value: Option<T>) -> Given<T> {
    value.map_or(Given::Wrong, Given::Is)
}

impl<'de, T: Shape<'de>> Visitor<'de> for GivenVisitor<T> {
    type Value = Given<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Given<T>, E> {
        Ok(Given::Null)
    }
    fn visit_none<E>(self) -> Result<Given<T>, E> {
        Ok(Given::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Given<T>, D::Error> {
        Given::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Given<T>, E> {
        Ok(given(T::boolean(b)))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Given<T>, E> {
        Ok(given(T::number(Number::Unsigned(n))))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Given<T>, E> {
        let n = u64::try_from(n).map_or(Number::Negative(n), Number::Unsigned);
        Ok(given(T::number(n)))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Given<T>, E> {
        Ok(given(T::number(Number::Float(n))))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Given<T>, E> {
        Ok(given(T::text(Cow::Borrowed(s))))
    }
    fn visit_str<E>(self, s: &str) -> Result<Given<T>, E> {
        Ok(given(T::text(Cow::Owned(s.to_owned()))))
    }
    fn visit_string<E>(self, s: String) -> Result<Given<T>, E> {
        Ok(given(T::text(Cow::Owned(s))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Given<T>, A::Error> {
        Ok(given(T::list(seq)?))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Given<T>, A::Error> {
        Ok(given(T::object(map)?))
    }
}

/// An object's key, borrowed from the input unless it had escapes (serde's own `Cow<str>`
/// always copies: a case has about a hundred keys).
struct Key<'de>(Text<'de>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s.to_owned())))
    }
    fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s)))
    }
}

/// An object of the interface: its fields are set one key at a time.
trait Record<'de>: Default {
    /// Reads the value of `key` into its field, or past it if the key is not one of them.
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error>;
}

/// Reads an object's keys into a record.
fn record<'de, R: Record<'de>, A: MapAccess<'de>>(mut map: A) -> Result<Option<R>, A::Error> {
    let mut record = R::default();
    while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
        record.field(&key, &mut map)?;
    }
    Ok(Some(record))
}

/// `record` for each type, and `Shape` through it.
macro_rules! records {
    ($($name:ident { $($key:literal => $field:ident),* $(,)? })*) => {$(
        impl<'de> Record<'de> for $name<'de> {
            fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
                match key {
                    $($key => self.$field = map.next_value()?,)*
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(())
            }
        }
        impl<'de> Shape<'de> for $name<'de> {
            fn object<A: MapAccess<'de>>(map: A) -> Result<Option<Self>, A::Error> {
                record(map)
            }
        }
    )*};
}

/// One case: `docs/adjudicate-json.md`, "Input: a case".
#[derive(Clone, Debug, Default)]
pub struct CaseInput<'de> {
    /// Echoed back as given (any JSON value; `null` when absent).
    pub id: Option<Value>,
    pub variant: Given<Text<'de>>,
    /// An edition, or an object of switches: read as a value (rare, and small).
    pub rules: Option<Value>,
    pub phase: Given<PhaseInput<'de>>,
    pub units: Given<Vec<Given<UnitInput<'de>>>>,
    pub dislodged: Given<Vec<Given<UnitInput<'de>>>>,
    pub contested: Given<Vec<Given<Text<'de>>>>,
    pub centers: Given<Pairs<'de, Given<Vec<Given<Text<'de>>>>>>,
    pub centres: Given<Pairs<'de, Given<Vec<Given<Text<'de>>>>>>,
    pub destroyed: Given<Vec<Given<Text<'de>>>>,
    pub restoring: Given<Vec<Given<RestorationInput<'de>>>>,
    pub credits: Given<Vec<Given<CreditInput<'de>>>>,
    pub orders: Given<Pairs<'de, Given<Vec<Given<Text<'de>>>>>>,
    /// Diadochi V's credit commands, carried out before the phase: read as values (rare,
    /// and small).
    pub credit_orders: Option<Value>,
}

/// `{"season": "spring", "year": 1901, "kind": "movement"}`.
#[derive(Clone, Debug, Default)]
pub struct PhaseInput<'de> {
    pub season: Given<Text<'de>>,
    pub year: Given<Number>,
    pub kind: Given<Text<'de>>,
}

/// A unit, on the board or dislodged: `{"power": "england", "type": "army", "at": "lon"}`.
#[derive(Clone, Debug, Default)]
pub struct UnitInput<'de> {
    pub power: Given<Text<'de>>,
    pub kind: Given<Text<'de>>,
    pub at: Given<Text<'de>>,
    /// Dislodged units: where the attacker came from, and whether by convoy.
    pub attacker_from: Given<Text<'de>>,
    pub by_convoy: Given<bool>,
}

/// Diadochi V: `{"province": "ath", "power": "macedon", "turns": 1}`.
#[derive(Clone, Debug, Default)]
pub struct RestorationInput<'de> {
    pub province: Given<Text<'de>>,
    pub power: Given<Text<'de>>,
    pub turns: Given<Number>,
}

/// Diadochi V: `{"lender": "egypt", "borrower": "syria", "amount": 2}`.
#[derive(Clone, Debug, Default)]
pub struct CreditInput<'de> {
    pub lender: Given<Text<'de>>,
    pub borrower: Given<Text<'de>>,
    pub amount: Given<Number>,
}

records! {
    CaseInput {
        "id" => id, "variant" => variant, "rules" => rules, "phase" => phase, "units" => units,
        "dislodged" => dislodged, "contested" => contested, "centers" => centers,
        "centres" => centres, "destroyed" => destroyed, "restoring" => restoring,
        "credits" => credits, "orders" => orders, "credit_orders" => credit_orders,
    }
    PhaseInput { "season" => season, "year" => year, "kind" => kind }
    UnitInput {
        "power" => power, "type" => kind, "at" => at, "attacker_from" => attacker_from,
        "by_convoy" => by_convoy,
    }
    RestorationInput { "province" => province, "power" => power, "turns" => turns }
    CreditInput { "lender" => lender, "borrower" => borrower, "amount" => amount }
}

/// Reads one case (a JSON value of any kind) from JSON text.
pub fn from_json(text: &[u8]) -> serde_json::Result<Given<CaseInput<'_>>> {
    // Text checked as UTF-8 once, whole, rather than string by string; bytes that are not
    // UTF-8 are left to serde_json, to be told where they are.
    match std::str::from_utf8(text) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(text),
    }
}

/// Reads one case from a value already read.
pub fn from_value(value: &Value) -> Given<CaseInput<'_>> {
    // A `&Value` gives every JSON kind, all of which `Given` takes.
    Given::deserialize(value).unwrap_or(Given::Wrong)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_given_absent_null_right_or_wrong() {
        let text = br#"{"id": "x", "variant": 3, "phase": {"season": "spring", "year": -5},
            "units": [{"power": "england", "type": "army", "at": "lon", "extra": [1, {"a": 2}]}, 7],
            "contested": null, "orders": {"england": ["A LON H"], "france": "A PAR H"},
            "title": {"ignored": true}}"#;
        let Given::Is(case) = from_json(text).unwrap() else {
            panic!("an object is a case")
        };
        assert_eq!(case.id, Some(Value::from("x")));
        assert_eq!(case.variant, Given::Wrong);
        let phase = case.phase.get().unwrap();
        assert_eq!(phase.season.get().map(|s| s.as_ref()), Some("spring"));
        assert_eq!(phase.year, Given::Is(Number::Negative(-5)));
        assert_eq!(phase.kind, Given::Absent);
        let units = case.units.get().unwrap();
        assert_eq!(units.len(), 2);
        assert_eq!(
            units[0].get().unwrap().at.get().map(|s| s.as_ref()),
            Some("lon")
        );
        assert!(matches!(units[1], Given::Wrong));
        assert_eq!(case.contested, Given::Null);
        assert!(matches!(case.dislodged, Given::Absent));
        let orders = &case.orders.get().unwrap().0;
        assert_eq!(orders[0].0, "england");
        assert_eq!(orders[1].1, Given::Wrong);
    }

    #[test]
    fn a_key_given_twice_keeps_its_place_and_its_last_value() {
        let text = br#"{"orders": {"england": ["A LON H"], "france": [], "england": ["F EDI H"]},
            "variant": "a", "variant": "standard"}"#;
        let Given::Is(case) = from_json(text).unwrap() else {
            panic!("an object is a case")
        };
        assert_eq!(case.variant.get().map(|s| s.as_ref()), Some("standard"));
        let orders = &case.orders.get().unwrap().0;
        assert_eq!(orders.len(), 2);
        assert_eq!(orders[0].0, "england");
        assert_eq!(orders[0].1.get().unwrap()[0].get().unwrap(), "F EDI H");
    }

    #[test]
    fn not_an_object_is_a_wrong_case_and_the_same_read_from_a_value() {
        assert!(matches!(from_json(b"[1, 2]").unwrap(), Given::Wrong));
        assert!(from_json(b"{\"id\": ").is_err(), "text that is not JSON");
        let value: Value = serde_json::from_str(r#"{"id": 4, "phase": {"year": 1901.5}}"#).unwrap();
        let Given::Is(case) = from_value(&value) else {
            panic!("an object is a case")
        };
        assert_eq!(case.id, Some(Value::from(4)));
        let year = case.phase.get().unwrap().year.clone();
        assert_eq!(year, Given::Is(Number::Float(1901.5)));
        assert_eq!(Number::Float(1901.5).as_i64(), None);
        assert_eq!(Number::Unsigned(u64::MAX).as_i64(), None);
    }
}
