//! Order texts: the table in `tests/data/text/orders.txt`, and property tests that the
//! parser never panics, whatever it is fed.

mod table;

use proptest::prelude::*;

use strategos::diplomacy::turn::PhaseKind;
use strategos::text::order::{parse_order, parse_orders, render};
use table::check_table;

use crate::case::variants;

fn standard() -> &'static strategos::variant::Variant {
    variants().iter().find(|v| v.id == "standard").unwrap()
}

#[test]
fn the_order_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/text/orders.txt");
    let table = std::fs::read_to_string(path).unwrap();
    let (n_cases, failures) = check_table(standard(), &table);
    assert!(n_cases >= 150, "only {n_cases} cases in the table");
    assert!(
        failures.is_empty(),
        "{} of {n_cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const PHASES: [PhaseKind; 3] = [
    PhaseKind::Movement,
    PhaseKind::Retreat,
    PhaseKind::Adjustment,
];

/// Words orders are made of, to build texts that look like orders.
const WORDS: &[&str] = &[
    "A",
    "F",
    "army",
    "fleet",
    "-",
    "->",
    "to",
    "S",
    "supports",
    "C",
    "convoys",
    "H",
    "holds",
    "R",
    "D",
    "B",
    "build",
    "remove",
    "disband",
    "waive",
    "via",
    "convoy",
    "VIA",
    "lon",
    "London",
    "St.",
    "Petersburg",
    "stp/nc",
    "(nc)",
    "north",
    "coast",
    "spa",
    "sc",
    "/ec",
    "Mid-Atlantic",
    "Ocean",
    "North",
    "Sea",
    "nth",
    "bel",
    "Лондон",
    "ä",
    ",",
    ";",
    "\n",
    "(",
    ")",
    "/",
    "--",
    "0",
    "99",
    "English",
    "Russian",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}", phase in 0usize..3) {
        let (orders, diagnostics) = parse_orders(standard(), PHASES[phase], &text);
        for d in &diagnostics {
            prop_assert!(d.line >= 1 && d.column >= 1);
        }
        let _ = orders;
        let _ = parse_order(standard(), PHASES[phase], &text);
    }

    #[test]
    fn order_like_text_never_panics_and_reads_back(words in prop::collection::vec(0..WORDS.len(), 0..12), phase in 0usize..3) {
        let text: Vec<&str> = words.iter().map(|i| WORDS[*i]).collect();
        let text = text.join(" ");
        let standard = standard();
        let (orders, _) = parse_orders(standard, PHASES[phase], &text);
        for parsed in orders {
            let again = render(&standard.map, &parsed.order);
            let (reread, _) = parse_order(standard, PHASES[phase], &again);
            prop_assert_eq!(reread.as_ref(), Some(&parsed.order), "{} rendered as {}", text, again);
        }
    }
}
