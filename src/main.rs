//! The `strategos` command: the only place that reads files for the rules core and picks
//! an exit code.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use strategos::daemon::Clock;
use strategos::dice::{self, Verdict};
use strategos::store::Upgrade;

mod deliver;
mod operator;
mod setup;

use strategos::config::{Config, ProcessEnvironment};
use strategos::diplomacy::rules::Rules;
use strategos::interface::adjudicate::{Options, StreamError, run_stream};
use strategos::variant::{self, Variant, load_variant};

#[derive(Parser)]
#[command(
    name = "strategos",
    version,
    about = "A play-by-email judge for Diplomacy and its variants"
)]
struct Cli {
    /// Configuration file (default: config.toml in the current folder, if there is one).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Adjudicate phases given as JSON (docs: adjudicate-json.md); prints results as JSON.
    Adjudicate {
        /// A file holding one case or a list of cases, or `-` for standard input.
        input: String,
        /// Rules edition for cases that name none: 2000 or 2023 (default: the variant's).
        #[arg(long)]
        rules: Option<String>,
        /// A folder of variant files to use besides the built-in ones.
        #[arg(long)]
        variants: Option<PathBuf>,
        /// Threads adjudicating side by side (default: one per core); the output is the same.
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Check variant files and list every problem found.
    Variants {
        /// Variant files or folders of them (default: the built-in variants).
        paths: Vec<PathBuf>,
    },
    /// Run the judge: read mail, process deadlines, send letters, until SIGTERM or SIGINT.
    Run {
        /// Handle what is there and what is due, then exit.
        #[arg(long)]
        once: bool,
        /// The time to act at (RFC 3339, e.g. 2027-01-05T12:00:00Z) instead of the clock.
        #[arg(long)]
        now: Option<String>,
    },
    /// Handle one message read from standard input (for an MTA to pipe mail in), then send
    /// what is due. Exits 0 once the message is stored, 75 (try again later) on any failure
    /// before; logs to the system log, never to its output.
    Deliver {
        #[arg(long)]
        now: Option<String>,
    },
    /// Bring the database up to this judge's schema (after an upgrade), first writing a
    /// checked copy of it beside it. `run` does the same when it starts; no other command
    /// opens a database that needs it.
    Migrate,
    /// Write the archive of every public game as a static web site (read-only).
    Archive {
        /// The folder to write the site into.
        #[arg(long, default_value = "var/archive")]
        out: PathBuf,
    },
    /// Copy the database to a new file, consistently, while the judge may be running (restore:
    /// stop the judge, put the copy in place of paths.database, start it).
    Backup {
        /// The file to write the copy to; it must not exist yet.
        file: PathBuf,
    },
    /// Look at the games of the configured database (read-only).
    Game {
        #[command(subcommand)]
        command: operator::GameCommand,
    },
    /// Draw maps to files (SVG or PNG, by the extension of --out): a variant's starting
    /// board (or its empty map), a game's phase, or each case of an adjudicate file. Checks
    /// the variant's picture against its borders first and names every mismatch.
    Map {
        /// The variant to draw (`standard`, `diadochi-v`, `his`).
        #[arg(long)]
        variant: Option<String>,
        /// Draw the map without units.
        #[arg(long)]
        empty: bool,
        /// With --variant his: a file of the master's adjustments (`place pressburg ottoman 7
        /// regulars`, `leader suleiman pressburg`, `siege buda ottoman`...), one a line,
        /// made to the 1517 board before it is drawn.
        #[arg(long)]
        setup: Option<PathBuf>,
        /// A game of the configured database to draw (its current phase unless --phase).
        #[arg(long)]
        game: Option<String>,
        /// With --game: the phase to draw, counted from 0 as ROLLBACK counts.
        #[arg(long)]
        phase: Option<i64>,
        /// A file of cases as `strategos adjudicate` reads them: one picture per case,
        /// orders and outcomes drawn, written into the folder --out as <case id>.svg|png.
        #[arg(long)]
        cases: Option<String>,
        /// The file to write (`.svg` or `.png`), or with --cases a folder (PNG unless
        /// --svg).
        #[arg(long)]
        out: PathBuf,
        /// With --cases: write SVG files.
        #[arg(long)]
        svg: bool,
        /// A folder of variant files to use besides the built-in ones.
        #[arg(long)]
        variants: Option<PathBuf>,
    },
    /// Recompute every dice roll of a game from its revealed seed (docs: dice.md). Exits 0
    /// when every roll is verified, 1 when a problem is found, 2 when the archive cannot be
    /// read or holds no dice lines, 3 when the seed is not revealed yet.
    VerifyDice {
        /// The game's reports as text (HISTORY's letter, `-` for standard input), a game's
        /// page of the web archive, or its folder.
        archive: String,
    },
}

fn main() -> ExitCode {
    // Nothing the judge makes is readable by another user unless it is meant to be (the
    // public archive says so itself): the database, its journal files, the Maildirs, copies.
    strategos::files::keep_private();
    // The version names the database schema it writes, for upgrades (README, *Upgrading*).
    let version: &'static str = Box::leak(
        format!(
            "{} (database schema {})",
            env!("CARGO_PKG_VERSION"),
            strategos::store::SCHEMA
        )
        .into_boxed_str(),
    );
    let parsed = Cli::command()
        .version(version)
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        // A mail server that pipes to `deliver` with arguments this version does not take
        // keeps the letter (and the reason goes to the system log, not back to its sender).
        Err(e) if deliver::asked() && e.use_stderr() => return deliver::refuse_arguments(&e),
        Err(e) => e.exit(),
    };
    if let Command::Deliver { now } = &cli.command {
        return deliver::deliver(cli.config.as_deref(), now.as_deref());
    }
    let config = match Config::load(cli.config.as_deref(), &ProcessEnvironment) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("strategos: {message}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Adjudicate {
            input,
            rules,
            variants,
            threads,
        } => {
            let folder = variants.or(Some(config.paths.variants.clone()).filter(|d| d.is_dir()));
            adjudicate(&input, rules.as_deref(), folder.as_deref(), threads)
        }
        Command::Run { once, now } => judge_command(
            config,
            now.as_deref(),
            if once { Mode::Once } else { Mode::Forever },
        ),
        Command::Deliver { .. } => unreachable!("deliver is handled above"),
        Command::Migrate => operator::finish(operator::migrate(&config)),
        Command::Variants { paths } => check_variants(&paths),
        Command::Archive { out } => operator::finish(operator::archive(&config, &out)),
        Command::Backup { file } => operator::finish(operator::backup(&config, &file)),
        Command::Game { command } => operator::finish(operator::game(&config, &command)),
        Command::VerifyDice { archive } => verify_dice(&archive),
        Command::Map {
            variant,
            empty,
            setup,
            game,
            phase,
            cases,
            out,
            svg,
            variants,
        } => {
            let folder = variants.or(Some(config.paths.variants.clone()).filter(|d| d.is_dir()));
            let what = match (variant, game, cases) {
                (Some(v), None, None) if v == "his" || v == "here-i-stand" => {
                    MapSubject::HereIStand(setup)
                }
                (Some(v), None, None) => MapSubject::Variant(v, empty),
                (None, Some(g), None) => MapSubject::Game(g, phase),
                (None, None, Some(c)) => MapSubject::Cases(c, svg),
                _ => {
                    eprintln!("strategos map: give one of --variant, --game or --cases");
                    return ExitCode::from(2);
                }
            };
            draw_map(&config, what, &out, folder.as_deref())
        }
    }
}

