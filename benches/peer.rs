//! Strategos beside its peer, the `diplomacy` crate of crates.io, in one run: the same random
//! 34-unit movement phases adjudicated by both engines, then the whole `strategos adjudicate
//! --rules 2023` command (as the speed issue states its goal) beside the same command written
//! on the crate, both given one generated file of 2,000 cases, taking turns. Figures and ratios, never assertions: `cargo bench --bench peer`.
//!
//! The phases come from `phase_gen.rs` (as in `benches/adjudication.rs`) and hold only orders
//! both engines read: hold, move (never via convoy), support and convoy. The crate is driven
//! through its public API only: its order syntax (`england: A lon -> bel`, `supports`,
//! `convoys`, `stp(nc)`), `Submission::new` and `Rulebook::default()`.
//!
//! The peer command is this very program run again with `STRATEGOS_PEER_COMMAND=<file>`: it
//! reads the file as a plain tool would (the whole text, a JSON value), writes each order in
//! the crate's syntax, adjudicates and prints each order's result as a JSON list. It writes
//! less than `strategos adjudicate` (no positions after, no retreats), to its advantage.
//!
//! `STRATEGOS_PEER_CASES` (2,000) sets the cases in the file; `STRATEGOS_PEER_BIG_CASES`
//! (20,000) those of a second file that only Strategos reads, to show its peak memory does
//! not grow with the file. `STRATEGOS_PEER_WRITE=<file>` only writes the case file, to run
//! the commands by hand.

use std::fs::File;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use diplomacy::UnitPosition;
use diplomacy::geo::RegionKey;
use diplomacy::judge::MappedMainOrder;
use diplomacy::judge::OrderState;
use diplomacy::judge::Rulebook;
use diplomacy::judge::Submission;
use serde_json::{Value, json};
use strategos::diplomacy::adjudicate::{Submitted, adjudicate};
use strategos::diplomacy::map::Map;
use strategos::diplomacy::position::Position;
use strategos::text::order::render;
use strategos::variant::{self, Variant};

#[path = "phase_gen.rs"]
mod phase_gen;

use phase_gen::{Rng, random_phase};

/// Each engine is timed over the phases again and again for at least this long.
const TIMED: Duration = Duration::from_secs(2);
/// The whole commands run this many times each; the best time counts.
const RUNS: usize = 5;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn standard() -> Variant {
    variant::embedded()
        .expect("built-in variants load")
        .into_iter()
        .find(|v| v.id == "standard")
        .expect("standard")
}

/// A place of Strategos (`stp/nc`, upper or lower case) as the crate writes it (`stp(nc)`).
fn crate_place(place: &str) -> String {
    let place = place.to_ascii_lowercase();
    match place.split_once('/') {
        Some((province, coast)) => format!("{province}({coast})"),
        None => place,
    }
}

/// An order as `strategos::text::order::render` writes it (`F NTH C A LON - BEL`), written in
/// the crate's syntax (`england: F nth convoys lon -> bel`).
fn crate_order_text(power: &str, order: &str) -> String {
    let words: Vec<&str> = order.split_whitespace().collect();
    let mut out = format!("{power}: {} {}", words[0], crate_place(words[1]));
    let rest = &words[2..];
    let tail = match rest {
        ["H"] => "hold".to_string(),
        ["-", to] => format!("-> {}", crate_place(to)),
        ["S", kind, at] => format!("supports {kind} {}", crate_place(at)),
        ["S", kind, from, "-", to] => format!(
            "supports {kind} {} -> {}",
            crate_place(from),
            crate_place(to)
        ),
        ["C", "A", from, "-", to] => {
            format!("convoys {} -> {}", crate_place(from), crate_place(to))
        }
        other => panic!("an order the peer comparison does not hold: {other:?}"),
    };
    out.push(' ');
    out.push_str(&tail);
    out
}

fn crate_order(power: &str, order: &str) -> MappedMainOrder {
    let text = crate_order_text(power, order);
    text.parse()
        .unwrap_or_else(|e| panic!("the crate reads '{text}': {e:?}"))
}

