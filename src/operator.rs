//! The keeper's read-only commands on the configured database: `strategos archive` writes
//! the static site, `strategos game list` and `strategos game show <game>` print games.
//! Each returns the text to print or an error that names what is wrong; `main` prints it
//! and picks the exit code.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;

use strategos::archive::{is_public, write_site_with};
use strategos::config::Config;
use strategos::diplomacy::power::PowerId;
use strategos::diplomacy::progress::VictoryCounting;
use strategos::game::secrecy::{Identity, Reader, name_for};
use strategos::report::Words;
use strategos::report::describe::unit_name;
use strategos::store::{GameRow, Store, Tx, position_from_json, time_text};
use strategos::variant::Variant;

/// `strategos game ...`
#[derive(Subcommand)]
pub enum GameCommand {
    /// One line per game: name, variant, state, phase, deadline.
    List,
    /// One game in full: state, phase, deadline, members, units, supply centres.
    Show {
        /// The game's name.
        game: String,
    },
    /// Run commands on a game as its master (PAUSE, EXTEND 24, SET ZONE ..., PROCESS...),
    /// through the same code as mail; logged as a letter from the keeper, answered to the
    /// keeper, and announced to the game as mail commands are.
    Do {
        /// The game's name.
        game: String,
        /// The commands, one per line (or several arguments, one command each).
        commands: Vec<String>,
        /// The time to act at (RFC 3339) instead of the clock.
        #[arg(long)]
        now: Option<String>,
    },
}

/// Opens the configured database, which must already exist (these commands never make one)
/// and be of this judge's schema (only `run` and `migrate` change it), and be the judge's
/// alone.
fn open(config: &Config) -> Result<Store, String> {
    let path = &config.paths.database;
    if !path.is_file() {
        return Err(format!(
            "there is no database at {} (paths.database in the configuration)",
            path.display()
        ));
    }
    super::setup::refuse_exposed_database(config)?;
    Store::open(path).map_err(|e| format!("cannot open the database {}: {e}", path.display()))
}

/// `strategos migrate`: the database brought up to this judge's schema, after a checked copy
/// of it is written beside it; nothing to do when it is up to date.
pub fn migrate(config: &Config) -> Result<String, String> {
    let path = &config.paths.database;
    if !path.is_file() {
        return Err(format!(
            "there is no database at {} (paths.database in the configuration); `strategos \
             run` makes a new one",
            path.display()
        ));
    }
    super::setup::refuse_exposed_database(config)?;
    let (store, migrated) = Store::open_migrating(path)
        .map_err(|e| format!("cannot migrate the database {}: {e}", path.display()))?;
    Ok(match migrated {
        Some(m) => format!(
            "the database {} is migrated from schema {} to {}; its copy from before is {} \
             (checked intact)\n",
            path.display(),
            m.from,
            m.to,
            m.backup.display()
        ),
        None => format!(
            "the database {} is of schema {}, this judge's: nothing to migrate\n",
            path.display(),
            store.schema().map_err(db)?
        ),
    })
}

/// The configured variants: the built-in ones and those of `paths.variants`.
fn variants(config: &Config) -> Result<Vec<Variant>, String> {
    let folder = Some(config.paths.variants.as_path()).filter(|d| d.is_dir());
    super::load_all(folder).map_err(|problems| problems.join("\n"))
}

/// Prints what a command wrote, or its error on standard error with exit code 2.
pub fn finish(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("strategos: {message}");
            ExitCode::from(2)
        }
    }
}

fn db(e: rusqlite::Error) -> String {
    format!("cannot read the database: {e}")
}

/// `strategos backup FILE`: a consistent copy of the database, safe while the judge runs,
/// checked, and readable by the judge's user alone (`Store::back_up`).
pub fn backup(config: &Config, file: &Path) -> Result<String, String> {
    if strategos::files::taken(file) {
        return Err(format!(
            "{} exists already; give a new file for the copy",
            file.display()
        ));
    }
    let store = open(config)?;
    store.back_up(file)?;
    Ok(format!(
        "the database {} is copied to {} (checked intact)\n",
        config.paths.database.display(),
        file.display()
    ))
}