/// What `strategos map` draws.
enum MapSubject {
    /// A variant's starting board, or with `true` its empty map.
    Variant(String, bool),
    /// Here I Stand's 1517 board, with the adjustments of a file if one is given.
    HereIStand(Option<PathBuf>),
    /// A game's phase (its current one when none is given).
    Game(String, Option<i64>),
    /// The cases of an adjudicate file, as PNG or (`true`) SVG.
    Cases(String, bool),
}

/// Writes SVG or PNG by the file's extension.
/// Writes SVG or PNG by the file's extension (whole, then renamed into place: a link at the
/// name is replaced, never followed).
fn write_picture(svg: &str, out: &Path) -> Result<(), String> {
    let png = out
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("png"));
    let bytes = if png {
        strategos::drawing::png::render_png(svg, 1.0).ok_or("the picture could not be rendered")?
    } else {
        svg.as_bytes().to_vec()
    };
    strategos::files::write_whole(out, &bytes, strategos::files::PRIVATE)
        .map_err(|e| format!("{}: {e}", out.display()))
}

/// `strategos map`: 0 when every picture was written, 1 when a variant's picture does not
/// match its rules or a case could not be drawn, 2 when nothing could be read.
fn draw_map(config: &Config, what: MapSubject, out: &Path, folder: Option<&Path>) -> ExitCode {
    let words = strategos::report::messages::Words::english();
    let variants = match load_all(folder) {
        Ok(v) => v,
        Err(problems) => {
            for p in &problems {
                eprintln!("{p}");
            }
            return ExitCode::from(2);
        }
    };
    let result = match what {
        MapSubject::HereIStand(setup) => strategos::variant::his::embedded_map()
            .map_err(|e| {
                e.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .and_then(|map| {
                let mut board = strategos::his::board::Board::scenario_1517(&map);
                if let Some(file) = setup {
                    let text = std::fs::read_to_string(&file)
                        .map_err(|e| format!("{}: {e}", file.display()))?;
                    for (i, line) in text.lines().enumerate() {
                        let line = line.trim();
                        if line.is_empty() || line.starts_with('#') {
                            continue;
                        }
                        let at = |why: strategos::message::Message| {
                            let why = strategos::report::messages::Words::english().message(&why);
                            format!("{}:{}: {}", file.display(), i + 1, why)
                        };
                        let adjustment =
                            strategos::his::adjust::parse_adjustment(&map, line).map_err(at)?;
                        strategos::his::adjust::apply(&map, &mut board, &adjustment).map_err(at)?;
                    }
                }
                let svg = strategos::drawing::his::draw_board(&map, &board, None, words)
                    .ok_or("the Here I Stand map file has no [map] table")?;
                write_picture(&svg, out)
            }),
        MapSubject::Variant(id, empty) => match variants.iter().find(|v| v.id == id) {
            None => Err(format!("no variant '{id}'")),
            Some(v) => strategos::drawing::draw_variant(v, empty, words)
                .and_then(|svg| write_picture(&svg, out)),
        },
        MapSubject::Game(name, phase) => operator::game_map(config, &variants, &name, phase)
            .and_then(|svg| write_picture(&svg, out)),
        MapSubject::Cases(file, svg) => {
            let text = if file == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map(|_| text)
                    .map_err(|e| e.to_string())
            } else {
                std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))
            };
            text.and_then(|t| serde_json::from_str(&t).map_err(|e| format!("{file}: {e}")))
                .and_then(|input: serde_json::Value| {
                    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
                    let boards = strategos::interface::picture::case_boards(
                        &input,
                        &variants,
                        &Options::default(),
                    );
                    let mut failed = Vec::new();
                    for board in boards {
                        match board.and_then(|b| {
                            let picture = strategos::interface::picture::draw_case(&b, words)?;
                            let name: String =
                                b.id.chars()
                                    .map(|c| {
                                        if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                                            c
                                        } else {
                                            '_'
                                        }
                                    })
                                    .collect();
                            let file =
                                out.join(format!("{name}.{}", if svg { "svg" } else { "png" }));
                            write_picture(&picture, &file)?;
                            println!("{}", file.display());
                            Ok(())
                        }) {
                            Ok(()) => {}
                            Err(e) => failed.push(e),
                        }
                    }
                    if failed.is_empty() {
                        Ok(())
                    } else {
                        Err(failed.join("\n"))
                    }
                })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("strategos map: {message}");
            ExitCode::from(1)
        }
    }
}