fn crate_unit(power: &str, kind: &str, at: &str) -> UnitPosition<'static, RegionKey> {
    let letter = if kind == "fleet" { "F" } else { "A" };
    let text = format!("{power}: {letter} {}", crate_place(at));
    text.parse()
        .unwrap_or_else(|e| panic!("the crate reads '{text}': {e:?}"))
}

/// One phase ready for both engines.
struct Phase {
    position: Position,
    orders: Vec<Submitted>,
    crate_units: Vec<UnitPosition<'static, RegionKey>>,
    crate_orders: Vec<MappedMainOrder>,
}

fn phase_for_both(map: &Map, position: Position, orders: Vec<Submitted>) -> Phase {
    let crate_units = position
        .units
        .iter()
        .map(|u| {
            crate_unit(
                &map.power(u.power).id,
                u.kind.word(),
                &map.region_id(u.region),
            )
        })
        .collect();
    let crate_orders = orders
        .iter()
        .map(|s| crate_order(&map.power(s.power).id, &render(map, &s.order)))
        .collect();
    Phase {
        position,
        orders,
        crate_units,
        crate_orders,
    }
}

/// The mean time of `one(i)` over phases `i = 0, 1, 2...`, run for at least `TIMED`.
fn per_phase(phases: usize, mut one: impl FnMut(usize)) -> Duration {
    for i in 0..phases.min(16) {
        one(i);
    }
    let started = Instant::now();
    let mut done = 0;
    while started.elapsed() < TIMED || done < phases {
        one(done % phases);
        done += 1;
    }
    started.elapsed() / done as u32
}

