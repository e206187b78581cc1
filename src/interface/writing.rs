//! A case's result written as JSON text by hand, byte for byte as serde_json's pretty writer
//! (with `stream.rs`'s layout) writes it, at a fraction of the cost: each order's entry is a
//! few copies of known pieces rather than a call per key, value and comma.
//!
//! Only the fields that are already `serde_json::Value`s (a case's `id`, Diadochi V's credits,
//! the year's end) go through serde_json, at the depth where they stand. The test at the end
//! checks the two writers agree on every kind of case.

use std::io::Write;

use serde::Serialize;
use serde_json::Value;

use super::result::{CaseResult, Entry, Keyed, OrderResult, UnitResult};
use super::stream::Indented;

/// Appends `entry` to `out` as an element of the results list: from its `{` to its `}`, laid
/// out one level in.
pub(super) fn write_entry(out: &mut Vec<u8>, entry: &Entry) {
    let mut w = Writer { out, depth: 2 };
    w.out.push(b'{');
    w.field("id", true);
    w.value(&*entry.id);
    match &entry.outcome {
        Ok(result) => {
            w.field("result", false);
            w.result(result);
        }
        Err(message) => {
            w.field("error", false);
            w.text(message);
        }
    }
    w.close(b'}', true);
}

/// The text has no byte JSON escapes (a control character, `"` or `\`), looked at eight
/// bytes at a time.
fn plain(text: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte of `x` is below `n` (at most 128) where this sets its high bit; exact as a whole.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let zero = |x: u64| below(x, 1);
    let escaped = |x: u64| {
        below(x, 0x20) | zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\')))
    };
    let mut chunks = text.chunks_exact(8);
    for chunk in &mut chunks {
        if escaped(u64::from_ne_bytes(chunk.try_into().expect("eight bytes"))) != 0 {
            return false;
        }
    }
    let rest = chunks.remainder();
    let mut last = [b' '; 8];
    last[..rest.len()].copy_from_slice(rest);
    // The last bytes, padded with spaces.
    escaped(u64::from_ne_bytes(last)) == 0
}

/// Where the text goes, and how deep the items being written stand (2 spaces a level).
struct Writer<'o> {
    out: &'o mut Vec<u8>,
    depth: usize,
}

/// A line end and the indentation of 32 levels, cut to the length needed.
const LINE: &[u8; 65] = b"\n                                                                ";

