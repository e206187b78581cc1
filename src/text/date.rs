//! Dates as players write them to the classic judge (njudge's `deadlines` and `history` files):
//! a weekday, or a day and a month (three-letter names or whole ones, in either order, a comma
//! allowed after the day), a year (four digits, or 80 to 99 for 1980 to 1999), a time `hh:mm`
//! on a 24-hour clock, in any order (`Jun 15`, `15 jun 2027 23:30`, `Tue`, `feb`); or
//! `yyyy-mm-dd`, as ISO writes it. Every date the judge prints reads back too (a test holds
//! it): its own forms (`Wed 06 Jan 2027 12:16 UTC`, `ср 06.01.2027 12:16 MSK`: a weekday with a
//! whole date, checked, a dotted day, a zone after the time), njudge's
//! (`Wed Jan 06 2027 12:16:00 +0000`, HISTORY's `(1799064960)` seconds) and ISO 8601's with
//! its time and zone (`2027-01-11T20:00Z`); `instant.rs` makes one an instant. `read_date` reads the words into a `WrittenDate`; `resolve`
//! makes it a day and time given today's (in the game's zone, passed in: the text module reads
//! no clock), as njudge does: a weekday is its next occurrence after today, a date without a
//! year its next occurrence from today (no more than 120 days ahead), a month alone its last
//! day, nothing but a time today.

use std::fmt;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Weekday};

mod instant;
pub use instant::Looking;

/// A date as written, its parts read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenDate {
    pub weekday: Option<Weekday>,
    pub day: Option<u32>,
    pub month: Option<u32>,
    pub year: Option<i32>,
    pub time: Option<NaiveTime>,
    /// The zone written after the time, if any; else the game's.
    pub zone: Option<WrittenZone>,
    /// Seconds since 1970 written with the date (HISTORY's `(1799064960)`): the instant itself.
    pub instant: Option<i64>,
    /// The words as written, joined by single spaces (echoed back to the writer).
    pub text: String,
}

/// Why a written date names no day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DateProblem {
    /// The day does not exist (`31 Feb 2027`).
    NoSuchDay,
    /// Without a year the date is more than 120 days ahead: write the year.
    TooFarAhead,
    /// The zone written (`CET`) is not what the game's zone is called at that time.
    NotTheZone(String),
}

/// How far ahead a date without a year may be taken (njudge's rule).
const MOST_DAYS_AHEAD: i64 = 120;

const WEEKDAYS: [(&str, Weekday); 7] = [
    ("sun", Weekday::Sun),
    ("mon", Weekday::Mon),
    ("tue", Weekday::Tue),
    ("wed", Weekday::Wed),
    ("thu", Weekday::Thu),
    ("fri", Weekday::Fri),
    ("sat", Weekday::Sat),
];

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The whole names of days and months, read like their abbreviations.
const WHOLE: [&str; 19] = [
    "sunday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "sept",
    "october",
    "november",
    "december",
];

/// The Russian weekdays as the judge writes them (`пн`), Sunday first, and their whole names.
const RUSSIAN_WEEKDAYS: [(&str, &str, Weekday); 7] = [
    ("вс", "воскресенье", Weekday::Sun),
    ("пн", "понедельник", Weekday::Mon),
    ("вт", "вторник", Weekday::Tue),
    ("ср", "среда", Weekday::Wed),
    ("чт", "четверг", Weekday::Thu),
    ("пт", "пятница", Weekday::Fri),
    ("сб", "суббота", Weekday::Sat),
];

/// A zone written after a time: an offset (`+0000`, `-06:00`, `Z`, `UTC`) or a zone's
/// abbreviation as the judge prints it (`CET`, `MSK`), checked against the game's zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrittenZone {
    /// Seconds east of UTC.
    Offset(i32),
    /// An abbreviation, in capitals as written.
    Named(String),
}