fn engines(variant: &Variant) {
    let map = &variant.map;
    let mut rng = Rng::new(0x5eed);
    let phases: Vec<Phase> = (0..256)
        .map(|_| {
            let (position, orders) = random_phase(map, &mut rng, 34);
            phase_for_both(map, position, orders)
        })
        .collect();
    let crate_map = diplomacy::geo::standard_map();

    // The two engines agree where the rulebooks do (they differ on a few DATC options).
    let (mut agree, mut orders) = (0, 0);
    for phase in &phases {
        let ours = adjudicate(map, &variant.rules, &phase.position, &phase.orders);
        let submission = Submission::new(crate_map, &phase.crate_units, phase.crate_orders.clone());
        let theirs = submission.adjudicate(Rulebook::default());
        for (outcome, order) in ours.outcomes.iter().zip(&phase.crate_orders) {
            let succeeds = theirs
                .get(order)
                .is_some_and(|o| OrderState::from(o) == OrderState::Succeeds);
            orders += 1;
            agree += usize::from((outcome.result_word() == "succeeds") == succeeds);
        }
    }

    let ours = per_phase(phases.len(), |i| {
        let p = &phases[i];
        black_box(adjudicate(map, &variant.rules, &p.position, &p.orders));
    });
    let theirs = per_phase(phases.len(), |i| {
        let p = &phases[i];
        let submission = Submission::new(crate_map, &p.crate_units, p.crate_orders.clone());
        black_box(
            submission
                .adjudicate(Rulebook::default())
                .all_orders()
                .count(),
        );
    });
    println!(
        "engine, a random 34-unit standard movement phase ({} phases, fixed seed):",
        phases.len()
    );
    println!("    strategos        {:>10.1} µs", micros(ours));
    println!("    diplomacy crate  {:>10.1} µs", micros(theirs));
    println!(
        "    strategos is {:.0} times as fast (goal: 100); the two agree on {agree} of {orders} orders' success",
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Writes `n` random cases in the JSON interface's format, laid out as people write them.
fn write_cases(map: &Map, path: &Path, n: usize, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut out = std::io::BufWriter::new(File::create(path).expect("a case file"));
    out.write_all(b"[\n").unwrap();
    for i in 0..n {
        let (position, orders) = random_phase(map, &mut rng, 34);
        let units: Vec<Value> = position
            .units
            .iter()
            .map(|u| {
                json!({"power": map.power(u.power).id, "type": u.kind.word(), "at": map.region_id(u.region)})
            })
            .collect();
        let mut by_power = serde_json::Map::new();
        for s in &orders {
            let list = by_power
                .entry(map.power(s.power).id.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = list {
                list.push(Value::from(render(map, &s.order)));
            }
        }
        let case = json!({
            "id": format!("random-{i}"),
            "phase": {"season": "spring", "year": 1901, "kind": "movement"},
            "units": units,
            "orders": by_power,
        });
        if i > 0 {
            out.write_all(b",\n").unwrap();
        }
        serde_json::to_writer_pretty(&mut out, &case).unwrap();
    }
    out.write_all(b"\n]\n").unwrap();
    out.flush().unwrap();
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// Runs a command with its output to `out`: the wall time and the peak resident memory (MB).
// The child is reaped by `wait4`, which also gives its peak memory, not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(command: &mut Command, out: &Path) -> (Duration, f64) {
    // The last run's output is truncated before the clock starts: freeing its pages is no
    // part of the command.
    let out = File::create(out).expect("an output file");
    let started = Instant::now();
    let child = command
        .stdout(out)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the command runs");
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value, and `wait4` reaps only our own child,
    // whose `Child` handle is not waited on afterwards.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let took = started.elapsed();
    assert_eq!(
        reaped,
        child.id() as libc::pid_t,
        "the command was waited for"
    );
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{command:?} exits 0"
    );
    (took, usage.ru_maxrss as f64 / 1024.0)
}

/// The best (shortest) of `RUNS` runs of each command, the commands taking turns, so that
/// this machine's drift from minute to minute touches each alike.
fn best_of_each(commands: &mut [&mut dyn FnMut() -> (Duration, f64)]) -> Vec<(Duration, f64)> {
    let mut best: Vec<Option<(Duration, f64)>> = vec![None; commands.len()];
    for _ in 0..RUNS {
        for (command, best) in commands.iter_mut().zip(&mut best) {
            let run = command();
            if best.is_none_or(|(took, _)| run.0 < took) {
                *best = Some(run);
            }
        }
    }
    best.into_iter()
        .map(|b| b.expect("at least one run"))
        .collect()
}

fn commands(variant: &Variant) {
    let dir: PathBuf = std::env::temp_dir().join(format!("strategos-peer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = env_number("STRATEGOS_PEER_CASES", 2000);
    let cases = dir.join("cases.json");
    let size = write_cases(&variant.map, &cases, n, 0xc0ffee);
    let strategos = env!("CARGO_BIN_EXE_strategos");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let me = std::env::current_exe().expect("this program");
    // As the issue states the goal: `strategos adjudicate --rules 2023`.
    let mut ours = || {
        run(
            Command::new(strategos)
                .args(["adjudicate", "--rules", "2023"])
                .arg(&cases),
            &dir.join("strategos.json"),
        )
    };
    // The same on one thread, as the crate's command runs.
    let mut ours_alone = || {
        run(
            Command::new(strategos)
                .args(["adjudicate", "--rules", "2023", "--threads", "1"])
                .arg(&cases),
            &dir.join("strategos-1.json"),
        )
    };
    let mut theirs = || {
        run(
            Command::new(&me).env("STRATEGOS_PEER_COMMAND", &cases),
            &dir.join("peer.json"),
        )
    };
    let [ours, ours_alone, theirs] = best_of_each(&mut [&mut ours, &mut ours_alone, &mut theirs])
        .try_into()
        .expect("three commands");
    // Before anything below makes this process bigger: a child's peak memory counts what it
    // shares with this process until it starts the command.
    let big_n = env_number("STRATEGOS_PEER_BIG_CASES", 20_000);
    let big_line = (big_n > 0).then(|| {
        let big = dir.join("big.json");
        let big_size = write_cases(&variant.map, &big, big_n, 0xbeef);
        let (took, peak) = run(
            Command::new(strategos).arg("adjudicate").arg(&big),
            &dir.join("big-out.json"),
        );
        format!(
            "    strategos adjudicate on {big_n} cases ({:.0} MB): {:.3} s, {:.0} µs a case, peak memory {peak:.1} MB",
            big_size as f64 / 1e6,
            took.as_secs_f64(),
            micros(took) / big_n as f64
        )
    });
    assert_eq!(
        std::fs::read(dir.join("strategos.json")).unwrap(),
        std::fs::read(dir.join("strategos-1.json")).unwrap(),
        "one thread or several, the output is the same"
    );
    // Both commands read every order the same way.
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).expect("JSON out")
    };
    let (a, b) = (read("strategos.json"), read("peer.json"));
    let (mut agree, mut orders) = (0, 0);
    for (x, y) in a.as_array().unwrap().iter().zip(b.as_array().unwrap()) {
        for (p, q) in x["result"]["orders"]
            .as_array()
            .unwrap()
            .iter()
            .zip(y["orders"].as_array().unwrap())
        {
            orders += 1;
            agree += usize::from((p["result"] == "succeeds") == (q["result"] == "succeeds"));
        }
    }
    println!(
        "whole command, {n} random 34-unit phases in one file of {:.1} MB (best of {RUNS} runs):",
        size as f64 / 1e6
    );
    println!(
        "    strategos adjudicate --rules 2023 {:>8.3} s, {:>5.0} µs a case, peak memory {:>5.1} MB ({cores} cores)",
        ours.0.as_secs_f64(),
        micros(ours.0) / n as f64,
        ours.1
    );
    println!(
        "      with --threads 1                {:>8.3} s, {:>5.0} µs a case, peak memory {:>5.1} MB",
        ours_alone.0.as_secs_f64(),
        micros(ours_alone.0) / n as f64,
        ours_alone.1
    );
    println!(
        "    on the diplomacy crate            {:>8.3} s, {:>5.0} µs a case, peak memory {:>5.1} MB",
        theirs.0.as_secs_f64(),
        micros(theirs.0) / n as f64,
        theirs.1
    );
    println!(
        "    strategos is {:.1} times as fast (goal: 10), {:.1} times on one thread; the two agree on {agree} of {orders} orders' success",
        theirs.0.as_secs_f64() / ours.0.as_secs_f64(),
        theirs.0.as_secs_f64() / ours_alone.0.as_secs_f64()
    );

    if let Some(line) = big_line {
        println!("{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peer command: `strategos adjudicate` written on the crate, for the cases it can hold.
fn peer_command(path: &str) -> ExitCode {
    let text = std::fs::read_to_string(path).expect("the case file");
    let cases: Value = serde_json::from_str(&text).expect("JSON");
    let crate_map = diplomacy::geo::standard_map();
    let mut results = Vec::new();
    for case in cases.as_array().expect("a list of cases") {
        let units: Vec<UnitPosition<'static, RegionKey>> = case["units"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|u| {
                crate_unit(
                    u["power"].as_str().unwrap_or_default(),
                    u["type"].as_str().unwrap_or_default(),
                    u["at"].as_str().unwrap_or_default(),
                )
            })
            .collect();
        let mut given = Vec::new();
        for (power, texts) in case["orders"].as_object().into_iter().flatten() {
            for text in texts.as_array().into_iter().flatten() {
                let text = text.as_str().unwrap_or_default();
                given.push((power.as_str(), text, crate_order(power, text)));
            }
        }
        let orders: Vec<MappedMainOrder> = given.iter().map(|(_, _, o)| o.clone()).collect();
        let submission = Submission::new(crate_map, &units, orders);
        let outcome = submission.adjudicate(Rulebook::default());
        let orders: Vec<Value> = given
            .iter()
            .map(|(power, text, order)| {
                let result = match outcome.get(order).map(OrderState::from) {
                    Some(OrderState::Succeeds) => "succeeds",
                    _ => "fails",
                };
                json!({"power": power, "order": text, "result": result})
            })
            .collect();
        results.push(json!({"id": case["id"], "orders": orders}));
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    serde_json::to_writer_pretty(&mut out, &results).expect("written");
    out.write_all(b"\n").expect("written");
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    if let Ok(path) = std::env::var("STRATEGOS_PEER_COMMAND") {
        return peer_command(&path);
    }
    // Only the case file, to run the commands by hand (`perf`, `/usr/bin/time`).
    if let Ok(path) = std::env::var("STRATEGOS_PEER_WRITE") {
        let n = env_number("STRATEGOS_PEER_CASES", 2000);
        write_cases(&standard().map, Path::new(&path), n, 0xc0ffee);
        return ExitCode::SUCCESS;
    }
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let variant = standard();
    engines(&variant);
    commands(&variant);
    ExitCode::SUCCESS
}
