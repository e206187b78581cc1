//! A game's page: what it is, who played it, its supply centres by year (table and chart),
//! the map of every phase and every report of its archive in order, written from
//! `templates/<language>/archive/game.html`; `report_texts` reads the reports back out.

use serde::Serialize;

use super::chart::centre_chart;
use super::summary::{Summary, centres_heading_in};
use crate::report::escape::unescape_html;
use crate::report::{Templates, Words};
use crate::store::GameRow;

/// A report of the archive: `(when, title, body)` as `Tx::reports` gives it.
pub type Report = (String, String, String);

/// Where a running game stands: its deadline (as players read it) and who still owes orders.
pub struct Status {
    pub deadline: Option<String>,
    pub owing: Vec<String>,
}

/// What a game's page shows.
pub struct Page<'a> {
    pub game: &'a GameRow,
    /// The name of the game's variant.
    pub variant_name: &'a str,
    pub summary: &'a Summary,
    pub reports: &'a [Report],
    pub status: &'a Status,
    /// The map of every phase, `(file, title)`, each a picture beside the page.
    pub maps: &'a [(String, String)],
}

#[derive(Serialize)]
struct CentreLine<'a> {
    power: &'a str,
    cells: Vec<String>,
}

#[derive(Serialize)]
struct Map<'a> {
    file: &'a str,
    title: &'a str,
}

#[derive(Serialize)]
struct Section<'a> {
    title: &'a str,
    when: &'a str,
    text: &'a str,
}

/// The state of a game in `words`: `forming`, `active`, `finished`.
pub fn state_in(words: Words, game: &GameRow) -> String {
    words.text(&format!("summary.{}", game.state.as_str()), &[])
}