/// What one word of a date is.
enum Part {
    Weekday(Weekday),
    Month(u32),
    Day(u32),
    Year(i32),
    Time(NaiveTime),
    /// `2027-01-11`, or with its time and zone: `2027-01-11T20:00Z`.
    Iso(NaiveDate, Option<NaiveTime>, Option<WrittenZone>),
    /// `06.01.2027` or `06.01`, as the Russian letters write a day.
    Dotted(u32, u32, Option<i32>),
    Zone(WrittenZone),
    /// `(1799064960)`: seconds since 1970, as HISTORY wrote them after a date.
    Epoch(i64),
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `hh:mm` or `hh:mm:ss` on a 24-hour clock.
fn clock(text: &str) -> Option<NaiveTime> {
    let mut pieces = text.split(':');
    let (h, m) = (pieces.next()?, pieces.next()?);
    let s = pieces.next();
    if pieces.next().is_some()
        || !digits(h)
        || h.len() > 2
        || !digits(m)
        || m.len() != 2
        || s.is_some_and(|s| !digits(s) || s.len() != 2)
    {
        return None;
    }
    let s = s.map_or(Some(0), |s| s.parse().ok())?;
    NaiveTime::from_hms_opt(h.parse().ok()?, m.parse().ok()?, s)
}

/// An offset from UTC: `+0000`, `-06:00`, `+03`, `z`, `utc`, `gmt`.
fn offset(text: &str) -> Option<i32> {
    if matches!(text, "z" | "utc" | "gmt") {
        return Some(0);
    }
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let rest = text[1..].replace(':', "");
    if !digits(&rest) || !(rest.len() == 2 || rest.len() == 4) {
        return None;
    }
    let hours: i32 = rest[..2].parse().ok()?;
    let minutes: i32 = rest
        .get(2..)
        .filter(|m| !m.is_empty())
        .map_or(Some(0), |m| m.parse().ok())?;
    (hours <= 14 && minutes < 60).then_some(sign * (hours * 3600 + minutes * 60))
}

/// `2027-01-11`, `2027-01-11T20:00`, `2027-01-11T20:00:00Z`, `2027-01-11T20:00+01:00`.
fn iso(lower: &str) -> Option<Part> {
    let (date, rest) = lower.split_at_checked(10)?;
    let date = NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?;
    let Some(rest) = rest.strip_prefix('t') else {
        return rest.is_empty().then_some(Part::Iso(date, None, None));
    };
    let cut = rest.find(['z', '+', '-']).unwrap_or(rest.len());
    let time = clock(&rest[..cut])?;
    let zone = match &rest[cut..] {
        "" => None,
        zone => Some(WrittenZone::Offset(offset(zone)?)),
    };
    Some(Part::Iso(date, Some(time), zone))
}

/// Whether a word is shaped as an ISO date (`2027-02-30`, even if no such day).
fn iso_shaped(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 10 && b[4] == b'-' && b[7] == b'-'
}

fn part(word: &str) -> Option<Part> {
    let lower = word.trim_end_matches(',').to_lowercase();
    if let Some(inner) = lower.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
        return digits(inner)
            .then(|| inner.parse().ok().map(Part::Epoch))
            .flatten();
    }
    if let Some((_, _, day)) = RUSSIAN_WEEKDAYS
        .iter()
        .find(|(short, whole, _)| lower.trim_end_matches('.') == *short || lower == *whole)
    {
        return Some(Part::Weekday(*day));
    }
    if iso_shaped(&lower) {
        return iso(&lower);
    }
    if let Some(zone) = offset(&lower) {
        return Some(Part::Zone(WrittenZone::Offset(zone)));
    }
    let dots: Vec<&str> = lower.trim_end_matches('.').split('.').collect();
    if let [day, month, year @ ..] = dots.as_slice()
        && year.len() <= 1
        && [day, month].iter().all(|p| digits(p) && p.len() <= 2)
    {
        let year = match year.first() {
            Some(y) if digits(y) && y.len() == 4 => Some(y.parse().ok()?),
            Some(_) => return None,
            None => None,
        };
        let (day, month) = (day.parse().ok()?, month.parse().ok()?);
        return ((1..=31).contains(&day) && (1..=12).contains(&month))
            .then_some(Part::Dotted(day, month, year));
    }
    let lower = lower.trim_end_matches('.');
    let name = if WHOLE.contains(&lower) || lower.len() == 3 {
        lower.get(..3)
    } else {
        None
    };
    if let Some(name) = name {
        if let Some((_, day)) = WEEKDAYS.iter().find(|(n, _)| *n == name) {
            return Some(Part::Weekday(*day));
        }
        if let Some(i) = MONTHS.iter().position(|m| *m == name) {
            return Some(Part::Month(i as u32 + 1));
        }
    }
    if lower.contains(':') {
        return clock(lower).map(Part::Time);
    }
    // A zone's abbreviation as the judge prints it: two to five capitals.
    let written = word.trim_end_matches(',');
    if (2..=5).contains(&written.len()) && written.bytes().all(|b| b.is_ascii_uppercase()) {
        return Some(Part::Zone(WrittenZone::Named(written.to_string())));
    }
    if !digits(lower) {
        return None;
    }
    let number: u32 = lower.parse().ok()?;
    match lower.len() {
        4 => Some(Part::Year(number as i32)),
        1 | 2 if (1..=31).contains(&number) => Some(Part::Day(number)),
        2 if (80..=99).contains(&number) => Some(Part::Year(1900 + number as i32)),
        _ => None,
    }
}

