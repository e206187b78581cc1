//! What a game's history adds up to: who held each power when, and each power's supply
//! centres (and, where victory counts it, supply) year by year. The game's page and the
//! SUMMARY letter are both made from this.

use crate::game::GameState;
use std::collections::BTreeMap;

use crate::diplomacy::position::{Position, Tally};
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::VictoryCounting;
use crate::diplomacy::turn::{Season, Turn};
use crate::drawing::palette::SEVENTEEN;
use crate::drawing::scene::power_colours;
use crate::game::secrecy::{Identity, Reader, identities_hidden, name_for};
use crate::report::Words;
use crate::store::{GameRow, PhaseRow, Tx, position_from_json};
use crate::variant::Variant;

/// A game's history in numbers and names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The phase the game is in (or ended in): the title of its last recorded position.
    pub phase: Option<String>,
    /// The game still runs: the last year is not over and the holders of today hold on.
    pub running: bool,
    /// The years played, in the order the game played them: `1901`, `240 BC`.
    pub years: Vec<String>,
    /// One row per power of the variant, in the variant's order; a count per year.
    pub centres: Vec<CentreRow>,
    /// Victory counts supply (Diadochi V), not centres: the table shows each year's supply
    /// with the centres beside it, and the chart the supply.
    pub by_supply: bool,
    /// Who held each power, for powers that ever had a player.
    pub holders: Vec<Holders>,
    /// Stored data that could not be read (and was left out), one sentence each.
    pub problems: Vec<String>,
}

/// A power's supply centres, one count per year of `Summary::years`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CentreRow {
    pub power: String,
    /// The power's colour on the map (`drawing::scene::power_colours`): `#D55E00`.
    pub colour: String,
    /// Centres owned.
    pub counts: Vec<u32>,
    /// The supply they gave (`Position::supply_of`), as many.
    pub supply: Vec<u32>,
}

impl Summary {
    /// What a row counts toward victory, year by year: supply or centres.
    pub fn counted<'a>(&self, row: &'a CentreRow) -> &'a [u32] {
        if self.by_supply {
            &row.supply
        } else {
            &row.counts
        }
    }

    /// A row's figure for year `i`: `3`, or where victory counts supply `25 (18)`, the
    /// supply and the centres in brackets.
    pub fn cell(&self, row: &CentreRow, i: usize) -> String {
        let centres = row.counts.get(i).copied().unwrap_or(0);
        match self.by_supply {
            false => centres.to_string(),
            true => format!("{} ({centres})", row.supply.get(i).copied().unwrap_or(0)),
        }
    }
}

/// The players of one power, in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holders {
    pub power: String,
    pub spans: Vec<Span>,
}

/// One player's time at a power: from one phase to another (`None`: to this day).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub player: String,
    pub from: String,
    pub to: Option<String>,
}

impl Holders {
    /// `France: a@x (Spring 1901 – Fall 1903), b@y (Spring 1904 – )`.
    pub fn line(&self) -> String {
        let spans: Vec<String> = self
            .spans
            .iter()
            .map(|s| match &s.to {
                None => format!("{} ({} – )", s.player, s.from),
                Some(to) if *to == s.from => format!("{} ({})", s.player, s.from),
                Some(to) => format!("{} ({} – {})", s.player, s.from, to),
            })
            .collect();
        format!("{}: {}", self.power, spans.join(", "))
    }
}