impl Writer<'_> {
    /// A line end (after a comma unless `first`) and the indentation of the current depth.
    fn line(&mut self, first: bool) {
        if !first {
            self.out.push(b',');
        }
        let width = 2 * self.depth;
        match LINE.get(..1 + width) {
            Some(piece) => self.out.extend_from_slice(piece),
            None => {
                self.out.push(b'\n');
                self.out.resize(self.out.len() + width, b' ');
            }
        }
    }

    /// `"key": ` on a line of its own: a key of the interface's own or a variant's id, which
    /// need no escape.
    fn field(&mut self, key: &str, first: bool) {
        self.line(first);
        self.word(key);
        self.out.extend_from_slice(b": ");
    }

    /// A word that needs no escape: the interface's own words (`succeeds`, `army`) and the
    /// ids of a variant's powers, provinces and coasts, which the variant loader keeps to
    /// lower-case letters, digits, `_` and `/`.
    fn word(&mut self, word: &str) {
        debug_assert!(plain(word.as_bytes()), "{word:?}");
        self.out.reserve(word.len() + 2);
        self.out.push(b'"');
        self.out.extend_from_slice(word.as_bytes());
        self.out.push(b'"');
    }

    /// The end of a list or object that was opened one level up from the current depth.
    fn close(&mut self, bracket: u8, had_items: bool) {
        self.depth -= 1;
        if had_items {
            self.line(true);
        }
        self.out.push(bracket);
    }

    /// A JSON string, escaped as serde_json escapes it.
    fn text(&mut self, text: &str) {
        if plain(text.as_bytes()) {
            self.out.push(b'"');
            self.out.extend_from_slice(text.as_bytes());
            self.out.push(b'"');
        } else {
            serde_json::to_writer(&mut *self.out, text).expect("writing to memory does not fail");
        }
    }

    /// Any serialisable value, through serde_json, laid out at the current depth.
    fn value(&mut self, value: &impl Serialize) {
        let formatter = Indented::at(self.depth);
        let mut serializer = serde_json::Serializer::with_formatter(&mut *self.out, formatter);
        value
            .serialize(&mut serializer)
            .expect("writing to memory does not fail");
    }

    /// A list whose items are written by `item`, each on a line of its own.
    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.out.push(b'[');
        self.depth += 1;
        for (i, it) in items.iter().enumerate() {
            self.line(i == 0);
            item(self, it);
        }
        self.close(b']', !items.is_empty());
    }

    /// A list of ids (`word`).
    fn words(&mut self, items: &[&str]) {
        self.list(items, |w, t| w.word(t));
    }

    /// An object of pairs in their order, each value written by `value`.
    fn keyed<V>(&mut self, pairs: &Keyed<&str, V>, mut value: impl FnMut(&mut Self, &V)) {
        self.out.push(b'{');
        self.depth += 1;
        for (i, (k, v)) in pairs.0.iter().enumerate() {
            self.field(k, i == 0);
            value(self, v);
        }
        self.close(b'}', !pairs.0.is_empty());
    }

    fn result(&mut self, r: &CaseResult) {
        self.out.push(b'{');
        self.depth += 1;
        self.field("orders", true);
        self.list(&r.orders, Writer::order);
        if let Some(dislodged) = &r.dislodged {
            self.field("dislodged", false);
            self.words(dislodged);
        }
        if let Some(retreats) = &r.retreats {
            self.field("retreats", false);
            self.keyed(retreats, |w, options| w.words(options));
        }
        self.field("positions_after", false);
        self.list(&r.positions_after, Writer::unit);
        if let Some(destroyed) = &r.destroyed_after {
            self.field("destroyed_after", false);
            self.words(destroyed);
        }
        if let Some(adjustments) = &r.adjustments {
            self.field("adjustments", false);
            self.keyed(adjustments, |w, n| {
                write!(w.out, "{n}").expect("writing to memory does not fail");
            });
        }
        if let Some(credit_orders) = &r.credit_orders {
            self.field("credit_orders", false);
            self.value(credit_orders);
        }
        let values: [(&str, Option<&Value>); 2] = [
            ("credits", r.credits.as_ref()),
            ("credits_lapsed", r.credits_lapsed.as_ref()),
        ];
        for (key, value) in values {
            if let Some(value) = value {
                self.field(key, false);
                self.value(value);
            }
        }
        self.field("survivors", false);
        self.words(&r.survivors);
        self.field("year_end", false);
        match &r.year_end {
            Some(year_end) => self.value(year_end),
            None => self.out.extend_from_slice(b"null"),
        }
        self.close(b'}', true);
    }

    /// An order's entry where it always stands, in the `orders` list of a result: its keys,
    /// indentation and punctuation written in a few whole pieces.
    fn order(&mut self, o: &OrderResult) {
        debug_assert_eq!(self.depth, LIST_DEPTH);
        self.out.extend_from_slice(b"{\n          \"power\": \"");
        self.out.extend_from_slice(o.power.as_bytes());
        self.out.extend_from_slice(b"\",\n          \"order\": ");
        self.text(o.order);
        self.out.extend_from_slice(b",\n          \"result\": \"");
        self.out.extend_from_slice(o.result.as_bytes());
        if let Some(reason) = o.reason {
            self.out.extend_from_slice(b"\",\n          \"reason\": \"");
            self.out.extend_from_slice(reason.as_bytes());
        }
        self.out.push(b'"');
        if let Some(message) = &o.message {
            self.out.extend_from_slice(b",\n          \"message\": ");
            self.text(message);
        }
        self.out.extend_from_slice(b"\n        }");
    }

    /// A unit's entry where it always stands, in the `positions_after` list of a result.
    fn unit(&mut self, u: &UnitResult) {
        debug_assert_eq!(self.depth, LIST_DEPTH);
        self.out.extend_from_slice(b"{\n          \"power\": \"");
        self.out.extend_from_slice(u.power.as_bytes());
        self.out.extend_from_slice(b"\",\n          \"type\": \"");
        self.out.extend_from_slice(u.kind.as_bytes());
        self.out.extend_from_slice(b"\",\n          \"at\": \"");
        self.out.extend_from_slice(u.at.as_bytes());
        self.out.extend_from_slice(b"\"\n        }");
    }
}