/// Whether two words side by side are parts of one date, which a line is not broken between
/// (`06 Jan`, `2027 12:16`, `12:16 UTC`, `ср 06.01.2027`): both are parts of a date, and not
/// both bare numbers of a day (`3 4` is no date). Punctuation after a word is no part of it.
pub fn joined(before: &str, after: &str) -> bool {
    fn bare(w: &str) -> Option<&str> {
        let w = w.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
        (w.len() <= 40).then_some(w)
    }
    let (Some(before), Some(after)) = (bare(before), bare(after)) else {
        return false;
    };
    match (part(before), part(after)) {
        (Some(Part::Day(_)), Some(Part::Day(_))) => false,
        (Some(_), Some(Part::Zone(_))) => clock(before).is_some(),
        (Some(_), Some(_)) => true,
        _ => false,
    }
}

/// Why words are no date; its `Display` says so to the writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DateError {
    /// No words at all.
    Empty,
    /// A word shaped as an ISO date names no day of the calendar (`2027-02-30`).
    NoSuchDay(String),
    /// A word that is no part of a date.
    NotADate(String),
    /// A word that gives a part of the date already given.
    Twice(String),
    /// A weekday with only part of a date.
    WeekdayWithDate,
    /// A weekday that is not the weekday of the whole date written with it.
    WrongWeekday(String),
    /// A zone not straight after a time.
    ZoneWithoutTime(String),
    /// A year without its month.
    YearWithoutMonth,
}

impl std::fmt::Display for DateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DateError::Empty => write!(f, "a date is needed, like: 15 Jun 2027 23:30"),
            DateError::NoSuchDay(word) => write!(f, "'{word}' is no day of the calendar"),
            DateError::NotADate(word) => write!(
                f,
                "'{word}' is not part of a date: write a date like 15 Jun 2027 23:30, Tue 18:00 or 2027-06-15"
            ),
            DateError::Twice(word) => {
                write!(f, "'{word}' gives a part of the date a second time")
            }
            DateError::WeekdayWithDate => write!(
                f,
                "a weekday goes alone or with a whole date: write Tue, 15 Jun, or Tue 15 Jun 2027"
            ),
            DateError::WrongWeekday(word) => {
                write!(f, "'{word}' is not the weekday of that date")
            }
            DateError::ZoneWithoutTime(word) => {
                write!(
                    f,
                    "'{word}' names a time zone: it goes after a time, like 18:00 {word}"
                )
            }
            DateError::YearWithoutMonth => {
                write!(f, "a year needs a month, like: Jun 2027 or 15 Jun 2027")
            }
        }
    }
}

/// Reads the words of a date: every form the judge prints (`Wed 06 Jan 2027 12:16 UTC`,
/// `ср 06.01.2027 12:16 MSK`), njudge's (`Wed Jan 06 2027 12:16:00 +0000`, HISTORY's
/// `Mon Jan  4 12:16:00 2027 (1799064960)`), ISO 8601's (`2027-01-11T20:00Z`) and players'
/// (`15 Jun`, `Tue 18:00`). Each part at most once; a weekday goes alone or with a whole date,
/// and must be its weekday; a zone goes straight after a time.
pub fn read_date(words: &[&str]) -> Result<WrittenDate, DateError> {
    let mut date = WrittenDate {
        weekday: None,
        day: None,
        month: None,
        year: None,
        time: None,
        zone: None,
        instant: None,
        text: words.join(" "),
    };
    if words.is_empty() {
        return Err(DateError::Empty);
    }
    let mut after_time = false;
    let mut weekday_word = String::new();
    for word in words {
        if *word == "," {
            continue;
        }
        let shown: String = word.chars().take(20).collect();
        let Some(part) = part(word) else {
            if iso_shaped(word) {
                return Err(DateError::NoSuchDay(shown));
            }
            return Err(DateError::NotADate(shown));
        };
        let whole = |date: &mut WrittenDate, y: Option<i32>, m: u32, d: u32| {
            let given =
                date.month.is_some() || date.day.is_some() || (y.is_some() && date.year.is_some());
            date.year = y.or(date.year);
            date.month = Some(m);
            date.day = Some(d);
            given
        };
        let was_after_time = std::mem::replace(&mut after_time, false);
        let twice = match part {
            Part::Weekday(d) => {
                weekday_word = shown.clone();
                date.weekday.replace(d).is_some()
            }
            Part::Month(m) => date.month.replace(m).is_some(),
            Part::Day(d) => date.day.replace(d).is_some(),
            Part::Year(y) => date.year.replace(y).is_some(),
            Part::Time(t) => {
                after_time = true;
                date.time.replace(t).is_some()
            }
            Part::Iso(d, time, zone) => {
                let mut given = whole(&mut date, Some(d.year()), d.month(), d.day());
                if let Some(time) = time {
                    given |= date.time.replace(time).is_some();
                    after_time = zone.is_none();
                }
                if let Some(zone) = zone {
                    given |= date.zone.replace(zone).is_some();
                }
                given
            }
            Part::Dotted(d, m, y) => whole(&mut date, y, m, d),
            Part::Zone(zone) => {
                if !was_after_time {
                    return Err(DateError::ZoneWithoutTime(shown));
                }
                date.zone.replace(zone).is_some()
            }
            Part::Epoch(seconds) => date.instant.replace(seconds).is_some(),
        };
        if twice {
            return Err(DateError::Twice(shown));
        }
    }
    if let Some(weekday) = date.weekday {
        match (date.year, date.month, date.day) {
            (None, None, None) => {}
            (Some(y), Some(m), Some(d)) => {
                if NaiveDate::from_ymd_opt(y, m, d).is_some_and(|d| d.weekday() != weekday) {
                    return Err(DateError::WrongWeekday(weekday_word));
                }
                date.weekday = None;
            }
            _ => return Err(DateError::WeekdayWithDate),
        }
    }
    if date.year.is_some() && date.month.is_none() {
        return Err(DateError::YearWithoutMonth);
    }
    Ok(date)
}

