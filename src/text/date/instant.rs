//! A written date made an instant: in the zone written with it (`UTC`, `+0100`, `CET`), else
//! in the game's; HISTORY's seconds since 1970 are the instant itself. Pure: the game's zone
//! and the time now come in as values.

use chrono::{DateTime, FixedOffset, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use super::{DateProblem, WrittenDate, WrittenZone};

/// Which way a date without a year (or a weekday) is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Looking {
    /// The next occurrence (a deadline, a start, an absence).
    Ahead,
    /// The latest occurrence up to today (HISTORY's FROM and TO); a month alone is its first
    /// day when `first`, else its last.
    Back { first: bool },
}

impl WrittenDate {
    /// The instant meant, in the game's `zone` (an IANA name; UTC if unknown) unless the date
    /// names its own, given the time `now` and the time of day `default` when none is written.
    pub fn instant(
        &self,
        zone: &str,
        now: DateTime<Utc>,
        default: NaiveTime,
        looking: Looking,
    ) -> Result<DateTime<Utc>, DateProblem> {
        if let Some(seconds) = self.instant {
            return DateTime::from_timestamp(seconds, 0).ok_or(DateProblem::NoSuchDay);
        }
        let tz: Tz = zone.parse().unwrap_or(chrono_tz::UTC);
        let offset = match &self.zone {
            Some(WrittenZone::Offset(seconds)) => Some(*seconds),
            Some(WrittenZone::Named(name)) if matches!(name.as_str(), "UTC" | "GMT") => Some(0),
            _ => None,
        };
        if let Some(seconds) = offset {
            let fixed = FixedOffset::east_opt(seconds).ok_or(DateProblem::NoSuchDay)?;
            let local = self.local(now.with_timezone(&fixed).naive_local(), default, looking)?;
            return fixed
                .from_local_datetime(&local)
                .single()
                .map(|t| t.with_timezone(&Utc))
                .ok_or(DateProblem::NoSuchDay);
        }
        let local = self.local(now.with_timezone(&tz).naive_local(), default, looking)?;
        let candidates = tz.from_local_datetime(&local);
        let mut found = [candidates.earliest(), candidates.latest()]
            .into_iter()
            .flatten();
        let at =
            match &self.zone {
                // The abbreviation picks between the two readings of an hour the clocks repeat.
                Some(WrittenZone::Named(name)) => found
                    .find(|t| t.format("%Z").to_string() == *name)
                    .ok_or_else(|| DateProblem::NotTheZone(name.clone()))?,
                _ => found.next().ok_or(DateProblem::NoSuchDay)?,
            };
        Ok(at.with_timezone(&Utc))
    }

    fn local(
        &self,
        today: NaiveDateTime,
        default: NaiveTime,
        looking: Looking,
    ) -> Result<NaiveDateTime, DateProblem> {
        match looking {
            Looking::Ahead => self.resolve(today, default),
            Looking::Back { first } => self.resolve_back(today, default, first),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
    use crate::report::{Messages, When, classic};
    use crate::text::date::read_date;

    fn read(text: &str, zone: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let date = read_date(&words).map_err(|e| format!("{text}: {e}"))?;
        date.instant(zone, now, NaiveTime::MIN, Looking::Ahead)
            .map_err(|e| format!("{text}: {e:?}"))
    }

    /// Every form a letter prints a date in, in every language and in zones with and without
    /// summer time (at both ends of a repeated hour), reads back as the instant printed.
    #[test]
    fn every_date_the_judge_prints_reads_back_as_printed() {
        let messages = Messages::built_in();
        let zones = [
            "UTC",
            "Europe/Moscow",
            "Europe/Paris",
            "America/New_York",
            "Asia/Kolkata",
            "Asia/Dubai",
        ];
        let instants = [
            "2027-01-06T12:16:00Z",
            "2027-07-15T23:30:00Z",
            // Paris repeats 02:00-03:00 on 31 Oct 2027: both readings of 02:30.
            "2027-10-31T00:30:00Z",
            "2027-10-31T01:30:00Z",
            "2027-12-31T23:59:00Z",
        ];
        let now: DateTime<Utc> = "2026-12-20T08:00:00Z".parse().unwrap();
        for zone in zones {
            for at in instants {
                let at: DateTime<Utc> = at.parse().unwrap();
                let when = When {
                    at: Some(at),
                    zone: zone.to_string(),
                };
                let mut printed = vec![
                    classic::date(at, zone),
                    // njudge's HISTORY: ctime and the seconds since 1970.
                    format!("{} ({})", at.format("%a %b %e %H:%M:%S %Y"), at.timestamp()),
                    at.to_rfc3339(),
                    at.format("%Y-%m-%dT%H:%MZ").to_string(),
                ];
                for lang in Lang::ALL {
                    printed.push(messages.words(lang).when(&when));
                }
                for text in printed {
                    assert_eq!(read(&text, zone, now), Ok(at), "{text} in {zone}");
                }
            }
        }
    }

    #[test]
    fn a_date_without_a_zone_is_the_game_s_time() {
        let now: DateTime<Utc> = "2027-01-01T00:00:00Z".parse().unwrap();
        let paris = |text| read(text, "Europe/Paris", now);
        let at = |t: &str| Ok(t.parse::<DateTime<Utc>>().unwrap());
        assert_eq!(paris("2027-01-11 20:00"), at("2027-01-11T19:00:00Z"));
        assert_eq!(paris("Mon Jan 11 2027 20:00"), at("2027-01-11T19:00:00Z"));
        assert_eq!(paris("11.01.2027 20:00"), at("2027-01-11T19:00:00Z"));
        assert_eq!(paris("2027-01-11T20:00Z"), at("2027-01-11T20:00:00Z"));
        assert_eq!(paris("2027-01-11T20:00-05:00"), at("2027-01-12T01:00:00Z"));
        assert_eq!(paris("11 Jan 2027 20:00 UTC"), at("2027-01-11T20:00:00Z"));
        assert_eq!(paris("11 Jan 2027 20:00 CET"), at("2027-01-11T19:00:00Z"));
        // Another zone's abbreviation is not guessed at.
        assert!(paris("11 Jan 2027 20:00 EST").is_err());
        // Summer time's name in winter is no time of Paris.
        assert!(paris("11 Jan 2027 20:00 CEST").is_err());
    }
}