/// `strategos archive [--out DIR]`: the site written into `out`.
pub fn archive(config: &Config, out: &Path) -> Result<String, String> {
    let variants = variants(config)?;
    let mut store = open(config)?;
    let templates = strategos::report::Templates::load(
        Some(config.paths.templates.as_path()).filter(|p| p.is_dir()),
    )?;
    let tx = store.begin().map_err(db)?;
    let written = write_site_with(&tx, &variants, out, &config.judge.code, &templates)?;
    Ok(format!(
        "{written} game page(s) written; the index is {}\n",
        out.join("index.html").display()
    ))
}

/// `strategos game list` or `strategos game show <game>`.
pub fn game(config: &Config, command: &GameCommand) -> Result<String, String> {
    let variants = variants(config)?;
    let mut store = open(config)?;
    let tx = store.begin().map_err(db)?;
    match command {
        GameCommand::List => list(&tx, &variants),
        GameCommand::Show { game } => show(&tx, &variants, game),
        GameCommand::Do {
            game,
            commands,
            now,
        } => {
            drop(tx);
            operate(
                config,
                variants,
                store,
                game,
                &commands.join("\n"),
                now.as_deref(),
            )
        }
    }
}

/// `strategos game do`: the commands run as the game's master; the letters they cause go
/// into the outbox for the judge to send.
fn operate(
    config: &Config,
    variants: Vec<Variant>,
    mut store: Store,
    game: &str,
    commands: &str,
    now: Option<&str>,
) -> Result<String, String> {
    let now = match now {
        Some(t) => chrono::DateTime::parse_from_rfc3339(t)
            .map_err(|e| format!("--now: {e}"))?
            .with_timezone(&chrono::Utc),
        None => chrono::Utc::now(),
    };
    let templates = strategos::report::Templates::load(
        Some(config.paths.templates.as_path()).filter(|p| p.is_dir()),
    )?;
    let judge = strategos::judge::Judge {
        config: config.clone(),
        variants,
        templates,
        last_position: Default::default(),
        pictures_ahead: Default::default(),
    };
    let tx = store.begin().map_err(db)?;
    let letters = judge.operate(&tx, game, commands, now).map_err(db)??;
    // Logged as a letter from the keeper, like any mail command.
    let raw = format!(
        "From: {}\r\nSubject: Operator: game '{game}'\r\n\r\n{commands}\r\n",
        config.judge.keeper
    );
    let id = format!(
        "operator.{game}.{}@strategos.invalid",
        now.timestamp_nanos_opt().unwrap_or(0)
    );
    let key = strategos::letter::dedup_key(&id, &config.judge.keeper.to_lowercase(), commands);
    if let Some(row) = tx
        .record_message(&key, &id, "operator", raw.as_bytes(), now)
        .map_err(db)?
    {
        tx.settle_message(
            row,
            strategos::store::MessageState::Handled,
            Some(&config.judge.keeper),
            None,
            now,
        )
        .map_err(db)?;
        // Kept as any handled letter is: its commands, passwords hidden.
        let kept = strategos::mail::redact::redacted(raw.as_bytes(), commands);
        tx.replace_raw(row, &kept, strategos::store::RawState::Redacted)
            .map_err(db)?;
    }
    let answer = letters.first().map(|l| l.body.clone()).unwrap_or_default();
    for letter in &letters {
        strategos::daemon::Daemon::queue(&judge, &tx, letter, None, now).map_err(db)?;
    }
    tx.commit().map_err(db)?;
    Ok(answer)
}

/// The phase a game is in, as players read it; what can be said when it cannot be read.
fn phase(variants: &[Variant], game: &GameRow) -> String {
    let Some(text) = &game.position else {
        return "not started".into();
    };
    let Some(variant) = variants.iter().find(|v| v.id == game.variant) else {
        return format!("unknown (variant '{}' not loaded)", game.variant);
    };
    match position_from_json(variant, text) {
        Ok(position) => strategos::game::phases::phase_name(variant, &position),
        Err(e) => format!("unreadable ({e})"),
    }
}

fn deadline(game: &GameRow) -> String {
    game.deadline_at.map_or_else(|| "none".into(), time_text)
}

fn list(tx: &Tx, variants: &[Variant]) -> Result<String, String> {
    let games = tx.games().map_err(db)?;
    if games.is_empty() {
        return Ok("no games\n".into());
    }
    let rows: Vec<[String; 5]> = games
        .iter()
        .map(|g| {
            [
                g.name.clone(),
                g.variant.clone(),
                g.state.as_str().to_string(),
                phase(variants, g),
                format!("deadline {}", deadline(g)),
            ]
        })
        .collect();
    let mut widths = [0; 5];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    Ok(out)
}