/// Reads a game's recorded phases into a `Summary`, its players named as `reader` may see
/// them (`judge::secrecy::name_for`). Without its variant the positions cannot be read: the
/// summary then has holders (labelled by phase titles) but no counts.
pub fn summarise(
    tx: &Tx,
    variant: Option<&Variant>,
    game: &GameRow,
    reader: Reader,
    words: Words,
) -> rusqlite::Result<Summary> {
    let phases = tx.phases(game.id)?;
    let mut problems = Vec::new();
    if variant.is_none() {
        problems.push(format!(
            "The variant '{}' is not loaded, so the positions cannot be read.",
            game.variant
        ));
    }
    let mut history = Vec::new();
    let mut years: Vec<(i32, Vec<Tally>)> = Vec::new();
    let mut previous: Option<Turn> = None;
    for phase in &phases {
        let position = variant.and_then(|v| match position_from_json(v, &phase.position) {
            Ok(p) => Some(p),
            Err(e) => {
                problems.push(format!("{}: {e}.", phase.title));
                None
            }
        });
        let label = match (variant, &position) {
            (Some(v), Some(p)) => words.message(&crate::game::phases::turn_message(v, p.turn)),
            _ => phase.title.clone(),
        };
        if let (Some(v), Some(p)) = (variant, &position) {
            count_year(&mut years, v, p, previous);
            previous = Some(p.turn);
        }
        history.push((label, players_of(phase, &mut problems)));
    }
    // Who holds each power now: a takeover or a resignation since the phase began counts.
    // An address that no one has any more, where the power's player now has another, was
    // that player's before they moved (SET ADDRESS): their phases are theirs under either.
    if let Some((label, last)) = history.last().cloned() {
        let mut now = BTreeMap::new();
        let mut moved: BTreeMap<String, String> = BTreeMap::new();
        for member in tx
            .members(game.id)?
            .into_iter()
            .filter(|m| m.role == "player")
        {
            let Some(power) = member.power else {
                continue;
            };
            if let Some(then) = last.get(&power)
                && *then != member.email
                && tx.identity_by_email(then)?.is_none()
            {
                moved.insert(then.clone(), member.email.clone());
            }
            now.insert(power, member.email);
        }
        for (_, players) in history.iter_mut() {
            for address in players.values_mut() {
                if let Some(new) = moved.get(address) {
                    *address = new.clone();
                }
            }
        }
        if history.last().is_some_and(|(_, players)| *players != now) {
            history.push((label, now));
        }
    }
    let powers: Vec<(String, String)> = match variant {
        Some(v) => v
            .map
            .powers
            .iter()
            .map(|p| (p.id.clone(), p.name_in(words.language()).to_string()))
            .collect(),
        None => {
            let ids: std::collections::BTreeSet<&String> = history
                .iter()
                .flat_map(|(_, players)| players.keys())
                .collect();
            ids.into_iter().map(|id| (id.clone(), id.clone())).collect()
        }
    };
    // Colours as the map paints the powers, so the chart and the map agree.
    let colours = match variant {
        Some(v) => power_colours(&v.map, v.layout.as_deref()),
        None => (0..powers.len())
            .map(|i| SEVENTEEN[i % SEVENTEEN.len()].to_string())
            .collect(),
    };
    let running = game.state != GameState::Finished;
    let era = match variant {
        Some(v) => crate::game::phases::calendar_messages(v, v.start.turn).1,
        None => crate::msg!("calendar.no_era"),
    };
    // Spans follow addresses (so two players without a name stay two), then are named.
    let mut holders = holder_spans(&history, &powers, running);
    let hidden = identities_hidden(game);
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for span in holders.iter_mut().flat_map(|h| h.spans.iter_mut()) {
        if !names.contains_key(&span.player) {
            let identity = Identity::of_address(tx, &span.player)?;
            let shown = words.message(&name_for(&identity, hidden, reader));
            names.insert(span.player.clone(), shown);
        }
        span.player = names[&span.player].clone();
    }
    Ok(Summary {
        phase: phase_named(variant, phases.last(), words),
        running,
        years: years
            .iter()
            .map(|(y, _)| format!("{y}{}", words.message(&era)))
            .collect(),
        centres: powers
            .iter()
            .enumerate()
            .map(|(i, (_, name))| {
                let tally = |(_, c): &(i32, Vec<Tally>)| c.get(i).copied().unwrap_or_default();
                CentreRow {
                    power: name.clone(),
                    colour: colours[i].clone(),
                    counts: years.iter().map(|y| tally(y).centres).collect(),
                    supply: years.iter().map(|y| tally(y).supply).collect(),
                }
            })
            .collect(),
        by_supply: variant.is_some_and(|v| v.victory_counting == VictoryCounting::Supply),
        holders,
        problems,
    })
}

/// The name of the phase `last` (the last recorded), in `words`.
fn phase_named(variant: Option<&Variant>, last: Option<&PhaseRow>, words: Words) -> Option<String> {
    match (variant, last) {
        (Some(v), Some(last)) => match position_from_json(v, &last.position) {
            Ok(p) => Some(crate::game::phases::phase_name_in(words, v, &p)),
            Err(_) => Some(last.title.clone()),
        },
        (_, last) => last.map(|p| p.title.clone()),
    }
}

/// The phase `game` is in (or ended in), named in `words`, as `Summary::phase`.
pub fn phase_of(
    tx: &Tx,
    variant: Option<&Variant>,
    game: &GameRow,
    words: Words,
) -> rusqlite::Result<Option<String>> {
    Ok(phase_named(variant, tx.phases(game.id)?.last(), words))
}

