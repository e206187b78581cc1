//! A small line chart of supply centres (or, where victory counts it, supply) by year, as
//! inline SVG: one line per power, years along the bottom, counts up the side, a legend at
//! the right. No scripts, no fonts to
//! fetch; the same numbers always give the same text.

use super::html::escape;
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

/// The chart of `summary`'s counts, or `None` when no year has counts.
pub fn centre_chart(summary: &Summary) -> Option<String> {
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
    let title = match summary.by_supply {
        false => "Supply centres by year",
        true => "Supply by year",
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{title}\" \
         font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n\
         <title>{title}</title>\n"
    );
    // The count axis: a faint line and a label at each tick.
    let mut count = 0;
    while count <= top {
        svg.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"end\">{count}</text>\n",
            y(count),
            LEFT + plot_w,
            LEFT - 6.0,
            y(count) + 4.0,
        ));
        count += step;
    }
    // The year axis: a label under each year, thinned out when there are many.
    let every = n.div_ceil(12).max(1);
    for (i, year) in summary.years.iter().enumerate() {
        if i % every == 0 || i + 1 == n {
            svg.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
                x(i),
                HEIGHT - BOTTOM + 16.0,
                escape(year)
            ));
        }
    }
    for (p, row) in summary.centres.iter().enumerate() {
        let colour = COLOURS[p % COLOURS.len()];
        let counts = summary.counted(row);
        let points: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{:.1},{:.1}", x(i), y(*c)))
            .collect();
        if n == 1 {
            svg.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>\n",
                x(0),
                y(counts.first().copied().unwrap_or(0))
            ));
        } else {
            svg.push_str(&format!(
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
                points.join(" ")
            ));
        }
        let legend_y = TOP + 14.0 * p as f64 + 6.0;
        svg.push_str(&format!(
            "<rect x=\"{0:.1}\" y=\"{1:.1}\" width=\"12\" height=\"3\" fill=\"{colour}\"/>\
             <text x=\"{2:.1}\" y=\"{3:.1}\">{4}</text>\n",
            WIDTH - RIGHT + 16.0,
            legend_y - 2.0,
            WIDTH - RIGHT + 32.0,
            legend_y + 3.0,
            escape(&row.power)
        ));
    }
    svg.push_str("</svg>\n");
    Some(svg)
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
        let chart = centre_chart(&summary(
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
        let (by_centres, by_supply) = (
            centre_chart(&centres).unwrap(),
            centre_chart(&supply).unwrap(),
        );
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
        let chart = centre_chart(&summary(&["1901"], &[("France", &[3])])).unwrap();
        assert!(chart.contains("<circle"));
        assert_eq!(centre_chart(&summary(&[], &[("France", &[])])), None);
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