/// `strategos verify-dice <archive>`: each problem, then a summary line.
fn verify_dice(archive: &str) -> ExitCode {
    let text = match read_archive(archive) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("strategos: {message}");
            return ExitCode::from(2);
        }
    };
    let verification = dice::verify(&text);
    for problem in &verification.problems {
        println!("{problem}");
    }
    match verification.verdict() {
        Verdict::NoDice => {
            eprintln!("strategos: {archive}: {}", verification.summary());
            ExitCode::from(2)
        }
        verdict => {
            println!("{}", verification.summary());
            ExitCode::from(match verdict {
                Verdict::Verified => 0,
                Verdict::Problems => 1,
                _ => 3,
            })
        }
    }
}

/// The text of a game's reports: a text file as it is, a game's page (or its folder) of the
/// web archive read back into its reports.
fn read_archive(archive: &str) -> Result<String, String> {
    let mut text = String::new();
    if archive == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        let path = Path::new(archive);
        let file = if path.is_dir() {
            path.join("index.html")
        } else {
            path.to_path_buf()
        };
        text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    }
    let start = text.trim_start();
    if !(start.starts_with("<!DOCTYPE")
        || start.starts_with("<!doctype")
        || start.starts_with("<html"))
    {
        return Ok(text);
    }
    let reports = strategos::archive::report_texts(&text);
    if reports.is_empty() && text.contains("<table class=\"games\">") {
        return Err(format!(
            "{archive} is the archive's index of games; give one game's folder (such as \
             {archive}/<game>) or its index.html"
        ));
    }
    Ok(reports.join("\n"))
}

