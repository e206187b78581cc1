//! A game's page: what it is, who played it, its supply centres by year (table and chart),
//! then its phases newest first, each phase's map beside its reports (`timeline`), with
//! links to step from phase to phase, written from `templates/<language>/archive/game.html`;
//! `report_texts` reads the reports back out, in the archive's order.

use serde::Serialize;

use super::chart::centre_chart;
use super::summary::{Summary, centres_heading_in};
use super::timeline::{PhaseMark, steps};
use crate::report::escape::unescape_html;
use crate::report::{Templates, Words};
use crate::store::{ArchivedReport, GameRow};

/// A report of the archive: `(when, title, body)` as `Tx::reports` gives it.
pub type Report = (String, String, String);

/// Where a running game stands: its deadline (as players read it) and who still owes orders.
pub struct Status {
    pub deadline: Option<String>,
    pub owing: Vec<String>,
}

/// A phase of the game's history, named in the page's language.
pub struct Phase {
    pub serial: i64,
    /// `Movement for Spring of 1901`.
    pub title: String,
    /// When it began, as the store keeps times.
    pub began: String,
}

/// The map of a phase: a picture beside the page.
pub struct Picture {
    pub serial: i64,
    pub file: String,
    pub title: String,
}

/// What a game's page shows.
pub struct Page<'a> {
    pub game: &'a GameRow,
    /// The name of the game's variant.
    pub variant_name: &'a str,
    pub summary: &'a Summary,
    /// The archive, oldest first, as strangers may read it.
    pub reports: &'a [ArchivedReport],
    pub status: &'a Status,
    pub phases: &'a [Phase],
    pub maps: &'a [Picture],
}

#[derive(Serialize)]
struct CentreLine<'a> {
    power: &'a str,
    colour: &'a str,
    cells: Vec<String>,
}

#[derive(Serialize)]
struct Map<'a> {
    file: &'a str,
    title: &'a str,
}

#[derive(Serialize)]
struct Section<'a> {
    /// The report's place in the archive, from 1: its anchor, `report-N`.
    number: usize,
    title: &'a str,
    when: &'a str,
    text: &'a str,
}

/// A phase on the page, with the anchors of the phases before and after it.
#[derive(Serialize)]
struct StepView<'a> {
    anchor: String,
    /// Empty when the step is of no recorded phase and has no map: the template names it.
    title: &'a str,
    /// The phase being played now.
    current: bool,
    map: Option<Map<'a>>,
    reports: Vec<Section<'a>>,
    newer: Option<String>,
    older: Option<String>,
}

/// The state of a game in `words`: `forming`, `active`, `finished`.
pub fn state_in(words: Words, game: &GameRow) -> String {
    words.text(&format!("summary.{}", game.state.as_str()), &[])
}

/// The phases of the page, newest first, each with its map and reports.
fn step_views<'a>(page: &Page<'a>) -> Vec<StepView<'a>> {
    let marks: Vec<PhaseMark> = page
        .phases
        .iter()
        .map(|p| PhaseMark {
            serial: p.serial,
            began: &p.began,
        })
        .collect();
    let map_phases: Vec<i64> = page.maps.iter().map(|m| m.serial).collect();
    let kept: Vec<(i64, &str)> = page
        .reports
        .iter()
        .map(|r| (r.phase_serial, r.when.as_str()))
        .collect();
    let running = page.game.state == crate::game::GameState::Active;
    let current = |serial: i64| running && serial == page.game.phase_serial;
    // A phase with nothing to show (the one a finished game never played, on a variant
    // without a map) is left out; the phase being played is always there.
    let steps: Vec<_> = steps(&marks, &map_phases, &kept)
        .into_iter()
        .filter(|s| s.map.is_some() || !s.reports.is_empty() || current(s.serial))
        .collect();
    let anchor = |serial: i64| format!("phase-{serial}");
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let map = step.map.map(|m| &page.maps[m]);
            let phase = page.phases.iter().find(|p| p.serial == step.serial);
            StepView {
                anchor: anchor(step.serial),
                title: match (phase, map) {
                    (Some(p), _) => &p.title,
                    (None, Some(m)) => &m.title,
                    (None, None) => "",
                },
                current: current(step.serial),
                map: map.map(|m| Map {
                    file: &m.file,
                    title: &m.title,
                }),
                reports: step
                    .reports
                    .iter()
                    .map(|r| {
                        let report = &page.reports[*r];
                        Section {
                            number: r + 1,
                            title: &report.title,
                            when: &report.when,
                            text: report.body.trim_end(),
                        }
                    })
                    .collect(),
                newer: i.checked_sub(1).map(|n| anchor(steps[n].serial)),
                older: steps.get(i + 1).map(|s| anchor(s.serial)),
            }
        })
        .collect()
}

