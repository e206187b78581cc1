//! The archive as a static web site, and the SUMMARY of a game.
//!
//! `write_site` writes `index.html` (every public game) and `<game>/index.html` per game:
//! the players of each power over time (named as anyone may see them: `judge::secrecy`),
//! the supply centres by year (a table and an inline SVG chart in the map's colours), then
//! the phases newest first, each phase's map beside its reports, with links from phase to
//! phase. Plain HTML with a short inline stylesheet that stacks the columns on a phone: no
//! scripts, no outside files or fonts, and no time of writing, so the same database always
//! gives the same site. Every page, feed and calendar is written from a template of
//! `templates/<language>/archive/` (`report::Templates`), which escapes every value put in it
//! as its kind of file needs (`report::escape`); a game's files are in the game's language,
//! the index in English.
//!
//! - `summary`: who held each power when and the centres by year; `summary_text`.
//! - `chart`: the SVG chart of the centres, placed.
//! - `page`: a game's page, and `report_texts` to read its reports back.
//! - `timeline`: which phase each map and report belongs to, newest first.
//! - `feeds`: beside each page, the game's deadlines as iCalendar (`deadlines.ics`) and its
//!   results as an Atom feed (`results.atom`).
//! - `maps`: the picture of each phase (`phase-N.svg` beside the page), shared with
//!   `strategos map --game`.

use crate::game::GameState;
mod chart;
mod feeds;
pub mod maps;
mod page;
mod summary;
mod timeline;

use std::path::Path;

use serde::Serialize;

pub use feeds::{Deadlines, deadlines_ics, results_atom};
pub use page::report_texts;
pub use summary::{CentreRow, Holders, Span, Summary, summarise, summary_text};

use crate::game::secrecy::{Reader, scrub};
use crate::lang::Lang;
use crate::report::Templates;
use crate::store::{GameRow, Tx};
use crate::variant::Variant;

/// Writes the site into `out` (created if missing) from the built-in templates and returns
/// the number of game pages written. A private game, or an anonymous one still running, gets
/// no page, and every file left of it from when it was public is removed with its folder
/// (`on_public_site`).
pub fn write_site(tx: &Tx, variants: &[Variant], out: &Path) -> Result<usize, String> {
    write_site_as(tx, variants, out, "STRA")
}

/// `write_site` for the judge whose code (`judge.code`) names its calendars' events and feeds.
pub fn write_site_as(
    tx: &Tx,
    variants: &[Variant],
    out: &Path,
    code: &str,
) -> Result<usize, String> {
    write_site_with(tx, variants, out, code, &Templates::built_in())
}