/// Keeps `position`'s counts as those of its year (`previous`: the turn recorded before it).
///
/// A year's column is the board of its reckoning (`progress::advance`), the board the
/// winter adjustments are counted from, when the autumn is over: the year's winter position
/// when adjustments were due, or else the first position recorded after the autumn (the
/// next spring, the same board, since nothing was built or removed); a game won at a
/// reckoning ends on that board, so it is recorded too. A year in progress shows its latest
/// position, the counts as they would be if the year ended now.
fn count_year(
    years: &mut Vec<(i32, Vec<Tally>)>,
    variant: &Variant,
    position: &Position,
    previous: Option<Turn>,
) {
    let map = &variant.map;
    let counts: Vec<Tally> = (0..map.powers.len())
        .map(|p| position.tally(map, PowerId(p as u8)))
        .collect();
    let mut set = |year: i32| match years.iter_mut().find(|(y, _)| *y == year) {
        Some(entry) => entry.1 = counts.clone(),
        None => years.push((year, counts.clone())),
    };
    if let Some(before) = previous
        && before.year != position.turn.year
        && before.season != Season::Winter
    {
        set(before.year);
    }
    set(position.turn.year);
}

/// `{power id: player's address}` of a phase.
fn players_of(phase: &PhaseRow, problems: &mut Vec<String>) -> BTreeMap<String, String> {
    let value: serde_json::Value = match serde_json::from_str(&phase.players) {
        Ok(v) => v,
        Err(e) => {
            problems.push(format!(
                "{}: the players are not readable: {e}.",
                phase.title
            ));
            return BTreeMap::new();
        }
    };
    value
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(power, email)| Some((power.clone(), email.as_str()?.to_lowercase())))
        .collect()
}

/// Runs of the same player at each power over `history` (`(label, {power: player})`, in
/// order). A run still going at the end is open while the game runs.
fn holder_spans(
    history: &[(String, BTreeMap<String, String>)],
    powers: &[(String, String)],
    running: bool,
) -> Vec<Holders> {
    let mut out = Vec::new();
    for (id, name) in powers {
        let mut spans: Vec<Span> = Vec::new();
        // The run going on: its span and the label of its latest phase.
        let mut current: Option<(Span, String)> = None;
        for (label, players) in history {
            match (players.get(id), &mut current) {
                (Some(player), Some((span, last))) if span.player == *player => {
                    *last = label.clone();
                }
                (held, _) => {
                    if let Some((mut span, last)) = current.take() {
                        span.to = Some(last);
                        spans.push(span);
                    }
                    current = held.map(|player| {
                        let span = Span {
                            player: player.clone(),
                            from: label.clone(),
                            to: None,
                        };
                        (span, label.clone())
                    });
                }
            }
        }
        if let Some((mut span, last)) = current {
            span.to = if running { None } else { Some(last) };
            spans.push(span);
        }
        if !spans.is_empty() {
            out.push(Holders {
                power: name.clone(),
                spans,
            });
        }
    }
    out
}

/// The SUMMARY letter: who held each power when (named as `reader` may see them), and the
/// supply centres by year as a plain-text table.
pub fn summary_text(
    tx: &Tx,
    variant: &Variant,
    game: &GameRow,
    reader: Reader,
    words: Words,
) -> rusqlite::Result<String> {
    let summary = summarise(tx, Some(variant), game, reader, words)?;
    let state = match game.state.as_str() {
        "forming" => crate::tr!(words, "summary.forming"),
        "active" => crate::tr!(words, "summary.active"),
        "finished" => crate::tr!(words, "summary.finished"),
        other => other.to_string(),
    };
    let mut out = match &summary.phase {
        Some(phase) => crate::tr!(
            words,
            "summary.title_phase",
            game = game.name,
            variant = variant.name,
            state = state,
            phase = phase
        ),
        None => crate::tr!(
            words,
            "summary.title",
            game = game.name,
            variant = variant.name,
            state = state
        ),
    };
    if game.state == GameState::Finished {
        out.push('\n');
        out.push_str(&words.message(&crate::game::ended(
            &game.name,
            &game.settings,
            &game.time_zone,
            Some(&variant.map),
        )));
    }
    out.push_str("\n\n");
    out.push_str(&crate::tr!(words, "summary.holders"));
    out.push('\n');
    if summary.holders.is_empty() {
        out.push_str(&format!("  {}\n", crate::tr!(words, "summary.no_one")));
    }
    for holders in &summary.holders {
        out.push_str(&format!("  {}\n", holders.line()));
    }
    if !summary.years.is_empty() {
        out.push_str(&format!("\n{}:\n", centres_heading_in(words, &summary)));
        out.push_str(&centre_table(&summary));
    }
    for problem in &summary.problems {
        out.push_str(&format!(
            "\n{}\n",
            crate::tr!(words, "summary.note", problem = problem)
        ));
    }
    Ok(out)
}

