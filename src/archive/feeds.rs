//! A game's deadlines as an iCalendar file (RFC 5545: `deadlines.ics`, and `GET ics <game>` by
//! mail) and its results as an Atom feed (RFC 4287: `results.atom`), beside its page. Both
//! are written from what the database holds, with no time of writing: the same database gives
//! the same files, and a calendar or feed reader sees a change only when the game changed.
//! Their text is `templates/<language>/archive/deadlines.ics` and `results.atom`.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::page::Report;
use crate::lang::Lang;
use crate::report::Templates;
use crate::report::escape::ics_lines;

/// What a game's calendar says: its deadline and the end of its grace, in its phase.
pub struct Deadlines<'a> {
    /// The judge's code (`STRA`), for the events' ids.
    pub code: &'a str,
    pub game: &'a str,
    /// The phase the deadline is for, as players read it (`Movement for Spring of 1901`).
    pub phase: &'a str,
    /// The game's phase number, so each phase's events have their own ids.
    pub serial: i64,
    pub deadline: Option<DateTime<Utc>>,
    /// When the grace ends, if the game gives one.
    pub grace_end: Option<DateTime<Utc>>,
    /// The powers whose orders are still due, named.
    pub owing: &'a [String],
    /// When the phase began: the calendar's time stamp.
    pub since: DateTime<Utc>,
}

fn stamp(at: DateTime<Utc>) -> String {
    at.format("%Y%m%dT%H%M%SZ").to_string()
}

/// One event of the calendar: `deadline` or `grace` (its end), at a time.
#[derive(Serialize)]
struct Event {
    what: &'static str,
    at: String,
}

/// The calendar in `language` (`templates/<language>/archive/deadlines.ics`): an event at the
/// deadline and one at the end of the grace, its lines folded and ended by CRLF.
pub fn deadlines_ics(
    templates: &Templates,
    language: Lang,
    d: &Deadlines,
) -> Result<String, String> {
    let mut events = Vec::new();
    if let Some(at) = d.deadline {
        events.push(Event {
            what: "deadline",
            at: stamp(at),
        });
    }
    if let Some(at) = d.grace_end.filter(|at| Some(*at) != d.deadline) {
        events.push(Event {
            what: "grace",
            at: stamp(at),
        });
    }
    let text = templates.render_file(
        language,
        "archive/deadlines.ics",
        minijinja::context! {
            code => d.code,
            game => d.game,
            phase => d.phase,
            serial => d.serial,
            owing => minijinja::value::Serde(d.owing),
            since => stamp(d.since),
            events => minijinja::value::Serde(&events),
        },
    )?;
    Ok(ics_lines(&text))
}

/// A report's time (`Tx::reports` stores RFC 3339) as Atom writes it.
fn atom_time(when: &str) -> String {
    crate::store::parse_time(when)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| when.to_string())
}

/// One entry of the feed: a report, numbered as on the page.
#[derive(Serialize)]
struct Entry<'a> {
    number: usize,
    title: &'a str,
    updated: String,
    text: &'a str,
}

/// The feed of a game's results in `language` (`templates/<language>/archive/results.atom`):
/// one entry per report whose title says Results (numbered as on the page, so each links to
/// its section there), newest first.
pub fn results_atom(
    templates: &Templates,
    language: Lang,
    code: &str,
    game: &str,
    reports: &[Report],
) -> Result<String, String> {
    let results: Vec<(usize, &Report)> = reports
        .iter()
        .enumerate()
        .filter(|(_, (_, title, _))| title.contains("Results"))
        .collect();
    let updated = results
        .last()
        .map(|(_, (when, _, _))| atom_time(when))
        .or_else(|| reports.first().map(|(when, _, _)| atom_time(when)))
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into());
    let entries: Vec<Entry> = results
        .into_iter()
        .rev()
        .map(|(i, (when, title, body))| Entry {
            number: i + 1,
            title,
            updated: atom_time(when),
            text: body.trim_end(),
        })
        .collect();
    templates.render_file(
        language,
        "archive/results.atom",
        minijinja::context! { code, game, updated, entries => minijinja::value::Serde(&entries) },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn the_calendar_has_its_deadline_and_grace_folded_and_escaped() {
        let owing = vec!["France".to_string(), "Turkey".to_string()];
        let ics = deadlines_ics(
            &Templates::built_in(),
            Lang::En,
            &Deadlines {
                code: "STRA",
                game: "duel",
                phase: "Spring 1901 movement",
                serial: 3,
                deadline: Some(at("2027-01-07T12:00:00Z")),
                grace_end: Some(at("2027-01-14T12:00:00Z")),
                owing: &owing,
                since: at("2027-01-05T12:00:00Z"),
            },
        )
        .unwrap();
        assert!(ics.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
        assert!(ics.contains("UID:stra-duel-3-deadline@strategos\r\n"));
        assert!(ics.contains("DTSTART:20270107T120000Z\r\n"));
        assert!(ics.contains("DTSTART:20270114T120000Z\r\n"));
        assert!(ics.contains("DESCRIPTION:Orders still due from: France\\, Turkey.\r\n"));
        assert!(ics.contains("DTSTAMP:20270105T120000Z\r\n"));
        assert!(ics.lines().all(|l| l.len() <= 76), "{ics}");
        assert!(ics.ends_with("END:VCALENDAR\r\n"));
        assert_eq!(ics.matches("BEGIN:VEVENT").count(), 2);
    }

    #[test]
    fn the_feed_has_each_result_newest_first_and_escapes_it() {
        let reports: Vec<Report> = vec![
            (
                "2027-01-05T12:00:00Z".into(),
                "STRA:duel - S1901M Game Starting".into(),
                "start".into(),
            ),
            (
                "2027-01-06T12:00:00Z".into(),
                "STRA:duel - S1901M Results".into(),
                "A <Par> & F".into(),
            ),
            (
                "2027-01-08T12:00:00Z".into(),
                "STRA:duel - F1901M Results".into(),
                "later".into(),
            ),
        ];
        let atom =
            results_atom(&Templates::built_in(), Lang::En, "STRA", "duel", &reports).unwrap();
        assert_eq!(atom.matches("<entry>").count(), 2);
        assert!(atom.contains("<updated>2027-01-08T12:00:00Z</updated>"));
        assert!(atom.find("F1901M").unwrap() < atom.find("S1901M Results").unwrap());
        assert!(atom.contains("A &lt;Par&gt; &amp; F"));
        assert!(atom.contains("href=\"index.html#report-2\""));
        assert!(atom.contains("<id>urn:strategos:stra:duel:report:3</id>"));
    }
}