/// `write_site_as` from the judge's `templates` (a keeper's folder may replace any of them).
pub fn write_site_with(
    tx: &Tx,
    variants: &[Variant],
    out: &Path,
    code: &str,
    templates: &Templates,
) -> Result<usize, String> {
    let db = |e: rusqlite::Error| format!("cannot read the database: {e}");
    crate::files::public_root(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut rows = Vec::new();
    // The index is English: the judge has no language of its own.
    let english = templates.words(Lang::En);
    for game in tx.games().map_err(db)? {
        let folder = out.join(page_folder(&game.name));
        if !on_public_site(&game) {
            remove_game_files(&folder)?;
            continue;
        }
        let variant = variants.iter().find(|v| v.id == game.variant);
        let variant_name = variant.map_or(game.variant.as_str(), |v| v.name.as_str());
        // A game's files are in its language.
        let words = templates.words(game.settings.language);
        let language = words.language();
        let summary = summarise(tx, variant, &game, Reader::Other, words).map_err(db)?;
        // No address a stranger may not see, whatever the archive holds.
        let mut archived = tx.archived_reports(game.id).map_err(db)?;
        for report in &mut archived {
            report.title = scrub(tx, words, &game, &report.title, Reader::Other).map_err(db)?;
            report.body = scrub(tx, words, &game, &report.body, Reader::Other).map_err(db)?;
        }
        let reports: Vec<page::Report> = archived
            .iter()
            .map(|r| (r.when.clone(), r.title.clone(), r.body.clone()))
            .collect();
        let phases: Vec<page::Phase> = tx
            .phases(game.id)
            .map_err(db)?
            .into_iter()
            .map(|row| page::Phase {
                serial: row.phase_serial,
                title: variant
                    .and_then(|v| {
                        crate::store::position_from_json(v, &row.position)
                            .ok()
                            .map(|p| crate::game::phases::phase_name_in(words, v, &p))
                    })
                    .unwrap_or(row.title),
                began: row.created_at,
            })
            .collect();
        let now = now_of(tx, variant, &game, language).map_err(db)?;
        let status = page::Status {
            deadline: now.deadline.map(|at| {
                words.when(&crate::report::When {
                    at: Some(at),
                    zone: game.time_zone.clone(),
                })
            }),
            owing: now.owing.clone(),
        };
        // Only the pictures whose file is not there yet are drawn.
        let have = |serial: i64, fingerprint: u64| {
            let picture = maps::PhasePicture {
                phase_serial: serial,
                title: String::new(),
                fingerprint,
                svg: None,
            };
            folder.join(picture.file_name()).is_file()
        };
        let pictures = maps::phase_pictures(tx, variants, &game, words, &have).map_err(db)?;
        let maps = write_pictures(&folder, &pictures)?;
        let html = page::game_page(
            templates,
            words,
            &page::Page {
                game: &game,
                variant_name,
                summary: &summary,
                reports: &archived,
                status: &status,
                phases: &phases,
                maps: &maps,
            },
        )?;
        write(&folder, &html)?;
        let ics = deadlines_ics(templates, language, &now.deadlines(code, &game))?;
        write_file(&folder, "deadlines.ics", &ics)?;
        let atom = results_atom(templates, language, code, &game.name, &reports)?;
        write_file(&folder, "results.atom", &atom)?;
        let phase = match language {
            Lang::En => summary.phase,
            // The index is English: the phase is named again in English.
            _ => summary::phase_of(tx, variant, &game, english).map_err(db)?,
        };
        rows.push(IndexRow {
            folder: page_folder(&game.name),
            name: game.name.clone(),
            variant: variant_name.to_string(),
            state: page::state_in(english, &game),
            phase,
        });
    }
    let index = templates.render_file(
        Lang::En,
        "archive/index.html",
        minijinja::context! {
            games => minijinja::value::Serde(&rows),
        },
    )?;
    write(out, &index)?;
    Ok(rows.len())
}

/// Where a game stands now, for its calendar and page: its phase, deadline, the end of its
/// grace and who still owes orders.
pub struct Now {
    pub phase: String,
    pub serial: i64,
    pub deadline: Option<chrono::DateTime<chrono::Utc>>,
    pub grace_end: Option<chrono::DateTime<chrono::Utc>>,
    pub owing: Vec<String>,
    /// When the phase began.
    pub since: chrono::DateTime<chrono::Utc>,
}

impl Now {
    /// The calendar's content for `game`, under the judge's code.
    pub fn deadlines<'a>(&'a self, code: &'a str, game: &'a GameRow) -> Deadlines<'a> {
        Deadlines {
            code,
            game: &game.name,
            phase: &self.phase,
            serial: self.serial,
            deadline: self.deadline,
            grace_end: self.grace_end,
            owing: &self.owing,
            since: self.since,
        }
    }
}

/// Where `game` stands now (no deadline, and no one owing, unless it runs), the powers owing
/// named in `language`.
pub fn now_of(
    tx: &Tx,
    variant: Option<&Variant>,
    game: &GameRow,
    language: Lang,
) -> rusqlite::Result<Now> {
    let phases = tx.phases(game.id)?;
    let current = phases.iter().find(|p| p.phase_serial == game.phase_serial);
    let since = current
        .and_then(|p| crate::store::parse_time(&p.created_at))
        .unwrap_or(chrono::DateTime::<chrono::Utc>::UNIX_EPOCH);
    let mut now = Now {
        phase: current.map(|p| p.title.clone()).unwrap_or_default(),
        serial: game.phase_serial,
        deadline: None,
        grace_end: None,
        owing: Vec::new(),
        since,
    };
    let running = game.state == GameState::Active;
    let position = variant.zip(game.position.as_deref()).and_then(|(v, json)| {
        crate::store::position_from_json(v, json)
            .ok()
            .map(|p| (v, p))
    });
    if let (true, Some((variant, position))) = (running, position) {
        now.deadline = game.deadline_at;
        let settings = game.settings.clone();
        now.grace_end = game
            .deadline_at
            .map(|d| settings.grace_end(game.phase_serial, position.turn.kind, d));
        now.owing = crate::game::orders::owing_powers(tx, game, variant, &position)?
            .into_iter()
            .map(|p| variant.map.power(p).name_in(language).to_string())
            .collect();
    }
    Ok(now)
}