/// How deep the items of a result's lists stand: the list of results, an entry, its
/// `result`, the list (the pieces of `order` and `unit` are indented for it).
const LIST_DEPTH: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::case;
    use crate::interface::result::{Options, run_case};
    use crate::text::order::OrderReader;

    /// The entry as serde_json writes it through the `Serialize` the types derive.
    fn by_serde(entry: &Entry) -> Vec<u8> {
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, Indented::at(1));
        entry.serialize(&mut serializer).unwrap();
        out
    }

    #[test]
    fn plain_text_is_text_with_nothing_to_escape() {
        for text in ["", "a", "A PAR - BUR", "русский", "0123456789abcdef~\x7f"] {
            assert!(plain(text.as_bytes()), "{text:?}");
        }
        for bad in [b'"', b'\\', b'\n', 0, 0x1f] {
            for at in 0..20 {
                let mut text = vec![b'x'; 20];
                text[at] = bad;
                assert!(!plain(&text), "{bad} at {at}");
            }
        }
        for byte in 0..=255u8 {
            let expected = byte >= 0x20 && byte != b'"' && byte != b'\\';
            assert_eq!(
                plain(&[b'a', byte, b'a', b'a', b'a', b'a', b'a', b'a', b'a']),
                expected
            );
        }
    }

    /// Every case of the project's case files (standard and Diadochi V, every phase, credits,
    /// retreats, adjustments, the year's end), a case that is not an object, and ids that
    /// need escapes or nest: the hand writer and serde_json write the same bytes.
    #[test]
    fn the_hand_writer_writes_what_serde_json_writes() {
        let variants = crate::variant::embedded().unwrap();
        let files = [
            include_str!("../../tests/data/cases/own.json"),
            include_str!("../../tests/data/diadochi/rules.json"),
            include_str!("../../tests/data/maps/cases.json"),
            r#"[7, {"id": {"a\"b": [1, {"c\u0001": null}], "e": {}}, "orders": []},
                {"id": "tab\there", "phase": {"season": "fall", "year": 1901, "kind": "movement"},
                 "units": [{"power": "england", "type": "army", "at": "lon"}],
                 "orders": {"england": ["A LON - \"WAL\"\n", "A LON H"]}},
                {"id": [], "phase": {"season": "winter", "year": 1901, "kind": "adjustment"},
                 "units": [], "centers": {"england": ["lon", "edi"]}, "orders": {}}]"#,
        ];
        let mut reader = OrderReader::default();
        let mut cases = 0;
        for file in files {
            let list: Vec<Value> = serde_json::from_str(file).unwrap();
            for value in list {
                let text = value.to_string();
                let case = case::from_json(text.as_bytes()).unwrap();
                let entry = run_case(&case, &variants, &Options::default(), &mut reader);
                let mut by_hand = Vec::new();
                write_entry(&mut by_hand, &entry);
                assert_eq!(
                    String::from_utf8_lossy(&by_hand),
                    String::from_utf8_lossy(&by_serde(&entry)),
                    "{text}"
                );
                cases += 1;
            }
        }
        assert!(cases > 50, "{cases} cases");
    }
}
