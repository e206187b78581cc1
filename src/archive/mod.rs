//! The archive as a static web site, and the SUMMARY of a game.
//!
//! `write_site` writes `index.html` (every public game) and `<game>/index.html` per game:
//! the players of each power over time (named as anyone may see them: `judge::secrecy`),
//! the supply centres by year (a table and an inline SVG chart), the map of every phase and
//! every report in order. Plain HTML with a little inline CSS: no scripts,
//! no outside files, and no time of writing, so the same database always gives the same
//! site. Every text from players or reports is escaped.
//!
//! - `html`: escaping and the page frame.
//! - `summary`: who held each power when and the centres by year; `summary_text`.
//! - `chart`: the SVG chart of the centres.
//! - `page`: a game's page, and `report_texts` to read its reports back.
//! - `maps`: the picture of each phase (`phase-N.svg` beside the page), shared with
//!   `strategos map --game`.

mod chart;
mod html;
pub mod maps;
mod page;
mod summary;

use std::path::Path;

pub use html::{escape, unescape};
pub use page::report_texts;
pub use summary::{CentreRow, Holders, Span, Summary, summarise, summary_text};

use crate::judge::secrecy::{Reader, scrub};
use crate::store::{GameRow, Tx};
use crate::variant::Variant;

/// Writes the site into `out` (created if missing) and returns the number of game pages
/// written. A private game gets no page, and a page left from when it was public is removed.
pub fn write_site(tx: &Tx, variants: &[Variant], out: &Path) -> Result<usize, String> {
    let db = |e: rusqlite::Error| format!("cannot read the database: {e}");
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut rows = Vec::new();
    for game in tx.games().map_err(db)? {
        let folder = out.join(page_folder(&game.name));
        if !is_public(tx, &game).map_err(db)? {
            remove_page(&folder)?;
            continue;
        }
        let variant = variants.iter().find(|v| v.id == game.variant);
        let variant_name = variant.map_or(game.variant.as_str(), |v| v.name.as_str());
        let summary = summarise(tx, variant, &game, Reader::Other).map_err(db)?;
        // No address a stranger may not see, whatever the archive holds.
        let words = crate::report::Words::english();
        let mut reports = Vec::new();
        for (when, title, text) in tx.reports(game.id).map_err(db)? {
            let title = scrub(tx, words, &game, &title, Reader::Other).map_err(db)?;
            let text = scrub(tx, words, &game, &text, Reader::Other).map_err(db)?;
            reports.push((when, title, text));
        }
        let pictures = maps::phase_pictures(tx, variants, &game, words).map_err(db)?;
        let maps = write_pictures(&folder, &pictures)?;
        let html = page::game_page(&game, variant_name, &summary, &reports, &maps);
        write(&folder, &html)?;
        rows.push(IndexRow {
            folder: page_folder(&game.name),
            name: game.name.clone(),
            variant: variant_name.to_string(),
            state: game.state.clone(),
            phase: summary.phase.unwrap_or_else(|| "not started".into()),
        });
    }
    write(out, &index_page(&rows))?;
    Ok(rows.len())
}

/// A game is public unless its settings say `"public": false` (`SET PRIVATE`); settings
/// that cannot be read count as the default, public.
pub fn is_public(tx: &Tx, game: &GameRow) -> rusqlite::Result<bool> {
    let settings = tx.game_settings(game.id)?;
    Ok(serde_json::from_str::<serde_json::Value>(&settings)
        .ok()
        .and_then(|v| v.get("public").and_then(serde_json::Value::as_bool))
        .unwrap_or(true))
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
struct IndexRow {
    folder: String,
    name: String,
    variant: String,
    state: String,
    phase: String,
}

fn index_page(rows: &[IndexRow]) -> String {
    let mut body = String::from("<h1>Games</h1>\n");
    if rows.is_empty() {
        body.push_str("<p>No public games yet.</p>\n");
        return html::page("Games", &body);
    }
    body.push_str(
        "<table class=\"games\">\n<tr><th scope=\"col\">Game</th><th scope=\"col\">Variant</th>\
         <th scope=\"col\">State</th><th scope=\"col\">Phase</th></tr>\n",
    );
    for row in rows {
        body.push_str(&format!(
            "<tr><td><a href=\"{}/index.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            row.folder,
            escape(&row.name),
            escape(&row.variant),
            escape(&row.state),
            escape(&row.phase)
        ));
    }
    body.push_str("</table>\n");
    html::page("Games", &body)
}

/// Writes `folder/index.html`, creating the folder.
fn write(folder: &Path, html: &str) -> Result<(), String> {
    std::fs::create_dir_all(folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let file = folder.join("index.html");
    std::fs::write(&file, html).map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// Writes each phase's picture as `folder/phase-N.svg`, removes the pictures of phases no
/// longer in the history (after a ROLLBACK), and returns `(file, title)` for the page.
fn write_pictures(
    folder: &Path,
    pictures: &[maps::PhasePicture],
) -> Result<Vec<(String, String)>, String> {
    std::fs::create_dir_all(folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let mut written = Vec::new();
    for picture in pictures {
        let name = format!("phase-{}.svg", picture.phase_serial);
        let file = folder.join(&name);
        std::fs::write(&file, &picture.svg)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        written.push((name, picture.title.clone()));
    }
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("phase-")
                && name.ends_with(".svg")
                && !written.iter().any(|(w, _)| *w == name)
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(written)
}

/// Removes `folder/index.html` if it is there (and the folder, if that leaves it empty).
fn remove_page(folder: &Path) -> Result<(), String> {
    let file = folder.join("index.html");
    match std::fs::remove_file(&file) {
        Ok(()) => {
            let _ = std::fs::remove_dir(folder);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove {}: {e}", file.display())),
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
}