/// Writes `folder/name` for anyone to read (whole, then renamed into place: a link at the
/// name is replaced, never followed), the folder made already.
fn write_file(folder: &Path, name: &str, text: &str) -> Result<(), String> {
    let file = folder.join(name);
    crate::files::write_whole(&file, text.as_bytes(), crate::files::PUBLIC)
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// A game is public unless `SET PRIVATE` made it private.
pub fn is_public(game: &GameRow) -> bool {
    game.settings.public
}

/// Whether a game's files are on the public site: while it is public (`is_public`) and not
/// an anonymous game still running (its pictures and reports would show who does what).
pub fn on_public_site(game: &GameRow) -> bool {
    let anonymous = game.state != GameState::Finished && game.settings.anonymous;
    !anonymous && is_public(game)
}

/// The folder of a game's page: its name with letters, digits, `-` and `_` kept and every
/// other byte written `~xx`, so no name can reach outside the site or clash with another.
pub fn page_folder(name: &str) -> String {
    let mut out = String::new();
    for byte in name.bytes() {
        match byte {
            b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => out.push(char::from(byte)),
            _ => out.push_str(&format!("~{byte:02x}")),
        }
    }
    if out.is_empty() {
        out.push('~');
    }
    out
}

/// A line of the index.
#[derive(Serialize)]
struct IndexRow {
    folder: String,
    name: String,
    variant: String,
    state: String,
    /// None: not started.
    phase: Option<String>,
}

/// Writes `folder/index.html`, creating the folder (a link in its place is replaced by a
/// real folder, never followed).
fn write(folder: &Path, html: &str) -> Result<(), String> {
    public_folder(folder)?;
    write_file(folder, "index.html", html)
}

/// Makes `folder` a folder of the site, world-readable (`files::public_folder`).
fn public_folder(folder: &Path) -> Result<(), String> {
    crate::files::public_folder(folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))
}

/// Writes each phase's picture as `folder/phase-N.svg`, removes the pictures of phases no
/// longer in the history (after a ROLLBACK), and returns them for the page.
fn write_pictures(
    folder: &Path,
    pictures: &[maps::PhasePicture],
) -> Result<Vec<page::Picture>, String> {
    public_folder(folder)?;
    let mut written = Vec::new();
    for picture in pictures {
        let name = picture.file_name();
        // Written whole under another name, then renamed: a file under a picture's name is
        // the whole picture, so it is never drawn again.
        if let Some(svg) = &picture.svg {
            write_file(folder, &name, svg)?;
        }
        written.push(page::Picture {
            serial: picture.phase_serial,
            file: name,
            title: picture.title.clone(),
        });
    }
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stale = name.starts_with("phase-")
                && name.ends_with(".svg")
                && !written.iter().any(|w| w.file == name);
            // A file a crash left half written (`files::write_whole`'s temporary name).
            let unfinished = name.starts_with('.') && name.ends_with(".part");
            if stale || unfinished {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(written)
}

/// Removes every file of a game's folder (its page, pictures, feed, calendar and any work
/// file a crash left; a link is removed, never followed) and the folder itself, if it is
/// there: a game no longer on the public site leaves nothing of it there.
fn remove_game_files(folder: &Path) -> Result<(), String> {
    // A link where the folder should be is removed itself: what it points to is not ours.
    if std::fs::symlink_metadata(folder).is_ok_and(|m| m.file_type().is_symlink()) {
        return std::fs::remove_file(folder)
            .map_err(|e| format!("cannot remove {}: {e}", folder.display()));
    }
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", folder.display())),
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        let removed = if is_dir {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    match std::fs::remove_dir(folder) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove {}: {e}", folder.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_folders_stay_inside_the_site() {
        assert_eq!(page_folder("duel"), "duel");
        assert_eq!(page_folder("a-b_9"), "a-b_9");
        assert_eq!(page_folder(".."), "~2e~2e");
        assert_eq!(page_folder("a/b"), "a~2fb");
        assert_eq!(page_folder("Ä"), "~c3~84");
        assert_eq!(page_folder(""), "~");
    }

    #[test]
    fn a_game_leaving_the_site_removes_its_files_and_never_what_a_link_points_to() {
        let base = std::env::temp_dir().join(format!("strategos-remove-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let site = base.join("site");
        let outside = base.join("outside");
        std::fs::create_dir_all(site.join("game")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("keep.txt"), "mine").unwrap();
        for name in [
            "index.html",
            "phase-0-1.svg",
            ".phase-1-2.svg.part",
            "results.atom",
        ] {
            std::fs::write(site.join("game").join(name), "x").unwrap();
        }
        std::os::unix::fs::symlink(outside.join("keep.txt"), site.join("game/link")).unwrap();
        remove_game_files(&site.join("game")).unwrap();
        assert!(!site.join("game").exists());
        // A link planted where a game's folder would be: the link goes, the target stays.
        std::os::unix::fs::symlink(&outside, site.join("other")).unwrap();
        remove_game_files(&site.join("other")).unwrap();
        assert!(std::fs::symlink_metadata(site.join("other")).is_err());
        assert_eq!(
            std::fs::read_to_string(outside.join("keep.txt")).unwrap(),
            "mine"
        );
        remove_game_files(&site.join("never-there")).unwrap();
        std::fs::remove_dir_all(&base).unwrap();
    }
}
