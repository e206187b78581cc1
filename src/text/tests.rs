//! Tests of order reading on the standard map: chosen cases and random text (the data
//! table runs in the integration tests, `tests/it/orders.rs`).

use crate::diplomacy::map::{Map, NameTarget};
use crate::diplomacy::order::{Action, Location, Order, UnitOrder};
use crate::diplomacy::turn::PhaseKind;
use crate::diplomacy::unit::UnitKind;
use crate::variant::Variant;

use super::Severity;
use super::names::{lookup, normalise_name, suggest};
use super::order::{parse_order, parse_orders, render};

const PHASES: [PhaseKind; 3] = [
    PhaseKind::Movement,
    PhaseKind::Retreat,
    PhaseKind::Adjustment,
];

/// The standard variant, as the variant loader builds it from `variants/standard.toml`.
fn standard() -> Variant {
    let variants = crate::variant::embedded().expect("embedded variants load");
    variants
        .into_iter()
        .find(|v| v.id == "standard")
        .expect("standard")
}

fn province(map: &Map, id: &str) -> Location {
    Location::province(map.province_by_id(id).expect("province"))
}

#[test]
fn names() {
    let variant = standard();
    let map = &variant.map;
    let stp = map.province_by_id("stp").expect("stp");
    assert_eq!(
        lookup(&variant, "St. Petersburg"),
        Some(NameTarget::Province(stp))
    );
    assert_eq!(
        lookup(&variant, "  MID-ATLANTIC   ocean "),
        lookup(&variant, "mao")
    );
    assert!(matches!(
        lookup(&variant, "stp/nc"),
        Some(NameTarget::Region(_))
    ));
    assert_eq!(lookup(&variant, "Lodnon"), None);
    assert_eq!(suggest(&variant, "Lodnon").as_deref(), Some("London"));
    assert_eq!(suggest(&variant, "Nrth Sea").as_deref(), Some("North Sea"));
    assert_eq!(suggest(&variant, "xyzzy"), None);
    assert_eq!(suggest(&variant, ""), None);
}

#[test]
fn cyrillic_alias() {
    let mut variant = standard();
    let mos = variant.map.province_by_id("mos").expect("mos");
    variant
        .map
        .names
        .push((normalise_name("Москва"), NameTarget::Province(mos)));
    let (orders, diagnostics) = parse_orders(&variant, PhaseKind::Movement, "A МОСКВА - War");
    assert_eq!(diagnostics, vec![]);
    assert_eq!(orders.len(), 1);
    let (_, diagnostics) = parse_orders(&variant, PhaseKind::Movement, "A Моксва - War");
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].message,
        "there is no province 'Моксва'; did you mean Moscow?"
    );
    assert_eq!(diagnostics[0].column, 3);
}

#[test]
fn positions_and_text() {
    let variant = standard();
    let map = &variant.map;
    let text = "\n  A Lon - Bel ,  F nth c a lon - bel\n\nБ🚢; A Lodnon H; A PAR";
    let (orders, diagnostics) = parse_orders(&variant, PhaseKind::Movement, text);
    assert_eq!(orders.len(), 2);
    assert_eq!((orders[0].line, orders[0].column), (2, 3));
    assert_eq!(orders[0].text, "A Lon - Bel");
    assert_eq!((orders[1].line, orders[1].column), (2, 18));
    assert_eq!(orders[1].text, "F nth c a lon - bel");
    let want_move = Order::Unit(UnitOrder {
        unit: Some(UnitKind::Army),
        at: province(map, "lon"),
        action: Action::Move {
            to: province(map, "bel"),
            via_convoy: false,
        },
    });
    assert_eq!(orders[0].order, want_move);
    assert_eq!(diagnostics.len(), 3);
    assert_eq!((diagnostics[0].line, diagnostics[0].column), (4, 1));
    assert_eq!(diagnostics[1].column, 7);
    assert_eq!(
        diagnostics[1].to_string(),
        "line 4: there is no province 'Lodnon'; did you mean London?"
    );
    assert_eq!(diagnostics[2].column, 19);
    assert_eq!(
        diagnostics[2].message,
        "'PAR' is not followed by an order (expected -, H, S or C)"
    );
}

