//! A small chart of supply centres (or, where victory counts it, supply) by year, as inline
//! SVG: one line per power with a marker at each year, years along the bottom, counts up the
//! side, a legend at the right; a game of one year so far has a bar per power instead, not a
//! field of lone dots. Each power has its colour on the map (`CentreRow::colour`, from
//! `drawing::scene::power_colours`). No scripts, no fonts to fetch; the same numbers always
//! give the same text. Here are the chart's numbers, placed;
//! `templates/<language>/archive/chart.html` draws them.

use serde::Serialize;

use super::summary::Summary;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 140.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 34.0;
/// Up to this many years, each year's count is marked on its line.
const MOST_MARKED_YEARS: usize = 16;
/// The widest bar of a one-year chart.
const WIDEST_BAR: f64 = 40.0;

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
    /// One line (or bar) per power, with its key in the legend.
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
    /// The power's colour on the map.
    pub colour: String,
    /// `x,y x,y ...` when there are two years or more; with one, `bar`.
    pub points: Option<String>,
    /// A marker at each year's count (none past `MOST_MARKED_YEARS`).
    pub markers: Vec<Point>,
    /// The power's bar when there is one year.
    pub bar: Option<Bar>,
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

/// A bar of a one-year chart, with its count written above it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bar {
    pub x: String,
    pub y: String,
    pub width: String,
    pub height: String,
    pub count: u32,
    pub label_x: String,
    pub label_y: String,
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
    // One year: the powers' bars side by side across the middle of the plot.
    let powers = summary.centres.len();
    let slot = (plot_w / powers as f64).min(WIDEST_BAR * 1.5);
    let bar_width = slot / 1.5;
    let bars_left = LEFT + (plot_w - slot * powers as f64) / 2.0;
    let lines = summary
        .centres
        .iter()
        .enumerate()
        .map(|(p, row)| {
            let counts = summary.counted(row);
            let legend_y = TOP + 14.0 * p as f64 + 6.0;
            let points: Vec<Point> = counts
                .iter()
                .enumerate()
                .map(|(i, c)| Point {
                    x: at(x(i)),
                    y: at(y(*c)),
                })
                .collect();
            let bar = (n == 1).then(|| {
                let count = counts.first().copied().unwrap_or(0);
                let left = bars_left + slot * p as f64 + (slot - bar_width) / 2.0;
                Bar {
                    x: at(left),
                    y: at(y(count)),
                    width: at(bar_width),
                    height: at(y(0) - y(count)),
                    count,
                    label_x: at(left + bar_width / 2.0),
                    label_y: at(y(count) - 3.0),
                }
            });
            Line {
                power: row.power.clone(),
                colour: row.colour.clone(),
                points: (n > 1).then(|| {
                    let pairs: Vec<String> =
                        points.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
                    pairs.join(" ")
                }),
                markers: if n > 1 && n <= MOST_MARKED_YEARS {
                    points
                } else {
                    Vec::new()
                },
                bar,
                key_x: at(WIDTH - RIGHT + 16.0),
                key_y: at(legend_y - 4.0),
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
                .enumerate()
                .map(|(i, (p, c))| CentreRow {
                    power: p.to_string(),
                    colour: crate::drawing::palette::SEVENTEEN[i].to_string(),
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
        assert!(by_centres.contains("<title>Supply centers by year</title>"));
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
    fn a_single_year_is_a_bar_per_power_and_no_years_no_chart() {
        let chart = drawn(&summary(&["1901"], &[("France", &[3]), ("Italy", &[6])])).unwrap();
        assert!(!chart.contains("<circle"), "{chart}");
        assert!(!chart.contains("<polyline"), "{chart}");
        // Italy's six reach the top of the scale (6); France's three, half as high.
        assert!(
            chart.contains(
                "<rect x=\"220.0\" y=\"119.0\" width=\"40.0\" height=\"107.0\" fill=\"#D55E00\"/>"
            ),
            "{chart}"
        );
        assert!(
            chart.contains(
                "<rect x=\"280.0\" y=\"12.0\" width=\"40.0\" height=\"214.0\" fill=\"#0072B2\"/>"
            ),
            "{chart}"
        );
        assert_eq!(drawn(&summary(&[], &[("France", &[])])), None);
    }

    #[test]
    fn each_year_is_marked_on_its_line_in_the_power_s_colour() {
        let chart = drawn(&summary(&["1901", "1902"], &[("France", &[4, 5])])).unwrap();
        assert_eq!(chart.matches("<circle").count(), 2, "{chart}");
        assert!(chart.contains("stroke=\"#D55E00\""), "{chart}");
        let many: Vec<String> = (0..=MOST_MARKED_YEARS).map(|y| y.to_string()).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let counts = vec![3; many.len()];
        let long = drawn(&summary(&many, &[("France", &counts)])).unwrap();
        assert!(!long.contains("<circle"), "{long}");
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
