//! A small line chart of supply centres (or, where victory counts it, supply) by year, as
//! inline SVG: one line per power, years along the bottom, counts up the side, a legend at
//! the right. No scripts, no fonts to fetch; the same numbers always give the same text.
//! Here are the chart's numbers, placed; `templates/<language>/archive/chart.html` draws them.

use serde::Serialize;

use super::summary::Summary;

/// Colours of the powers' lines, in the variant's power order (repeating past ten).
const COLOURS: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 140.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 34.0;

/// The chart, every coordinate written as the SVG holds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chart {
    /// The lines are supply, not centres.
    pub by_supply: bool,
    pub width: String,
    pub height: String,
    /// Where the plot begins and ends, across.
    pub left: String,
    pub right: String,
    /// A faint line and a label at each round count.
    pub ticks: Vec<Tick>,
    /// A label under each year shown (thinned out when there are many).
    pub years: Vec<YearLabel>,
    /// One line per power, with its key in the legend.
    pub lines: Vec<Line>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tick {
    pub count: u32,
    pub y: String,
    pub label_x: String,
    pub label_y: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YearLabel {
    pub label: String,
    pub x: String,
    pub y: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub power: String,
    pub colour: &'static str,
    /// `x,y x,y ...`, or none when there is one year: then `dot`.
    pub points: Option<String>,
    pub dot: Option<Point>,
    pub key_x: String,
    pub key_y: String,
    pub label_x: String,
    pub label_y: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    pub x: String,
    pub y: String,
}

fn at(v: f64) -> String {
    format!("{v:.1}")
}

/// The chart of `summary`'s counts, or `None` when no year has counts.
pub fn centre_chart(summary: &Summary) -> Option<Chart> {
    if summary.years.is_empty() || summary.centres.is_empty() {
        return None;
    }
    let top_count = summary
        .centres
        .iter()
        .flat_map(|r| summary.counted(r).iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let step = tick_step(top_count);
    let top = top_count.div_ceil(step) * step;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let n = summary.years.len();
    let x = |i: usize| {
        if n == 1 {
            LEFT + plot_w / 2.0
        } else {
            LEFT + plot_w * i as f64 / (n - 1) as f64
        }
    };
    let y = |count: u32| TOP + plot_h * (1.0 - f64::from(count) / f64::from(top));
    let ticks = (0..=top)
        .step_by(step as usize)
        .map(|count| Tick {
            count,
            y: at(y(count)),
            label_x: at(LEFT - 6.0),
            label_y: at(y(count) + 4.0),
        })
        .collect();
    let every = n.div_ceil(12).max(1);
    let years = summary
        .years
        .iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0 || i + 1 == n)
        .map(|(i, year)| YearLabel {
            label: year.clone(),
            x: at(x(i)),
            y: at(HEIGHT - BOTTOM + 16.0),
        })
        .collect();
    let lines = summary
        .centres
        .iter()
        .enumerate()
        .map(|(p, row)| {
            let counts = summary.counted(row);
            let legend_y = TOP + 14.0 * p as f64 + 6.0;
            let points: Vec<String> = counts
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{},{}", at(x(i)), at(y(*c))))
                .collect();
            Line {
                power: row.power.clone(),
                colour: COLOURS[p % COLOURS.len()],
                points: (n != 1).then(|| points.join(" ")),
                dot: (n == 1).then(|| Point {
                    x: at(x(0)),
                    y: at(y(counts.first().copied().unwrap_or(0))),
                }),
                key_x: at(WIDTH - RIGHT + 16.0),
                key_y: at(legend_y - 2.0),
                label_x: at(WIDTH - RIGHT + 32.0),
                label_y: at(legend_y + 3.0),
            }
        })
        .collect();
    Some(Chart {
        by_supply: summary.by_supply,
        width: WIDTH.to_string(),
        height: HEIGHT.to_string(),
        left: LEFT.to_string(),
        right: at(LEFT + plot_w),
        ticks,
        years,
        lines,
    })
}

/// A round step between count labels: at most about six labels.
fn tick_step(top: u32) -> u32 {
    [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|step| top.div_ceil(*step) <= 6)
        .unwrap_or(top.div_ceil(6))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::summary::CentreRow;

    /// The chart as the English page draws it.
    fn drawn(summary: &Summary) -> Option<String> {
        centre_chart(summary).map(|chart| {
            crate::report::Templates::built_in()
                .render_file(
                    crate::lang::Lang::En,
                    "archive/chart.html",
                    minijinja::context! { chart => minijinja::value::Serde(chart) },
                )
                .unwrap()
        })
    }

    fn summary(years: &[&str], rows: &[(&str, &[u32])]) -> Summary {
        Summary {
            phase: None,
            running: false,
            years: years.iter().map(|y| y.to_string()).collect(),
            centres: rows
                .iter()
                .map(|(p, c)| CentreRow {
                    power: p.to_string(),
                    counts: c.to_vec(),
                    supply: c.iter().map(|n| n + 1).collect(),
                })
                .collect(),
            by_supply: false,
            holders: Vec::new(),
            problems: Vec::new(),
        }
    }

    #[test]
    fn one_line_per_power_from_its_first_year_to_its_last() {
        let chart = drawn(&summary(
            &["1901", "1902"],
            &[("France", &[6, 6]), ("<b>", &[3, 0])],
        ))
        .unwrap();
        assert_eq!(chart.matches("<polyline").count(), 2);
        assert!(chart.contains("points=\"40.0,12.0 500.0,12.0\""), "{chart}");
        assert!(chart.contains("&lt;b&gt;"));
        assert!(!chart.contains("<b>"));
        assert!(!chart.contains("<script"));
    }

    #[test]
    fn where_victory_counts_supply_the_lines_are_supply() {
        let centres = summary(&["1901", "1902"], &[("Rome", &[2, 5])]);
        let supply = Summary {
            by_supply: true,
            ..centres.clone()
        };
        let (by_centres, by_supply) = (drawn(&centres).unwrap(), drawn(&supply).unwrap());
        assert!(by_centres.contains("<title>Supply centres by year</title>"));
        assert!(by_supply.contains("<title>Supply by year</title>"));
        // Centres 2 then 5 on a scale of 5; supply 3 then 6 on a scale of 6.
        assert!(
            by_centres.contains("points=\"40.0,140.4 500.0,12.0\""),
            "{by_centres}"
        );
        assert!(
            by_supply.contains("points=\"40.0,119.0 500.0,12.0\""),
            "{by_supply}"
        );
    }

    #[test]
    fn a_single_year_is_a_dot_and_no_years_no_chart() {
        let chart = drawn(&summary(&["1901"], &[("France", &[3])])).unwrap();
        assert!(chart.contains("<circle"));
        assert_eq!(drawn(&summary(&[], &[("France", &[])])), None);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(1), 1);
        assert_eq!(tick_step(6), 1);
        assert_eq!(tick_step(7), 2);
        assert_eq!(tick_step(18), 5);
        assert_eq!(tick_step(34), 10);
    }
}
