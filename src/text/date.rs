//! Dates as players write them to the classic judge (njudge's `deadlines` and `history` files):
//! a weekday, or a day and a month (three-letter names or whole ones, in either order, a comma
//! allowed after the day), a year (four digits, or 80 to 99 for 1980 to 1999), a time `hh:mm`
//! on a 24-hour clock, in any order (`Jun 15`, `15 jun 2027 23:30`, `Tue`, `feb`); or
//! `yyyy-mm-dd`, as ISO writes it. `read_date` reads the words into a `WrittenDate`; `resolve`
//! makes it a day and time given today's (in the game's zone, passed in: the text module reads
//! no clock), as njudge does: a weekday is its next occurrence after today, a date without a
//! year its next occurrence from today (no more than 120 days ahead), a month alone its last
//! day, nothing but a time today.

use std::fmt;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Weekday};

/// A date as written, its parts read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenDate {
    pub weekday: Option<Weekday>,
    pub day: Option<u32>,
    pub month: Option<u32>,
    pub year: Option<i32>,
    pub time: Option<NaiveTime>,
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

/// What one word of a date is.
enum Part {
    Weekday(Weekday),
    Month(u32),
    Day(u32),
    Year(i32),
    Time(NaiveTime),
    Iso(NaiveDate),
}

fn part(word: &str) -> Option<Part> {
    let lower = word.trim_end_matches(',').to_ascii_lowercase();
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
    if let Some((h, m)) = lower.split_once(':') {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if digits(h) && digits(m) && h.len() <= 2 && m.len() == 2 {
            return NaiveTime::from_hms_opt(h.parse().ok()?, m.parse().ok()?, 0).map(Part::Time);
        }
        return None;
    }
    if lower.len() == 10 && lower.as_bytes()[4] == b'-' && lower.as_bytes()[7] == b'-' {
        return NaiveDate::parse_from_str(lower, "%Y-%m-%d")
            .ok()
            .map(Part::Iso);
    }
    if !lower.bytes().all(|b| b.is_ascii_digit()) || lower.is_empty() {
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
    /// A weekday with a day, a month or a year.
    WeekdayWithDate,
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
                "a weekday stands alone: write Tue, or a day and a month like 15 Jun"
            ),
            DateError::YearWithoutMonth => {
                write!(f, "a year needs a month, like: Jun 2027 or 15 Jun 2027")
            }
        }
    }
}

/// Reads the words of a date. Each part at most once; a weekday goes with neither a day, a
/// month nor a year.
pub fn read_date(words: &[&str]) -> Result<WrittenDate, DateError> {
    let mut date = WrittenDate {
        weekday: None,
        day: None,
        month: None,
        year: None,
        time: None,
        text: words.join(" "),
    };
    if words.is_empty() {
        return Err(DateError::Empty);
    }
    for word in words {
        if *word == "," {
            continue;
        }
        let shown: String = word.chars().take(20).collect();
        let iso_shaped =
            word.len() == 10 && word.as_bytes()[4] == b'-' && word.as_bytes()[7] == b'-';
        let Some(part) = part(word) else {
            if iso_shaped {
                return Err(DateError::NoSuchDay(shown));
            }
            return Err(DateError::NotADate(shown));
        };
        let twice = match part {
            Part::Weekday(d) => date.weekday.replace(d).is_some(),
            Part::Month(m) => date.month.replace(m).is_some(),
            Part::Day(d) => date.day.replace(d).is_some(),
            Part::Year(y) => date.year.replace(y).is_some(),
            Part::Time(t) => date.time.replace(t).is_some(),
            Part::Iso(d) => {
                let given = date.year.is_some() || date.month.is_some() || date.day.is_some();
                date.year = Some(d.year());
                date.month = Some(d.month());
                date.day = Some(d.day());
                given
            }
        };
        if twice {
            return Err(DateError::Twice(shown));
        }
    }
    if date.weekday.is_some() && (date.day.is_some() || date.month.is_some() || date.year.is_some())
    {
        return Err(DateError::WeekdayWithDate);
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