fn adjudicate(input: &str, rules: Option<&str>, folder: Option<&Path>, threads: usize) -> ExitCode {
    let rules = match rules.map(|name| (name, Rules::edition(name))) {
        None => None,
        Some((_, Some(rules))) => Some(rules),
        Some((name, None)) => {
            eprintln!("strategos: unknown rules edition '{name}' (2000 or 2023)");
            return ExitCode::from(2);
        }
    };
    let variants = match load_files_beside_embedded(folder) {
        Ok(v) => v,
        Err(problems) => {
            for p in problems {
                eprintln!("{p}");
            }
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    // Written a megabyte at a time: 16 times fewer writes than 64 kB, 5% off the whole
    // command on 2,000 cases (measured A/B; the results are about twice the input's size).
    let output = std::io::BufWriter::with_capacity(1024 * 1024, stdout.lock());
    let options = Options { rules, threads };
    let result = if input == "-" {
        run_stream(std::io::stdin().lock(), output, &variants, &options)
    } else {
        match std::fs::File::open(input) {
            Ok(file) => run_stream(file, output, &variants, &options),
            Err(err) => {
                eprintln!("strategos: cannot read {input}: {err}");
                return ExitCode::from(2);
            }
        }
    };
    match result {
        Ok(summary) if summary.any_error => ExitCode::from(1),
        Ok(_) => ExitCode::SUCCESS,
        Err(StreamError::Read(err)) => {
            eprintln!("strategos: cannot read {input}: {err}");
            ExitCode::from(2)
        }
        Err(StreamError::NotJson { message, cases }) => {
            if cases > 0 {
                eprintln!(
                    "strategos: {input} is not JSON after its first {cases} cases (their results are written): {message}"
                );
            } else {
                eprintln!("strategos: {input} is not JSON: {message}");
            }
            ExitCode::from(2)
        }
        Err(StreamError::Write(err)) => {
            eprintln!("strategos: cannot write the results: {err}");
            ExitCode::from(2)
        }
    }
}

/// The built-in variants, each read on first use, with those of `folder` (read now, so that
/// their problems are told before any case) added or replacing them by id.
fn load_files_beside_embedded(folder: Option<&Path>) -> Result<variant::Catalogue, Vec<String>> {
    let added = match folder {
        Some(folder) => load_files_but_embedded(&[folder.to_path_buf()], true)?,
        None => Vec::new(),
    };
    Ok(variant::Catalogue::new(added))
}

/// The built-in variants, with those of `folder` added or replacing them by id.
fn load_all(folder: Option<&Path>) -> Result<Vec<Variant>, Vec<String>> {
    let mut variants =
        variant::embedded().map_err(|e| e.iter().map(|p| p.to_string()).collect::<Vec<_>>())?;
    if let Some(folder) = folder {
        for loaded in load_files(&[folder.to_path_buf()])? {
            variants.retain(|v| v.id != loaded.id);
            variants.push(loaded);
        }
    }
    Ok(variants)
}

fn load_files(paths: &[PathBuf]) -> Result<Vec<Variant>, Vec<String>> {
    load_files_but_embedded(paths, false)
}

/// `load_files`, leaving out (with `skip_embedded`) a file that is, byte for byte, the embedded
/// file of its id: the embedded variant, read on first use, is the same (the shipped
/// `variants/` folder beside the binary is such a copy).
fn load_files_but_embedded(
    paths: &[PathBuf],
    skip_embedded: bool,
) -> Result<Vec<Variant>, Vec<String>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| vec![format!("{}: {e}", path.display())])?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    let mut variants = Vec::new();
    let mut problems = Vec::new();
    for file in files {
        let id = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match std::fs::read_to_string(&file) {
            Err(e) => problems.push(format!("{}: {e}", file.display())),
            Ok(text)
                if skip_embedded
                    && variant::EMBEDDED
                        .iter()
                        .any(|(embedded, _, shipped)| *embedded == id && *shipped == text) => {}
            Ok(text) => match load_variant(&id, &file.display().to_string(), &text) {
                Ok(v) => variants.push(v),
                Err(errors) => problems.extend(errors.iter().map(|e| e.to_string())),
            },
        }
    }
    if problems.is_empty() {
        Ok(variants)
    } else {
        Err(problems)
    }
}

