//! A game's page: what it is, who played it, its supply centres by year (table and chart),
//! the map of every phase and every report of its archive in order; `report_texts` reads the reports back out.

use super::chart::centre_chart;
use super::html::{escape, page, unescape};
use super::summary::{Summary, centres_heading};
use crate::store::GameRow;

/// A report of the archive: `(when, title, body)` as `Tx::reports` gives it.
pub type Report = (String, String, String);

/// Where a running game stands: its deadline (as players read it) and who still owes orders.
pub struct Status {
    pub deadline: Option<String>,
    pub owing: Vec<String>,
}

/// The whole page of `game`, whose variant is called `variant_name`.
pub fn game_page(
    game: &GameRow,
    variant_name: &str,
    summary: &Summary,
    reports: &[Report],
    status: &Status,
    maps: &[(String, String)],
) -> String {
    let mut body = String::new();
    body.push_str("<p><a href=\"../index.html\">All games</a></p>\n");
    body.push_str(&format!("<h1>Game {}</h1>\n", escape(&game.name)));
    body.push_str("<table class=\"facts\">\n");
    let phase = summary.phase.as_deref().unwrap_or("not started");
    for (key, value) in [
        ("Variant", variant_name),
        ("State", game.state.as_str()),
        ("Phase", phase),
    ] {
        body.push_str(&format!(
            "<tr><th scope=\"row\">{key}</th><td>{}</td></tr>\n",
            escape(value)
        ));
    }
    if let Some(deadline) = &status.deadline {
        let owing = if status.owing.is_empty() {
            "no one: every order is in".to_string()
        } else {
            status.owing.join(", ")
        };
        for (key, value) in [
            ("Deadline", deadline.as_str()),
            ("Orders due from", owing.as_str()),
        ] {
            body.push_str(&format!(
                "<tr><th scope=\"row\">{key}</th><td>{}</td></tr>\n",
                escape(value)
            ));
        }
    }
    body.push_str("</table>\n");
    body.push_str(
        "<p class=\"note\"><a href=\"deadlines.ics\">Deadlines (iCalendar)</a> · \
         <a href=\"results.atom\">Results (Atom feed)</a></p>\n",
    );
    body.push_str(&players(summary));
    body.push_str(&centres(summary));
    body.push_str(&pictures(maps));
    body.push_str(&phases(reports));
    if !summary.problems.is_empty() {
        body.push_str("<h2>Notes</h2>\n<ul class=\"note\">\n");
        for problem in &summary.problems {
            body.push_str(&format!("<li>{}</li>\n", escape(problem)));
        }
        body.push_str("</ul>\n");
    }
    page(&format!("Game {}", game.name), &body)
}

/// Who held each power when, one item per power.
fn players(summary: &Summary) -> String {
    let mut out = String::from("<h2>Players</h2>\n");
    if summary.holders.is_empty() {
        out.push_str("<p>No one has played yet: the game has not started.</p>\n");
        return out;
    }
    out.push_str("<ul>\n");
    for holders in &summary.holders {
        out.push_str(&format!("<li>{}</li>\n", escape(&holders.line())));
    }
    out.push_str("</ul>\n");
    out
}

/// The counts by year as a table (a row per power, a column per year) and as a chart.
fn centres(summary: &Summary) -> String {
    if summary.years.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<h2>Supply centres</h2>\n<p class=\"note\">{}.</p>\n<table class=\"centres\">\n<tr><th scope=\"col\">Power</th>",
        escape(&centres_heading(summary))
    );
    for year in &summary.years {
        out.push_str(&format!("<th scope=\"col\">{}</th>", escape(year)));
    }
    out.push_str("</tr>\n");
    for row in &summary.centres {
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}</th>",
            escape(&row.power)
        ));
        for i in 0..row.counts.len() {
            out.push_str(&format!(
                "<td class=\"count\">{}</td>",
                summary.cell(row, i)
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    if let Some(chart) = centre_chart(summary) {
        out.push_str(&chart);
    }
    out
}

/// The map of every phase, `(file, title)`, each a picture beside the page.
fn pictures(maps: &[(String, String)]) -> String {
    if maps.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2>Maps</h2>\n");
    for (file, title) in maps {
        out.push_str(&format!(
            "<figure class=\"map\"><img src=\"{}\" alt=\"Map: {}\" loading=\"lazy\" style=\"max-width:100%;height:auto\"><figcaption>{}</figcaption></figure>\n",
            escape(file),
            escape(title),
            escape(title)
        ));
    }
    out
}

/// The archive in order: a list of contents, then each report with its time and text.
fn phases(reports: &[Report]) -> String {
    let mut out = String::from("<h2>Phases</h2>\n");
    if reports.is_empty() {
        out.push_str("<p>No reports yet.</p>\n");
        return out;
    }
    out.push_str("<ol>\n");
    for (i, (_, title, _)) in reports.iter().enumerate() {
        out.push_str(&format!(
            "<li><a href=\"#report-{}\">{}</a></li>\n",
            i + 1,
            escape(title)
        ));
    }
    out.push_str("</ol>\n");
    for (i, (when, title, text)) in reports.iter().enumerate() {
        out.push_str(&format!(
            "<section id=\"report-{}\">\n<h3>{}</h3>\n<p class=\"when\">{}</p>\n<pre>{}</pre>\n</section>\n",
            i + 1,
            escape(title),
            escape(when),
            escape(text.trim_end())
        ));
    }
    out
}

/// The text of every report on a game's page, in order, as `game_page` wrote them (each
/// `<pre>` of a report's section, unescaped): what `strategos verify-dice` reads.
pub fn report_texts(html: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<section id=\"report-") {
        rest = &rest[at..];
        let Some(start) = rest.find("<pre>") else {
            break;
        };
        rest = &rest[start + "<pre>".len()..];
        let Some(end) = rest.find("</pre>") else {
            break;
        };
        texts.push(unescape(&rest[..end]));
        rest = &rest[end..];
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_read_back_from_the_page() {
        let reports: Vec<Report> = vec![
            (
                "2027-01-05 12:00".into(),
                "Spring <1901>".into(),
                "Roll 1 (Battle at \"Vienna\" & <Graz>: 2 dice): 6 1\n\n".into(),
            ),
            (
                "2027-01-06 12:00".into(),
                "Fall".into(),
                "</pre> written\nby a player".into(),
            ),
        ];
        let html = page("game", &phases(&reports));
        assert_eq!(
            report_texts(&html),
            [
                "Roll 1 (Battle at \"Vienna\" & <Graz>: 2 dice): 6 1",
                "</pre> written\nby a player"
            ]
        );
        assert!(report_texts(&page("game", &phases(&[]))).is_empty());
    }
}