fn show(tx: &Tx, variants: &[Variant], name: &str) -> Result<String, String> {
    let game = tx
        .game_by_name(name)
        .map_err(db)?
        .ok_or_else(|| format!("there is no game '{name}'"))?;
    let variant = variants.iter().find(|v| v.id == game.variant);
    let mut out = String::new();
    let _ = writeln!(out, "Game {}", game.name);
    let _ = writeln!(
        out,
        "Variant: {}",
        variant.map_or(format!("{} (not loaded)", game.variant), |v| format!(
            "{} ({})",
            v.name, v.id
        ))
    );
    let _ = writeln!(out, "State: {}", game.state.as_str());
    let _ = writeln!(out, "Phase: {}", phase(variants, &game));
    let _ = writeln!(
        out,
        "Deadline: {} (the game's time zone: {})",
        deadline(&game),
        game.time_zone
    );
    let public = is_public(&game);
    let _ = writeln!(out, "Public: {}", if public { "yes" } else { "no" });
    let _ = writeln!(out, "Members:");
    for member in tx.members(game.id).map_err(db)? {
        let identity = Identity::of_player(tx, member.player_id).map_err(db)?;
        let power = member.power.as_deref().map_or("-".to_string(), |id| {
            variant
                .and_then(|v| v.map.power_by_id(id).map(|p| v.map.power(p).name.clone()))
                .unwrap_or_else(|| id.to_string())
        });
        // The keeper sees what a master sees.
        let shown = Words::english().message(&name_for(&identity, false, Reader::Master));
        let _ = writeln!(out, "  {power}: {shown}, {}", member.role);
    }
    let Some(text) = &game.position else {
        return Ok(out);
    };
    let Some(variant) = variant else {
        let _ = writeln!(
            out,
            "Units and supply centers: not shown, the variant '{}' is not loaded",
            game.variant
        );
        return Ok(out);
    };
    let map = &variant.map;
    let position = position_from_json(variant, text)
        .map_err(|e| format!("game '{}': the stored position: {e}", game.name))?;
    let _ = writeln!(out, "Units:");
    for unit in &position.units {
        let _ = writeln!(
            out,
            "  {}: {}",
            map.power(unit.power).name,
            unit_name(map, unit)
        );
    }
    for dislodged in &position.dislodged {
        let _ = writeln!(
            out,
            "  {}: {} (dislodged)",
            map.power(dislodged.unit.power).name,
            unit_name(map, &dislodged.unit)
        );
    }
    let _ = writeln!(out, "Supply centers:");
    for p in 0..map.powers.len() {
        let power = PowerId(p as u8);
        let centres: Vec<&str> = position
            .owners
            .iter()
            .enumerate()
            .filter(|(i, owner)| **owner == Some(power) && map.provinces[*i].centre.is_some())
            .map(|(i, _)| map.provinces[i].name.as_str())
            .collect();
        // Where victory counts supply (Diadochi V), the supply first, the centres beside it.
        let tally = position.tally(map, power);
        let count = match variant.victory_counting {
            VictoryCounting::Centres => tally.centres.to_string(),
            VictoryCounting::Supply => {
                format!("supply {}, centers {}", tally.supply, tally.centres)
            }
        };
        let _ = writeln!(
            out,
            "  {}: {count}{}",
            map.power(power).name,
            if centres.is_empty() {
                String::new()
            } else {
                format!(" ({})", centres.join(", "))
            }
        );
    }
    Ok(out)
}

/// `strategos map --game <game> [--phase n]`: the game's phase as SVG (its current one when
/// no phase is given), drawn as the archive draws it.
pub fn game_map(
    config: &Config,
    variants: &[Variant],
    game: &str,
    phase: Option<i64>,
) -> Result<String, String> {
    let mut store = open(config)?;
    let tx = store.begin().map_err(db)?;
    let row = tx
        .game_by_name(game)
        .map_err(db)?
        .ok_or_else(|| format!("no game '{game}'"))?;
    let words = strategos::report::messages::Words::english();
    let pictures =
        strategos::archive::maps::phase_pictures(&tx, variants, &row, words, &|_, _| false)
            .map_err(db)?;
    let wanted = phase.unwrap_or(row.phase_serial);
    pictures
        .into_iter()
        .find(|p| p.phase_serial == wanted)
        .and_then(|p| p.svg)
        .ok_or_else(|| format!("game '{game}' has no picture of phase {wanted}"))
}