fn check_variants(paths: &[PathBuf]) -> ExitCode {
    let loaded = if paths.is_empty() {
        variant::embedded().map_err(|e| e.iter().map(|p| p.to_string()).collect())
    } else {
        load_files(paths)
    };
    match loaded {
        Ok(variants) => {
            let mut failed = false;
            for v in variants {
                println!(
                    "{}: {} ({} provinces, {} supply centres, {} powers, rules {})",
                    v.id,
                    v.name,
                    v.map.provinces.len(),
                    v.map
                        .provinces
                        .iter()
                        .filter(|p| p.centre.is_some())
                        .count(),
                    v.map.powers.len(),
                    v.rules.edition
                );
                if let Some(layout) = &v.layout {
                    let mismatches = strategos::drawing::check_map(&v.map, layout);
                    for m in &mismatches {
                        println!("  map: {m}");
                    }
                    println!("  map: {} mismatch(es) with the borders", mismatches.len());
                    if !mismatches.is_empty() {
                        failed = true;
                    }
                }
            }
            if paths.is_empty() {
                match strategos::variant::his::embedded_map() {
                    Ok(map) => {
                        let mismatches = strategos::drawing::his::layout()
                            .map(|layout| strategos::drawing::his::check_his(&map, layout))
                            .unwrap_or_default();
                        println!("his: {} ({} spaces)", map.name, map.spaces.len());
                        for m in &mismatches {
                            println!("  map: {m}");
                        }
                        println!(
                            "  map: {} mismatch(es) with the connections",
                            mismatches.len()
                        );
                        failed |= !mismatches.is_empty();
                    }
                    Err(problems) => {
                        for p in &problems {
                            eprintln!("{p}");
                        }
                        failed = true;
                    }
                }
            }
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(problems) => {
            for p in &problems {
                eprintln!("{p}");
            }
            eprintln!("{} problem(s) found", problems.len());
            ExitCode::from(1)
        }
    }
}

/// How `run` goes about its work.
enum Mode {
    Forever,
    Once,
}

/// The log on standard error (the journal, under systemd): colour only on a terminal.
fn log_to_standard_error() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .init();
}

/// The clock `--now` sets, or the system's.
fn clock(now: Option<&str>) -> Result<Clock, String> {
    match now.map(chrono::DateTime::parse_from_rfc3339) {
        None => Ok(Clock::System),
        Some(Ok(t)) => Ok(Clock::Fixed(t.with_timezone(&chrono::Utc))),
        Some(Err(e)) => Err(format!(
            "--now: {e}; write a time like 2027-01-05T12:00:00Z"
        )),
    }
}

/// The configured variants: the built-in ones and those of `paths.variants`.
fn configured_variants(config: &Config) -> Result<Vec<Variant>, String> {
    load_all(Some(config.paths.variants.as_path()).filter(|d| d.is_dir()))
        .map_err(|problems| problems.join("\n"))
}

fn judge_command(config: Config, now: Option<&str>, mode: Mode) -> ExitCode {
    log_to_standard_error();
    let built = clock(now).and_then(|clock| {
        let variants = configured_variants(&config)?;
        // `run` alone (with `migrate`) brings an older database up to date.
        setup::daemon(config, variants, clock, true, Upgrade::Migrate)
    });
    let mut daemon = match built {
        Ok(d) => d,
        Err(message) => {
            eprintln!("strategos: {message}");
            return ExitCode::from(2);
        }
    };
    match mode {
        Mode::Once => {
            let round = daemon.round();
            tracing::info!(
                letters_in = round.letters_in,
                letters_out = round.letters_out,
                "done"
            );
            ExitCode::SUCCESS
        }
        Mode::Forever => {
            let stop = setup::stop_signal();
            let poll = std::time::Duration::from_secs(daemon.judge.config.inbox.poll_seconds);
            let stopping = || stop.load(std::sync::atomic::Ordering::SeqCst);
            tracing::info!("the judge is running");
            while !stopping() {
                daemon.round();
                let next_round = std::time::Instant::now() + poll;
                let mut painting = true;
                while !stopping() {
                    // Time left before the next round paints the next deadlines' pictures, a
                    // short batch at a time (`daemon::ahead`), until none is wanted; then it
                    // waits for mail.
                    if painting && std::time::Instant::now() < next_round {
                        painting = daemon.paint_ahead();
                        if painting {
                            continue;
                        }
                    }
                    let left = next_round.saturating_duration_since(std::time::Instant::now());
                    if left.is_zero() || daemon.wait(left.min(std::time::Duration::from_secs(1))) {
                        break;
                    }
                }
            }
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
    }
}