impl WrittenDate {
    /// The day and time meant, given `today` (the local time now) and the time of day to take
    /// when none is written.
    pub fn resolve(
        &self,
        today: NaiveDateTime,
        default_time: NaiveTime,
    ) -> Result<NaiveDateTime, DateProblem> {
        let time = self.time.unwrap_or(default_time);
        let date = today.date();
        if let Some(weekday) = self.weekday {
            let mut day = date + Duration::days(1);
            while day.weekday() != weekday {
                day += Duration::days(1);
            }
            return Ok(day.and_time(time));
        }
        let day = match (self.year, self.month, self.day) {
            (None, None, None) => date,
            (Some(year), Some(month), Some(day)) => {
                NaiveDate::from_ymd_opt(year, month, day).ok_or(DateProblem::NoSuchDay)?
            }
            (Some(year), Some(month), None) => {
                last_day(year, month).ok_or(DateProblem::NoSuchDay)?
            }
            (None, month, day) => {
                // The next occurrence from today, at most a year and a month ahead.
                let found = (0..400)
                    .map(|n| date + Duration::days(n))
                    .find(|d| {
                        month.is_none_or(|m| d.month() == m)
                            && match day {
                                Some(day) => d.day() == day,
                                None => last_day(d.year(), d.month()) == Some(*d),
                            }
                    })
                    .ok_or(DateProblem::NoSuchDay)?;
                if (found - date).num_days() > MOST_DAYS_AHEAD {
                    return Err(DateProblem::TooFarAhead);
                }
                found
            }
            (Some(_), None, _) => return Err(DateProblem::NoSuchDay),
        };
        Ok(day.and_time(time))
    }
}

impl WrittenDate {
    /// The day and time meant when the date is one of the past (HISTORY's FROM and TO): a
    /// weekday is the latest one up to today, a date without a year its latest occurrence up
    /// to today; a month alone is its first day when `first`, else its last.
    pub fn resolve_back(
        &self,
        today: NaiveDateTime,
        default_time: NaiveTime,
        first: bool,
    ) -> Result<NaiveDateTime, DateProblem> {
        let time = self.time.unwrap_or(default_time);
        let date = today.date();
        let month_day = |d: NaiveDate| match self.day {
            Some(day) => d.day() == day,
            None if first => d.day() == 1,
            None => last_day(d.year(), d.month()) == Some(d),
        };
        let day = match (self.weekday, self.year, self.month) {
            (Some(weekday), _, _) => (0..7)
                .map(|n| date - Duration::days(n))
                .find(|d| d.weekday() == weekday)
                .ok_or(DateProblem::NoSuchDay)?,
            (None, Some(year), Some(month)) => match self.day {
                Some(day) => NaiveDate::from_ymd_opt(year, month, day),
                None if first => NaiveDate::from_ymd_opt(year, month, 1),
                None => last_day(year, month),
            }
            .ok_or(DateProblem::NoSuchDay)?,
            (None, None, None) if self.day.is_none() => date,
            (None, None, month) => (0..400)
                .map(|n| date - Duration::days(n))
                .find(|d| month.is_none_or(|m| d.month() == m) && month_day(*d))
                .ok_or(DateProblem::NoSuchDay)?,
            (None, Some(_), None) => return Err(DateProblem::NoSuchDay),
        };
        Ok(day.and_time(time))
    }
}

