//! Adjudication speed: random 34-unit standard movement phases, and the whole DATC file.
//!
//! Run with `cargo bench`; the figures go into closing notes, never into tests.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use strategos::diplomacy::adjudicate::{Submitted, adjudicate};
use strategos::diplomacy::power::PowerId;
use strategos::diplomacy::turn::PhaseKind;
use strategos::interface::adjudicate::{Options, run};
use strategos::text::order::{parse_orders, render};
use strategos::variant;

#[path = "phase_gen.rs"]
mod phase_gen;

use phase_gen::{Rng, random_phase};

fn movement_phases(c: &mut Criterion) {
    let variants = variant::embedded().expect("built-in variants load");
    let standard = variants
        .iter()
        .find(|v| v.id == "standard")
        .expect("standard");
    let map = &standard.map;
    let mut rng = Rng::new(0x5eed);
    let phases: Vec<_> = (0..256).map(|_| random_phase(map, &mut rng, 34)).collect();
    let mut i = 0;
    c.bench_function("adjudicate 34-unit movement phase", |b| {
        b.iter(|| {
            let (position, orders) = &phases[i % phases.len()];
            i += 1;
            black_box(adjudicate(map, &standard.rules, position, orders))
        })
    });
    // As a judge meets them: each power's orders arrive as one letter, read, then adjudicated.
    let letters: Vec<Vec<(PowerId, String)>> = phases
        .iter()
        .map(|(_, orders)| {
            let mut by_power: Vec<(PowerId, String)> = Vec::new();
            for s in orders {
                let line = render(map, &s.order);
                match by_power.iter_mut().find(|(p, _)| *p == s.power) {
                    Some((_, text)) => {
                        text.push('\n');
                        text.push_str(&line);
                    }
                    None => by_power.push((s.power, line)),
                }
            }
            by_power
        })
        .collect();
    let mut r = 0;
    c.bench_function("read a 34-unit movement phase's orders from text", |b| {
        b.iter(|| {
            let k = r % phases.len();
            r += 1;
            let mut read = 0;
            for (_, text) in &letters[k] {
                read += parse_orders(standard, PhaseKind::Movement, text).0.len();
            }
            black_box(read)
        })
    });
    let mut j = 0;
    c.bench_function("read letters and adjudicate 34-unit movement phase", |b| {
        b.iter(|| {
            let k = j % phases.len();
            j += 1;
            let mut orders = Vec::new();
            for (power, text) in &letters[k] {
                let (parsed, _) = parse_orders(standard, PhaseKind::Movement, text);
                orders.extend(parsed.into_iter().map(|p| Submitted {
                    power: *power,
                    order: p.order,
                }));
            }
            black_box(adjudicate(map, &standard.rules, &phases[k].0, &orders))
        })
    });
}

fn datc_file(c: &mut Criterion) {
    let variants = variant::embedded().expect("built-in variants load");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/datc/cases.json"
    ))
    .expect("the DATC cases are in tests/data");
    let cases: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    c.bench_function("adjudicate the whole DATC file (165 cases)", |b| {
        b.iter(|| black_box(run(&cases, &variants, &Options::default())))
    });
}

criterion_group!(benches, movement_phases, datc_file);
criterion_main!(benches);