/// The whole page of a game, in `words`' language.
pub fn game_page(templates: &Templates, words: Words, page: &Page) -> Result<String, String> {
    let summary = page.summary;
    let centres: Vec<CentreLine> = summary
        .centres
        .iter()
        .map(|row| CentreLine {
            power: &row.power,
            colour: &row.colour,
            cells: (0..row.counts.len())
                .map(|i| summary.cell(row, i))
                .collect(),
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
            steps => minijinja::value::Serde(step_views(page)),
            problems => minijinja::value::Serde(&summary.problems),
        },
    )
}

/// The text of every report on a game's page in the archive's order, oldest first, whatever
/// order the page shows them in (each `<pre>` of a report's section, unescaped, ordered by the
/// number of its anchor `report-N`): what `strategos verify-dice` reads.
pub fn report_texts(html: &str) -> Vec<String> {
    const ANCHOR: &str = "id=\"report-";
    let mut texts: Vec<(usize, String)> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(ANCHOR) {
        rest = &rest[at + ANCHOR.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let number = rest[..digits].parse().unwrap_or(usize::MAX);
        let Some(start) = rest.find("<pre>") else {
            break;
        };
        rest = &rest[start + "<pre>".len()..];
        let Some(end) = rest.find("</pre>") else {
            break;
        };
        texts.push((number, unescape_html(&rest[..end])));
        rest = &rest[end..];
    }
    // Stable: pages of old, whose anchors may repeat, keep their order.
    texts.sort_by_key(|(number, _)| *number);
    texts.into_iter().map(|(_, text)| text).collect()
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
                colour: "#56B4E9".into(),
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
        // Each report kept in a phase of its own, and the map of the first.
        let archived: Vec<ArchivedReport> = reports
            .iter()
            .enumerate()
            .map(|(i, (when, title, body))| ArchivedReport {
                phase_serial: i as i64,
                when: when.clone(),
                title: title.clone(),
                body: body.clone(),
            })
            .collect();
        let phases: Vec<Phase> = (0..reports.len().max(1))
            .map(|i| Phase {
                serial: i as i64,
                title: format!("Phase {i} {HOSTILE}"),
                began: format!("began {i}"),
            })
            .collect();
        let page = Page {
            game: &game,
            variant_name: HOSTILE,
            summary: &summary(),
            reports: &archived,
            status: &status,
            phases: &phases,
            maps: &[Picture {
                serial: 0,
                file: format!("phase-0-{HOSTILE}.svg"),
                title: HOSTILE.into(),
            }],
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
        // The phase being played has its map and no results yet.
        assert!(
            html.contains("<span class=\"now\">идёт сейчас</span>"),
            "{html}"
        );
        assert!(
            html.contains("Итогов пока нет: приказы этой фазы тайны"),
            "{html}"
        );
        assert!(!html.contains("<script"), "{html}");
    }

    #[test]
    fn reports_read_back_from_the_page_in_the_archive_s_order_shown_newest_first() {
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
        // The page shows the newer phase first, each stepping to the other.
        let html = render(&reports);
        let (newer, older) = (
            html.find("id=\"phase-1\"").unwrap(),
            html.find("id=\"phase-0\"").unwrap(),
        );
        assert!(newer < older, "{html}");
        assert!(html[newer..older].contains("href=\"#phase-0\""), "{html}");
        assert!(html[older..].contains("href=\"#phase-1\""), "{html}");
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
