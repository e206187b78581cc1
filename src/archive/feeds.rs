//! A game's deadlines as an iCalendar file (RFC 5545: `deadlines.ics`, and `GET ics <game>` by
//! mail) and its results as an Atom feed (RFC 4287: `results.atom`), beside its page. Both
//! are written from what the database holds, with no time of writing: the same database gives
//! the same files, and a calendar or feed reader sees a change only when the game changed.

use chrono::{DateTime, Utc};

use super::page::Report;

/// What a game's calendar says: its deadline and the end of its grace, in its phase.
pub struct Deadlines<'a> {
    /// The judge's code (`STRA`), for the events' ids.
    pub code: &'a str,
    pub game: &'a str,
    /// The phase the deadline is for, as players read it (`Spring 1901 movement`).
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

/// An iCalendar text value: backslash, comma, semicolon and line breaks escaped.
fn text(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ',' => out.push_str("\\,"),
            ';' => out.push_str("\\;"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// A content line folded at 75 octets (continuations start with a space), ended by CRLF.
fn line(out: &mut String, content: &str) {
    let mut width = 0;
    for c in content.chars() {
        if width + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out.push_str("\r\n");
}

fn stamp(at: DateTime<Utc>) -> String {
    at.format("%Y%m%dT%H%M%SZ").to_string()
}

/// The calendar: an event at the deadline and one at the end of the grace.
pub fn deadlines_ics(d: &Deadlines) -> String {
    let mut out = String::new();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, "PRODID:-//Strategos//Diplomacy judge//EN");
    line(&mut out, "CALSCALE:GREGORIAN");
    line(
        &mut out,
        &format!("X-WR-CALNAME:{}", text(&format!("Game {}", d.game))),
    );
    let owing = if d.owing.is_empty() {
        "Every order is in.".to_string()
    } else {
        format!("Orders still due from: {}.", d.owing.join(", "))
    };
    let events = [
        (
            d.deadline,
            "deadline",
            format!("{}: deadline, {}", d.game, d.phase),
        ),
        (
            d.grace_end,
            "grace",
            format!("{}: grace ends, {}", d.game, d.phase),
        ),
    ];
    for (at, what, summary) in events {
        let Some(at) = at else {
            continue;
        };
        if what == "grace" && Some(at) == d.deadline {
            continue;
        }
        line(&mut out, "BEGIN:VEVENT");
        line(
            &mut out,
            &format!(
                "UID:{}-{}-{}-{what}@strategos",
                text(&d.code.to_lowercase()),
                text(d.game),
                d.serial
            ),
        );
        line(&mut out, &format!("DTSTAMP:{}", stamp(d.since)));
        line(&mut out, &format!("DTSTART:{}", stamp(at)));
        line(&mut out, &format!("DTEND:{}", stamp(at)));
        line(&mut out, &format!("SUMMARY:{}", text(&summary)));
        line(&mut out, &format!("DESCRIPTION:{}", text(&owing)));
        line(&mut out, "TRANSP:TRANSPARENT");
        line(&mut out, "END:VEVENT");
    }
    line(&mut out, "END:VCALENDAR");
    out
}

/// XML text: the five characters XML reserves escaped, and control characters (which XML
/// 1.0 cannot hold) left out.
fn xml(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&apos;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// A report's time (`Tx::reports` stores RFC 3339) as Atom writes it.
fn atom_time(when: &str) -> String {
    crate::store::parse_time(when)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| when.to_string())
}

/// The feed of a game's results: one entry per report whose title says Results (numbered as
/// on the page, so each links to its section there), newest first.
pub fn results_atom(code: &str, game: &str, reports: &[Report]) -> String {
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
    let id = format!("urn:strategos:{}:{}", xml(&code.to_lowercase()), xml(game));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    out.push_str(&format!("  <id>{id}</id>\n"));
    out.push_str(&format!("  <title>Game {}: results</title>\n", xml(game)));
    out.push_str(&format!("  <updated>{updated}</updated>\n"));
    out.push_str("  <author><name>Strategos</name></author>\n");
    out.push_str("  <link rel=\"alternate\" href=\"index.html\"/>\n");
    out.push_str("  <link rel=\"self\" href=\"results.atom\"/>\n");
    for (i, (when, title, body)) in results.into_iter().rev() {
        out.push_str("  <entry>\n");
        out.push_str(&format!("    <id>{id}:report:{}</id>\n", i + 1));
        out.push_str(&format!("    <title>{}</title>\n", xml(title)));
        out.push_str(&format!("    <updated>{}</updated>\n", atom_time(when)));
        out.push_str(&format!(
            "    <link rel=\"alternate\" href=\"index.html#report-{}\"/>\n",
            i + 1
        ));
        out.push_str(&format!(
            "    <content type=\"text\">{}</content>\n",
            xml(body.trim_end())
        ));
        out.push_str("  </entry>\n");
    }
    out.push_str("</feed>\n");
    out
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
        let ics = deadlines_ics(&Deadlines {
            code: "STRA",
            game: "duel",
            phase: "Spring 1901 movement",
            serial: 3,
            deadline: Some(at("2027-01-07T12:00:00Z")),
            grace_end: Some(at("2027-01-14T12:00:00Z")),
            owing: &owing,
            since: at("2027-01-05T12:00:00Z"),
        });
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
        let atom = results_atom("STRA", "duel", &reports);
        assert_eq!(atom.matches("<entry>").count(), 2);
        assert!(atom.contains("<updated>2027-01-08T12:00:00Z</updated>"));
        assert!(atom.find("F1901M").unwrap() < atom.find("S1901M Results").unwrap());
        assert!(atom.contains("A &lt;Par&gt; &amp; F"));
        assert!(atom.contains("href=\"index.html#report-2\""));
        assert!(atom.contains("<id>urn:strategos:stra:duel:report:3</id>"));
    }
}