/// The whole page of a game, in `words`' language.
pub fn game_page(templates: &Templates, words: Words, page: &Page) -> Result<String, String> {
    let summary = page.summary;
    let centres: Vec<CentreLine> = summary
        .centres
        .iter()
        .map(|row| CentreLine {
            power: &row.power,
            cells: (0..row.counts.len())
                .map(|i| summary.cell(row, i))
                .collect(),
        })
        .collect();
    let maps: Vec<Map> = page
        .maps
        .iter()
        .map(|(file, title)| Map { file, title })
        .collect();
    let reports: Vec<Section> = page
        .reports
        .iter()
        .map(|(when, title, text)| Section {
            title,
            when,
            text: text.trim_end(),
        })
        .collect();
    let holders: Vec<String> = summary.holders.iter().map(|h| h.line()).collect();
    templates.render_file(
        words.language(),
        "archive/game.html",
        minijinja::context! {
            name => page.game.name.as_str(),
            variant => page.variant_name,
            state => state_in(words, page.game),
            phase => minijinja::value::Serde(&summary.phase),
            deadline => minijinja::value::Serde(&page.status.deadline),
            owing => minijinja::value::Serde(&page.status.owing),
            holders => minijinja::value::Serde(&holders),
            years => minijinja::value::Serde(&summary.years),
            centres_heading => centres_heading_in(words, summary),
            centres => minijinja::value::Serde(&centres),
            chart => minijinja::value::Serde(centre_chart(summary)),
            maps => minijinja::value::Serde(&maps),
            reports => minijinja::value::Serde(&reports),
            problems => minijinja::value::Serde(&summary.problems),
        },
    )
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
        texts.push(unescape_html(&rest[..end]));
        rest = &rest[end..];
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::summary::{CentreRow, Holders, Span};
    use crate::game::GameState;

    const HOSTILE: &str = "<script>alert('x')</script> & \"friends\"";

    fn game(name: &str) -> GameRow {
        GameRow {
            id: 1,
            name: name.into(),
            variant: "standard".into(),
            state: GameState::Active,
            created_by: 1,
            time_zone: "UTC".into(),
            movement_hours: 48,
            retreat_hours: 24,
            adjustment_hours: 24,
            reminder_hours: 24,
            position: None,
            deadline_at: None,
            reminded: false,
            phase_serial: 0,
            settings: Default::default(),
            process_at: None,
        }
    }

    fn summary() -> Summary {
        Summary {
            phase: Some(format!("Spring 1901 {HOSTILE}")),
            running: true,
            years: vec!["1901".into()],
            centres: vec![CentreRow {
                power: format!("France {HOSTILE}"),
                counts: vec![3],
                supply: vec![3],
            }],
            by_supply: false,
            holders: vec![Holders {
                power: "France".into(),
                spans: vec![Span {
                    player: format!("Ann {HOSTILE}"),
                    from: "Spring 1901".into(),
                    to: None,
                }],
            }],
            problems: vec![HOSTILE.into()],
        }
    }

    fn render(reports: &[Report]) -> String {
        render_in(crate::lang::Lang::En, reports)
    }

    fn render_in(language: crate::lang::Lang, reports: &[Report]) -> String {
        let templates = Templates::built_in();
        let status = Status {
            deadline: Some(HOSTILE.into()),
            owing: vec![HOSTILE.into()],
        };
        let game = game(HOSTILE);
        let page = Page {
            game: &game,
            variant_name: HOSTILE,
            summary: &summary(),
            reports,
            status: &status,
            maps: &[(format!("phase-0-{HOSTILE}.svg"), HOSTILE.into())],
        };
        game_page(&templates, templates.words(language), &page).unwrap()
    }

    #[test]
    fn a_russian_game_has_its_page_in_russian() {
        let html = render_in(crate::lang::Lang::Ru, &[]);
        assert!(html.contains("<html lang=\"ru\">"), "{html}");
        assert!(html.contains("<td>идёт</td>"), "{html}");
        assert!(html.contains("<h2>Центры снабжения</h2>"), "{html}");
        assert!(
            html.contains("<title>Центры снабжения по годам</title>"),
            "{html}"
        );
        assert!(html.contains("Отчётов пока нет."), "{html}");
        assert!(!html.contains("<script"), "{html}");
    }

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
        assert_eq!(
            report_texts(&render(&reports)),
            [
                "Roll 1 (Battle at \"Vienna\" & <Graz>: 2 dice): 6 1",
                "</pre> written\nby a player"
            ]
        );
        assert!(report_texts(&render(&[])).is_empty());
    }

    #[test]
    fn hostile_names_and_press_are_escaped_on_the_page_and_in_the_feed() {
        let reports: Vec<Report> = vec![(
            "2027-01-06T12:00:00Z".into(),
            format!("STRA:x - S1901M Results {HOSTILE}"),
            format!("Press from Ann: {HOSTILE}\n</pre><script>steal()</script>"),
        )];
        let html = render(&reports);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("</pre><"), "{html}");
        let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;";
        assert!(
            html.contains(&format!("<title>Game {escaped}</title>")),
            "{html}"
        );
        assert!(html.contains(&format!("<h1>Game {escaped}</h1>")), "{html}");
        assert!(html.contains(&format!("<li>France: Ann {escaped} (Spring 1901 – )</li>")));
        assert!(html.contains(&format!("alt=\"Map: {escaped}\"")), "{html}");
        assert!(html.contains(&format!(
            "<text x=\"532.0\" y=\"21.0\">France {escaped}</text>"
        )));
        assert!(html.contains("&lt;/pre&gt;&lt;script&gt;steal()&lt;/script&gt;"));

        let templates = Templates::built_in();
        let atom = super::super::feeds::results_atom(
            &templates,
            crate::lang::Lang::En,
            "STRA",
            HOSTILE,
            &reports,
        )
        .unwrap();
        assert!(!atom.contains("<script"), "{atom}");
        let xml_escaped =
            "&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;friends&quot;";
        assert!(
            atom.contains(&format!("<title>Game {xml_escaped}: results</title>")),
            "{atom}"
        );
        assert!(atom.contains("&lt;/pre&gt;&lt;script&gt;steal()&lt;/script&gt;</content>"));

        let owing = vec![HOSTILE.to_string()];
        let at = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
        let ics = super::super::feeds::deadlines_ics(
            &templates,
            crate::lang::Lang::En,
            &super::super::feeds::Deadlines {
                code: "STRA",
                game: "a;b,c\nBEGIN:VEVENT",
                phase: HOSTILE,
                serial: 0,
                deadline: Some(at),
                grace_end: None,
                owing: &owing,
                since: at,
            },
        )
        .unwrap();
        assert!(
            ics.contains("X-WR-CALNAME:Game a\\;b\\,c\\nBEGIN:VEVENT\r\n"),
            "{ics}"
        );
        assert_eq!(ics.matches("\r\nBEGIN:VEVENT\r\n").count(), 1, "{ics}");
    }
}