/// What the centre table shows, as a heading, in `words`' language.
pub fn centres_heading_in(words: Words, summary: &Summary) -> String {
    let what = match summary.by_supply {
        false => crate::tr!(words, "summary.centres"),
        true => crate::tr!(words, "summary.supply"),
    };
    match summary.years.last() {
        Some(last) if summary.running => {
            crate::tr!(words, "summary.so_far", what = what, last = last)
        }
        _ => what,
    }
}

/// The counts as aligned text: a header of years, one line per power.
fn centre_table(summary: &Summary) -> String {
    let name_width = summary
        .centres
        .iter()
        .map(|r| r.power.chars().count())
        .max()
        .unwrap_or(0);
    let widths: Vec<usize> = summary
        .years
        .iter()
        .enumerate()
        .map(|(i, y)| {
            let widest = summary
                .centres
                .iter()
                .map(|r| summary.cell(r, i).chars().count())
                .max()
                .unwrap_or(0);
            y.chars().count().max(3).max(widest)
        })
        .collect();
    let mut out = format!("  {:name_width$}", "");
    for (year, width) in summary.years.iter().zip(&widths) {
        out.push_str(&format!("  {year:>width$}"));
    }
    out.push('\n');
    for row in &summary.centres {
        out.push_str(&format!("  {:name_width$}", row.power));
        for (i, width) in widths.iter().enumerate() {
            out.push_str(&format!("  {:>width$}", summary.cell(row, i)));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(label: &str, players: &[(&str, &str)]) -> (String, BTreeMap<String, String>) {
        let players = players
            .iter()
            .map(|(p, e)| (p.to_string(), e.to_string()))
            .collect();
        (label.to_string(), players)
    }

    fn powers() -> Vec<(String, String)> {
        vec![
            ("france".into(), "France".into()),
            ("italy".into(), "Italy".into()),
        ]
    }

    #[test]
    fn a_replaced_player_ends_a_span_and_the_new_one_runs_on() {
        let history = vec![
            phase("Spring 1901", &[("france", "a@x"), ("italy", "c@z")]),
            phase("Fall 1901", &[("france", "a@x"), ("italy", "c@z")]),
            phase("Fall 1903", &[("france", "a@x")]),
            phase("Spring 1904", &[("france", "b@y")]),
            phase("Fall 1904", &[("france", "b@y")]),
        ];
        let holders = holder_spans(&history, &powers(), true);
        let lines: Vec<String> = holders.iter().map(Holders::line).collect();
        assert_eq!(
            lines,
            [
                "France: a@x (Spring 1901 – Fall 1903), b@y (Spring 1904 – )",
                "Italy: c@z (Spring 1901 – Fall 1901)",
            ]
        );
        let finished = holder_spans(&history, &powers(), false);
        assert_eq!(
            finished[0].line(),
            "France: a@x (Spring 1901 – Fall 1903), b@y (Spring 1904 – Fall 1904)"
        );
    }

    #[test]
    fn a_one_phase_span_names_its_phase_once_and_powers_never_held_are_left_out() {
        let history = vec![phase("Spring 1901", &[("france", "a@x")])];
        let holders = holder_spans(&history, &powers(), false);
        assert_eq!(holders.len(), 1);
        assert_eq!(holders[0].line(), "France: a@x (Spring 1901)");
    }

    #[test]
    fn the_table_aligns_years_and_counts() {
        let summary = Summary {
            phase: None,
            running: true,
            years: vec!["240 BC".into(), "239 BC".into()],
            centres: vec![
                CentreRow {
                    power: "North".into(),
                    colour: "#D55E00".into(),
                    counts: vec![1, 1],
                    supply: vec![1, 1],
                },
                CentreRow {
                    power: "South".into(),
                    colour: "#0072B2".into(),
                    counts: vec![2, 12],
                    supply: vec![3, 14],
                },
            ],
            by_supply: false,
            holders: Vec::new(),
            problems: Vec::new(),
        };
        assert_eq!(
            centre_table(&summary),
            "         240 BC  239 BC\n  North       1       1\n  South       2      12\n"
        );
        assert_eq!(
            centres_heading_in(Words::english(), &summary),
            "Supply centers at the end of each year (239 BC: so far)"
        );
        // Where victory counts supply, the supply leads and the centres follow.
        let by_supply = Summary {
            by_supply: true,
            running: false,
            ..summary
        };
        assert_eq!(
            centre_table(&by_supply),
            "         240 BC   239 BC\n  North   1 (1)    1 (1)\n  South   3 (2)  14 (12)\n"
        );
        assert_eq!(
            centres_heading_in(Words::english(), &by_supply),
            "Supply at the end of each year, with the supply centers owned in brackets"
        );
    }
}
