//! A game's history as its page lays it out: one step per phase, newest first, each with the
//! map of that phase and the reports of it. A phase's results are kept in the archive under
//! the phase they lead to, at the very time that phase is recorded (`store::ArchivedReport`):
//! a report kept under phase `k` at the time phase `k` began is of phase `k - 1` (its results,
//! and the press held for them), and every other report is of the phase it was kept under
//! (the start notice, press, notices of lateness). Pure: numbers and times in, places out.

use std::collections::BTreeMap;

/// A phase of the game's history: its number and when it began (as the store writes times).
pub struct PhaseMark<'a> {
    pub serial: i64,
    pub began: &'a str,
}

/// One step of the page: a phase, with its map and reports as indices into what was given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    pub serial: i64,
    /// The phase is in the game's history (else a step made for reports or a map alone).
    pub recorded: bool,
    pub map: Option<usize>,
    /// In the archive's order.
    pub reports: Vec<usize>,
}

/// The steps of a game's page, newest first, from its phases, the phase of each map and
/// `(phase, time kept)` of each report in the archive's order. Every map and report is in
/// exactly one step; a report of no recorded phase (kept before a ROLLBACK, or a Here I Stand
/// game's, which records none) joins the nearest step before it, or the first.
pub fn steps(phases: &[PhaseMark], maps: &[i64], reports: &[(i64, &str)]) -> Vec<Step> {
    let mut steps: BTreeMap<i64, Step> = BTreeMap::new();
    let began: BTreeMap<i64, &str> = phases.iter().map(|p| (p.serial, p.began)).collect();
    for phase in phases {
        steps.insert(
            phase.serial,
            Step {
                serial: phase.serial,
                recorded: true,
                ..Step::default()
            },
        );
    }
    for (i, serial) in maps.iter().enumerate() {
        let step = steps.entry(*serial).or_insert_with(|| Step {
            serial: *serial,
            ..Step::default()
        });
        step.map = Some(i);
    }
    for (i, (serial, when)) in reports.iter().enumerate() {
        let results_of_previous =
            began.get(serial) == Some(when) && began.contains_key(&(serial - 1));
        let wanted = if results_of_previous {
            serial - 1
        } else {
            *serial
        };
        let home = steps
            .range(..=wanted)
            .next_back()
            .or_else(|| steps.iter().next())
            .map(|(k, _)| *k)
            .unwrap_or(wanted);
        steps
            .entry(home)
            .or_insert_with(|| Step {
                serial: home,
                ..Step::default()
            })
            .reports
            .push(i);
    }
    steps.into_values().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: &str = "2027-01-05T12:00:00Z";
    const T1: &str = "2027-01-07T12:00:00Z";
    const T2: &str = "2027-01-09T12:00:00Z";

    fn marks() -> Vec<PhaseMark<'static>> {
        vec![
            PhaseMark {
                serial: 0,
                began: T0,
            },
            PhaseMark {
                serial: 1,
                began: T1,
            },
            PhaseMark {
                serial: 2,
                began: T2,
            },
        ]
    }

    #[test]
    fn results_sit_with_the_phase_they_report_and_press_with_the_phase_it_was_written_in() {
        let reports = [
            (0, T0),                     // 0: the game starts
            (0, "2027-01-06T09:00:00Z"), // 1: press during phase 0
            (1, T1),                     // 2: phase 0's results
            (1, T1),                     // 3: press held for them
            (1, "2027-01-08T09:00:00Z"), // 4: a lateness notice in phase 1
            (2, T2),                     // 5: phase 1's results
        ];
        let steps = steps(&marks(), &[0, 1, 2], &reports);
        let shown: Vec<(i64, Option<usize>, Vec<usize>)> = steps
            .iter()
            .map(|s| (s.serial, s.map, s.reports.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (2, Some(2), vec![]),
                (1, Some(1), vec![4, 5]),
                (0, Some(0), vec![0, 1, 2, 3]),
            ]
        );
    }

    #[test]
    fn reports_of_no_recorded_phase_join_the_nearest_step_and_nothing_is_lost() {
        // Phase 3 was rolled back: its report joins phase 2.
        let steps_after_rollback = steps(&marks(), &[], &[(3, "2027-01-10T00:00:00Z")]);
        assert_eq!(steps_after_rollback[0].serial, 2);
        assert_eq!(steps_after_rollback[0].reports, [0]);
        // Here I Stand: no phases recorded, one picture of the board as it stands.
        let his = steps(&[], &[4], &[(0, T0), (2, T1), (4, T2), (5, T2)]);
        assert_eq!(his.len(), 1);
        assert_eq!(his[0].map, Some(0));
        assert_eq!(his[0].reports, [0, 1, 2, 3]);
        assert!(!his[0].recorded);
        // No phases and no map: the reports still have a step.
        let bare = steps(&[], &[], &[(0, T0), (1, T1)]);
        assert_eq!(bare.iter().map(|s| s.reports.len()).sum::<usize>(), 2);
    }
}