fn last_day(year: i32, month: u32) -> Option<NaiveDate> {
    let (y, m) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1).map(|d| d - Duration::days(1))
}

impl fmt::Display for WrittenDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
    }

    fn resolve(words: &str, today: &str) -> Result<NaiveDateTime, DateProblem> {
        let words: Vec<&str> = words.split_whitespace().collect();
        read_date(&words)
            .unwrap()
            .resolve(at(today), NaiveTime::from_hms_opt(23, 30, 0).unwrap())
    }

    #[test]
    fn njudge_s_examples_read_as_its_deadlines_file_says() {
        // "SET DEADLINE Jun 15", "15 Jun", even "Jun 23:30 15".
        let june = at("2027-06-15 23:30");
        assert_eq!(resolve("Jun 15", "2027-06-01 10:00"), Ok(june));
        assert_eq!(resolve("15 Jun", "2027-06-01 10:00"), Ok(june));
        assert_eq!(resolve("Jun 23:30 15", "2027-06-01 10:00"), Ok(june));
        // A weekday is the next one after today: a Tuesday's "Tue" is a week ahead.
        assert_eq!(
            resolve("Tue", "2027-06-01 10:00"),
            Ok(at("2027-06-08 23:30"))
        );
        // In December, 10 Jan is next year's; in February it is too far ahead without a year.
        assert_eq!(
            resolve("10 Jan", "2027-12-20 10:00"),
            Ok(at("2028-01-10 23:30"))
        );
        assert_eq!(
            resolve("10 Jan", "2027-02-20 10:00"),
            Err(DateProblem::TooFarAhead)
        );
        // A day alone: this month's if still to come, else next month's.
        assert_eq!(
            resolve("15", "2027-06-01 10:00"),
            Ok(at("2027-06-15 23:30"))
        );
        assert_eq!(
            resolve("15", "2027-06-20 10:00"),
            Ok(at("2027-07-15 23:30"))
        );
        // A month alone is its last day; a time alone is today.
        assert_eq!(
            resolve("feb", "2028-01-10 10:00"),
            Ok(at("2028-02-29 23:30"))
        );
        assert_eq!(
            resolve("18:00", "2027-06-01 10:00"),
            Ok(at("2027-06-01 18:00"))
        );
        // A whole date, with a comma after the day (HISTORY's form) or as ISO writes it.
        assert_eq!(
            resolve("Jan 1, 2003", "2027-06-01 10:00"),
            Ok(at("2003-01-01 23:30"))
        );
        assert_eq!(
            resolve("2027-02-03 12:00", "2027-01-01 10:00"),
            Ok(at("2027-02-03 12:00"))
        );
        assert_eq!(
            resolve("1 jan 90", "2027-06-01 10:00"),
            Ok(at("1990-01-01 23:30"))
        );
        assert_eq!(
            resolve("31 Feb 2027", "2027-01-01 10:00"),
            Err(DateProblem::NoSuchDay)
        );
    }

    #[test]
    fn dates_of_the_past_are_the_latest_before_today() {
        let back = |words: &str, first: bool| {
            let words: Vec<&str> = words.split_whitespace().collect();
            read_date(&words)
                .unwrap()
                .resolve_back(at("2027-06-10 10:00"), NaiveTime::MIN, first)
        };
        assert_eq!(back("Jan 5", true), Ok(at("2027-01-05 00:00")));
        assert_eq!(back("Jul 5", true), Ok(at("2026-07-05 00:00")));
        assert_eq!(back("thu", true), Ok(at("2027-06-10 00:00")));
        assert_eq!(back("mon 12:00", true), Ok(at("2027-06-07 12:00")));
        assert_eq!(back("feb", true), Ok(at("2027-02-01 00:00")));
        assert_eq!(back("feb", false), Ok(at("2027-02-28 00:00")));
        assert_eq!(back("Jan 1, 1990", true), Ok(at("1990-01-01 00:00")));
    }

    #[test]
    fn what_is_not_a_date_says_why() {
        for bad in ["tomorrow", "Tue 15 Jun", "15 16", "2027", "25:00", "32 Jan"] {
            let words: Vec<&str> = bad.split_whitespace().collect();
            assert!(read_date(&words).is_err(), "{bad}");
        }
    }
}
