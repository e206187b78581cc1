//! Drawing speed: a standard phase with its orders (the first case of `tests/data/maps/`,
//! every order kind) as SVG and as PNG, the partition of each map from nothing, and the
//! judge's start-up (the variants, the Here I Stand map and the templates loaded; the maps'
//! shapes are made on first use, not at start-up).
//!
//! Run with `cargo bench --bench maps`; the figures go into docs/performance.md, never into
//! tests.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use strategos::drawing::{self, check_map};
use strategos::interface::adjudicate::Options;
use strategos::interface::picture::{case_boards, draw_case};
use strategos::report::messages::Words;
use strategos::variant;

fn drawing(c: &mut Criterion) {
    let variants = variant::embedded().expect("built-in variants load");
    let text = include_str!("../tests/data/maps/cases.json");
    let input: serde_json::Value = serde_json::from_str(text).unwrap();
    let boards = case_boards(&input, &variants, &Options::default());
    let board = boards[0].as_ref().expect("the case reads");
    let words = Words::english();
    // The shapes are made once per process; draw once so the figures are of drawing alone.
    let svg = draw_case(board, words).unwrap();
    c.bench_function("draw a standard phase with its orders as SVG", |b| {
        b.iter(|| black_box(draw_case(board, words).unwrap()))
    });
    let mut group = c.benchmark_group("png");
    group.sample_size(20);
    group.bench_function("render a standard phase as PNG (1200 px wide)", |b| {
        b.iter(|| black_box(drawing::png::render_png(&svg, 1.0).unwrap()))
    });
    // Where the PNG's time goes: reading the SVG, painting it, compressing the PNG.
    let options = resvg::usvg::Options::default();
    group.bench_function("png part: read the SVG (usvg, no text)", |b| {
        b.iter(|| black_box(resvg::usvg::Tree::from_str(&svg, &options).unwrap()))
    });
    let tree = resvg::usvg::Tree::from_str(&svg, &options).unwrap();
    let size = tree.size().to_int_size();
    group.bench_function("png part: paint (no text)", |b| {
        b.iter(|| {
            let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
            resvg::render(
                &tree,
                resvg::tiny_skia::Transform::default(),
                &mut pixmap.as_mut(),
            );
            black_box(pixmap)
        })
    });
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    group.bench_function("png part: compress (tiny-skia's default encoding)", |b| {
        b.iter(|| black_box(pixmap.encode_png().unwrap()))
    });
    group.bench_function("draw and render a standard phase as PNG", |b| {
        b.iter(|| {
            let svg = draw_case(board, words).unwrap();
            black_box(drawing::png::render_png(&svg, 1.0).unwrap())
        })
    });
    // What a results letter's picture costs: the same board painted over the map's
    // unchanging layers, painted once and kept.
    let layout = board.variant.layout.as_deref().unwrap();
    let scene = drawing::Scene {
        map: &board.variant.map,
        layout,
        position: &board.position,
        title: board.id.clone(),
        orders: drawing::orders::drawn_orders(
            words,
            &board.variant.map,
            &board.position,
            &board.submitted,
            &board.resolution.outcomes,
        ),
        retreats: board.resolution.dislodged.clone(),
    };
    black_box(drawing::layers::board_png(&scene, words).unwrap());
    group.bench_function(
        "paint a standard phase in layers as PNG (results letters)",
        |b| b.iter(|| black_box(drawing::layers::board_png(&scene, words).unwrap())),
    );
    group.finish();
    let mut group = c.benchmark_group("shapes");
    group.sample_size(10);
    for v in &variants {
        let (id, file, text) = variant::EMBEDDED
            .iter()
            .find(|(id, _, _)| *id == v.id)
            .copied()
            .unwrap();
        group.bench_function(format!("partition and check {id} from nothing"), |b| {
            b.iter(|| {
                // A layout moved a hair is a new one: its shapes are made again.
                let mut loaded = variant::load_variant(id, file, text).unwrap();
                let layout = loaded.layout.take().unwrap();
                let mut fresh = (*layout).clone();
                fresh.width += 1e-9 * (rand_tick() as f64);
                black_box(check_map(&loaded.map, &fresh))
            })
        });
    }
    group.finish();
}

/// A different number each call, so no two layouts in the bench are equal.
fn rand_tick() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(1);
    N.fetch_add(1, Ordering::Relaxed)
}

fn start_up(c: &mut Criterion) {
    let mut group = c.benchmark_group("start-up");
    group.sample_size(20);
    group.bench_function(
        "load the variants, the Here I Stand map and the templates",
        |b| {
            b.iter(|| {
                let variants = variant::embedded().unwrap();
                let his = strategos::variant::his::embedded_map().unwrap();
                let templates = strategos::report::Templates::built_in();
                black_box((variants, his, templates))
            })
        },
    );
    group.finish();
}

criterion_group!(benches, drawing, start_up);
criterion_main!(benches);