#[test]
fn coasts_kept_and_dropped() {
    let variant = standard();
    let map = &variant.map;
    let spa = map.province_by_id("spa").expect("spa");
    let (order, diagnostics) = parse_order(&variant, PhaseKind::Movement, "A GAS - SPA/NC");
    let Some(Order::Unit(UnitOrder {
        action: Action::Move { to, .. },
        ..
    })) = order
    else {
        panic!("not a move: {order:?}");
    };
    assert_eq!(to.coast, map.coast_region(spa, "nc"));
    assert_eq!(diagnostics, vec![]);
    let (order, diagnostics) = parse_order(&variant, PhaseKind::Movement, "F MAO - spa/wc");
    assert_eq!(
        order.map(|o| render(map, &o)).as_deref(),
        Some("F MAO - SPA")
    );
    let read: Vec<(usize, usize, Severity, &str)> = diagnostics
        .iter()
        .map(|d| (d.line, d.column, d.severity, d.message.as_str()))
        .collect();
    assert_eq!(
        read,
        [(
            1,
            13,
            Severity::Warning,
            "Spain has no west coast; the coast is ignored"
        )]
    );
}

#[test]
fn parse_order_wants_exactly_one() {
    let variant = standard();
    let (order, diagnostics) = parse_order(&variant, PhaseKind::Movement, "A LON H, A PAR H");
    assert_eq!(order, None);
    assert!(diagnostics[0].message.contains("holds 2 orders"));
    let (order, diagnostics) = parse_order(&variant, PhaseKind::Movement, "   ");
    assert_eq!(order, None);
    assert_eq!(diagnostics[0].message, "there is no order here");
    let (order, diagnostics) = parse_order(&variant, PhaseKind::Adjustment, "waive");
    assert_eq!(order, Some(Order::Waive));
    assert_eq!(diagnostics, vec![]);
}

#[test]
fn waive_many() {
    let variant = standard();
    let (orders, diagnostics) = parse_orders(&variant, PhaseKind::Adjustment, "WAIVE 3");
    assert_eq!(orders.len(), 3);
    assert!(diagnostics.is_empty());
    let (orders, diagnostics) = parse_orders(
        &variant,
        PhaseKind::Adjustment,
        "waive 99999999999999999999999999",
    );
    assert_eq!(orders.len(), 34);
    assert_eq!(diagnostics.len(), 1);
}

/// A tiny xorshift generator: tests need no crate for randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn random_text_never_panics() {
    let variant = standard();
    let map = &variant.map;
    let mut words: Vec<String> = map.names.iter().map(|(n, _)| n.clone()).collect();
    for w in [
        "A",
        "F",
        "army",
        "Fleet",
        "S",
        "C",
        "H",
        "R",
        "D",
        "B",
        "via",
        "convoy",
        "to",
        "move",
        "waive",
        "build",
        "remove",
        "disband",
        "by",
        "coast",
        "north",
        "nc",
        "sc",
        "(nc)",
        "/sc",
        "Austrian",
        "Russia",
        "england:",
        "0",
        "7",
        "35",
        "99999999999999999999",
        "?",
        "St.",
        "Санкт-Петербург",
        "Москва",
        "привет",
        "🚢",
        "é",
        "ß",
        "ǅ",
        "İ",
        "\u{301}",
        "",
    ] {
        words.push(w.to_string());
    }
    let punctuation = [
        "-", "->", "=>", "—", "/", "(", ")", "[", "]", ",", ";", ".", ":", "'", "\"", "?", "\n",
        "\r\n", "\t", " ", "  ", "-", "- ", "→", "\u{0}", "\u{200b}",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..10_000 {
        let mut text = String::new();
        for _ in 0..rng.below(16) {
            match rng.below(4) {
                0 => text.push_str(&words[rng.below(words.len())]),
                1 => text.push_str(punctuation[rng.below(punctuation.len())]),
                2 => text.push(char::from_u32(rng.below(0x500) as u32).unwrap_or('x')),
                _ => text.push(' '),
            }
        }
        // Every phase in turn; one phase per string keeps the test quick in debug builds.
        for phase in [PHASES[rng.below(PHASES.len())]] {
            let (orders, diagnostics) = parse_orders(&variant, phase, &text);
            for d in &diagnostics {
                assert!(d.line >= 1 && d.column >= 1, "{text:?}: {d:?}");
                assert!(!d.message.ends_with('.'), "{text:?}: {d:?}");
            }
            for parsed in &orders {
                let rendered = render(map, &parsed.order);
                let (again, diagnostics) = parse_order(&variant, phase, &rendered);
                assert_eq!(again.as_ref(), Some(&parsed.order), "{text:?} → {rendered}");
                assert!(
                    diagnostics.is_empty(),
                    "{text:?} → {rendered}: {diagnostics:?}"
                );
            }
        }
        let _ = parse_order(&variant, PhaseKind::Movement, &text);
    }
}
