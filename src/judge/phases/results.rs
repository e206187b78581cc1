//! The results letter of a processed phase: first the classic judge's letter, line for line as
//! njudge writes it (`docs/njudge-letters.md`), so that the tools players keep their games in
//! (jDip's judge import) read it; then our explanations (why each order failed, who bounced
//! whom, the variant's own facts) after it, where those tools do not look. In English the
//! letter is njudge's own; in Russian it keeps the same structure in Russian words.

use crate::game::GameState;
use chrono::{DateTime, Utc};

use crate::judge::commands::credit::credit_lines;

use super::reckoning::{count_lines, in_place, kind_word, ownership_lines};
use super::subjects::{header_lines, season_and_year};
use crate::diplomacy::adjudicate::{Outcome, Resolution, RetreatOptions, Submitted};
use crate::diplomacy::credit::{Balance, balance};
use crate::diplomacy::map::{Map, ProvinceId};
use crate::diplomacy::order::{Action, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::progress::YearEnd;
use crate::diplomacy::turn::PhaseKind;
use crate::diplomacy::unit::{Unit, UnitKind};
use crate::judge::commands::credit::lapse_lines;
use crate::report::Words;
use crate::report::classic;
use crate::report::describe::{describe_order_in, note_in, unit_name_in};
use crate::store::GameRow;
use crate::tr;
use crate::variant::Variant;

/// Everything a phase's results letter says.
pub(crate) struct Results<'a> {
    /// The judge's code in subjects and headers (`STRA`).
    pub code: &'a str,
    pub variant: &'a Variant,
    /// The game after processing (name, zone, next deadline).
    pub game: &'a GameRow,
    /// The processed phase's number, the first phase being 1.
    pub seq: i64,
    /// The deadline the processed phase had.
    pub deadline_before: Option<DateTime<Utc>>,
    pub before: &'a Position,
    pub submitted: &'a [Submitted],
    pub resolution: &'a Resolution,
    pub next: &'a Position,
    pub year_end: Option<&'a YearEnd>,
    pub eliminated: &'a [PowerId],
    pub winner: Option<PowerId>,
    /// Powers that owed orders and sent none.
    pub missing: &'a [PowerId],
}

impl Results<'_> {
    fn map(&self) -> &Map {
        &self.variant.map
    }

    /// The subject the archive keeps, njudge's: `STRA:game - S1901M Results` (the archive's
    /// feed and pages find the results by it).
    pub(crate) fn subject(&self) -> String {
        self.subject_saying("Results")
    }

    /// The subject of a member's letter in `words`' language: njudge's in English,
    /// `STRA:game - S1901M Итоги хода` in Russian.
    pub(crate) fn subject_in(&self, words: Words) -> String {
        self.subject_saying(&tr!(words, "classic.results_subject"))
    }

    fn subject_saying(&self, what: &str) -> String {
        classic::subject(
            self.code,
            &self.game.name,
            &classic::phase_token(self.before.turn),
            what,
        )
    }

    /// The template's values for the letter in `words`' language.
    pub(crate) fn context(&self, words: Words) -> serde_json::Value {
        let map = self.map();
        let header = header_lines(
            self.code,
            self.game,
            self.variant,
            self.before.turn,
            self.deadline_before,
        );
        let (season, year) = season_and_year(words, self.variant, self.before.turn);
        let seq = format!("{:03}", self.seq);
        let game = &self.game.name;
        let heading = match self.before.turn.kind {
            PhaseKind::Movement => tr!(
                words,
                "classic.movement_results",
                season = season,
                year = year,
                game = game,
                seq = seq
            ),
            PhaseKind::Retreat => tr!(
                words,
                "classic.retreat_results",
                season = season,
                year = year,
                game = game,
                seq = seq
            ),
            PhaseKind::Adjustment => tr!(
                words,
                "classic.adjustment_results",
                season = season,
                year = year,
                game = game,
                seq = seq
            ),
        };
        let mut explanations = Vec::new();
        let orders = match self.before.turn.kind {
            PhaseKind::Movement => self.movement_lines(words, &mut explanations),
            PhaseKind::Retreat => self.retreat_lines(words, &mut explanations),
            PhaseKind::Adjustment => self.adjustment_lines(words, &mut explanations),
        };
        let dislodged: Vec<String> = self
            .resolution
            .dislodged
            .iter()
            .flat_map(|d| {
                // Listed in the variant's order (njudge's map file's, for Standard).
                let mut listed = d.clone();
                self.variant
                    .listing
                    .sort(map, &d.dislodgement.unit, &mut listed.retreats);
                classic::wrapped(&dislodged_line(words, map, &listed), ' ', 0)
            })
            .collect();
        let (ownership, counts) = match self.year_end {
            Some(year) => self.ownership(words, year),
            None => (Vec::new(), Vec::new()),
        };
        let next = self.next_lines(words);
        if !self.missing.is_empty() {
            let names: Vec<&str> = self
                .missing
                .iter()
                .map(|p| map.power(*p).name_in(words.language()))
                .collect();
            explanations.push(tr!(words, "classic.missing", powers = names.join(", ")));
        }
        explanations.extend(self.variant_lines(words));
        if let Some(winner) = self.winner {
            explanations.push(tr!(
                words,
                "classic.winner",
                power = map.power(winner).name_in(words.language())
            ));
        }
        serde_json::json!({
            "header": header, "heading": heading, "orders": orders, "dislodged": dislodged,
            "ownership": ownership, "counts": counts, "next": next,
            "explanations": explanations,
        })
    }

    /// The order of each unit that stood at the start, in power order then the board's order,
    /// with the power's name: `Austria: Army Budapest -> Serbia. (*bounce*)`, an empty line
    /// before each power.
    fn movement_lines(&self, words: Words, explanations: &mut Vec<String>) -> Vec<String> {
        let map = self.map();
        let position = self.before;
        let mut units: Vec<(usize, &Unit)> = position.units.iter().enumerate().collect();
        units.sort_by_key(|(i, u)| (u.power, *i));
        let mut lines = Vec::new();
        let mut last_power = None;
        for (_, unit) in units {
            if last_power != Some(unit.power) {
                lines.push(String::new());
                last_power = Some(unit.power);
            }
            let province = map.province_of(unit.region);
            let power = map.power(unit.power).name_in(words.language());
            let dislodged = self
                .resolution
                .dislodged
                .iter()
                .any(|d| map.province_of(d.dislodgement.unit.region) == province);
            let ordered = self
                .submitted
                .iter()
                .zip(&self.resolution.outcomes)
                .filter(|(_, o)| **o != Outcome::Superseded)
                .find(|(s, _)| matches!(&s.order, Order::Unit(u) if u.at.province == province));
            let Some((submitted, outcome)) = ordered else {
                let mut line = format!(
                    "{power}: {}{}",
                    unit_name_in(words, map, unit),
                    tr!(words, "classic.no_order")
                );
                if dislodged {
                    line.push_str(&format!(" (*{}*)", dislodged_note(words, unit.kind)));
                }
                lines.push(line);
                continue;
            };
            let text = self.order_text(words, submitted);
            let note = classic_note(words, outcome, dislodged.then_some(unit.kind));
            lines.push(match &note {
                Some(note) => format!("{power}: {text} (*{note}*)"),
                None => format!("{power}: {text}"),
            });
            let ours = note_in(words, map, outcome);
            if !ours.is_empty() && note.as_deref() != Some(ours.as_str()) {
                explanations.push(tr!(
                    words,
                    "classic.explained",
                    power = power,
                    order = text.trim_end_matches('.'),
                    why = ours
                ));
            }
        }
        lines
    }

    /// An order as njudge writes it, with a convoyed move's route through its fleets.
    fn order_text(&self, words: Words, submitted: &Submitted) -> String {
        let map = self.map();
        if let Order::Unit(UnitOrder {
            at,
            action: Action::Move { to, via_convoy: _ },
            ..
        }) = &submitted.order
            && let Some(unit) = self.before.unit_in(map, at.province)
            && unit.kind == UnitKind::Army
            && !map.reaches_province(UnitKind::Army, unit.region, to.province)
            && let Some(route) = self.convoy_route(at.province, to.province)
        {
            let mut text = unit_name_in(words, map, unit);
            for sea in route {
                text.push_str(&format!(
                    " -> {}",
                    map.province(sea).name_in(words.language())
                ));
            }
            let destination = match to.coast {
                Some(region) => crate::report::describe::region_name_in(words, map, region),
                None => map
                    .province(to.province)
                    .name_in(words.language())
                    .to_string(),
            };
            return format!("{text} -> {destination}.");
        }
        describe_order_in(words, map, self.before, submitted.power, &submitted.order)
    }

    /// The fleets ordered to convoy the army from `from` to `to`, as a chain of provinces
    /// from one coast to the other, if they make one.
    fn convoy_route(&self, from: ProvinceId, to: ProvinceId) -> Option<Vec<ProvinceId>> {
        let map = self.map();
        let fleets: Vec<ProvinceId> = self
            .submitted
            .iter()
            .filter_map(|s| match &s.order {
                Order::Unit(UnitOrder {
                    at,
                    action: Action::Convoy { from: f, to: t },
                    ..
                }) if f.province == from && t.province == to => Some(at.province),
                _ => None,
            })
            .collect();
        // Breadth first from the fleets touching the army's coast.
        let mut paths: Vec<Vec<ProvinceId>> = fleets
            .iter()
            .filter(|f| map.provinces_touch(**f, from))
            .map(|f| vec![*f])
            .collect();
        for _ in 0..fleets.len() {
            if let Some(path) = paths
                .iter()
                .find(|p| map.provinces_touch(*p.last().expect("not empty"), to))
            {
                return Some(path.clone());
            }
            let mut longer = Vec::new();
            for path in &paths {
                let last = *path.last().expect("not empty");
                for f in fleets
                    .iter()
                    .filter(|f| !path.contains(f) && map.provinces_touch(last, **f))
                {
                    let mut next = path.clone();
                    next.push(*f);
                    longer.push(next);
                }
            }
            paths = longer;
        }
        None
    }

    /// Retreat results: `Austria:                  Fleet Trieste -> Albania.`
    fn retreat_lines(&self, words: Words, explanations: &mut Vec<String>) -> Vec<String> {
        let map = self.map();
        let mut dislodged: Vec<(usize, &Unit)> = self
            .before
            .dislodged
            .iter()
            .map(|d| &d.unit)
            .enumerate()
            .collect();
        dislodged.sort_by_key(|(i, u)| (u.power, *i));
        let mut lines = vec![String::new()];
        for (_, unit) in dislodged {
            let province = map.province_of(unit.region);
            let power = map.power(unit.power).name_in(words.language());
            let name = format!(
                "{:<5} {}",
                kind_word(words, unit.kind),
                crate::report::describe::region_name_in(words, map, unit.region)
            );
            let ordered = self
                .submitted
                .iter()
                .zip(&self.resolution.outcomes)
                .filter(|(_, o)| **o != Outcome::Superseded)
                .find(|(s, _)| matches!(&s.order, Order::Unit(u) if u.at.province == province));
            let rest = match ordered {
                Some((
                    Submitted {
                        order:
                            Order::Unit(UnitOrder {
                                action: Action::Retreat { to },
                                ..
                            }),
                        ..
                    },
                    outcome,
                )) => {
                    let to = match to.coast {
                        Some(region) => crate::report::describe::region_name_in(words, map, region),
                        None => map
                            .province(to.province)
                            .name_in(words.language())
                            .to_string(),
                    };
                    match outcome {
                        Outcome::Retreated => format!(" -> {to}."),
                        _ => format!(
                            " -> {to} (*{}*).",
                            match unit.kind {
                                UnitKind::Army => tr!(words, "classic.note_bounce_destroyed_army"),
                                UnitKind::Fleet => tr!(words, "classic.note_bounce_destroyed"),
                            }
                        ),
                    }
                }
                Some(_) => format!(" {}.", tr!(words, "classic.disband")),
                // njudge writes `, No Order Processed (DISBAND).`, which jDip cannot import:
                // DISBAND, as if ordered, and the explanation says there was no order.
                None => {
                    explanations.push(tr!(
                        words,
                        "classic.retreat_no_order",
                        power = power,
                        unit = unit_name_in(words, map, unit)
                    ));
                    format!(" {}.", tr!(words, "classic.disband"))
                }
            };
            lines.push(format!("{}{name}{rest}", classic::padded(power, 26)));
        }
        lines
    }

    /// Adjustment results: builds, removals and waives in power order, then each power's
    /// builds left unused, then removals in civil disorder.
    fn adjustment_lines(&self, words: Words, explanations: &mut Vec<String>) -> Vec<String> {
        let map = self.map();
        let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, self.before);
        let mut lines = vec![String::new()];
        let mut defaults = Vec::new();
        for (p, owed) in owed.iter().enumerate() {
            let power = PowerId(p as u8);
            let name = map.power(power).name_in(words.language());
            let lead = classic::padded(name, 26);
            let mut built = 0;
            for (s, outcome) in self
                .submitted
                .iter()
                .zip(&self.resolution.outcomes)
                .filter(|(s, o)| s.power == power && **o != Outcome::Superseded)
            {
                match (&s.order, outcome) {
                    (
                        Order::Unit(UnitOrder {
                            unit,
                            at,
                            action: Action::Build,
                        }),
                        Outcome::Built,
                    ) => {
                        built += 1;
                        let place = match at.coast {
                            Some(region) => {
                                crate::report::describe::region_name_in(words, map, region)
                            }
                            None => map
                                .province(at.province)
                                .name_in(words.language())
                                .to_string(),
                        };
                        let builds = match unit {
                            Some(UnitKind::Fleet) => {
                                tr!(words, "classic.builds_fleet", place = place)
                            }
                            _ => tr!(words, "classic.builds_army", place = place),
                        };
                        lines.push(format!("{lead}{builds}"));
                    }
                    (Order::Waive, Outcome::Waived) => {
                        built += 1;
                        lines.push(format!("{lead}{}", tr!(words, "classic.build_waived")));
                    }
                    (Order::Unit(UnitOrder { at, .. }), Outcome::Disbanded) => {
                        if let Some(unit) = self.before.unit_in(map, at.province) {
                            lines.push(format!("{lead}{}", self.removal(words, unit, false)));
                        }
                    }
                    _ => {
                        let ours = note_in(words, map, outcome);
                        if !ours.is_empty() {
                            let order = describe_order_in(words, map, self.before, power, &s.order);
                            explanations.push(tr!(
                                words,
                                "classic.explained",
                                power = name,
                                order = order.trim_end_matches('.'),
                                why = ours
                            ));
                        }
                    }
                }
            }
            if *owed > built {
                let unused = owed - built;
                let free_home = map.provinces.iter().enumerate().any(|(i, province)| {
                    (province.home_of == Some(power)
                        || (province.build_site && province.centre.is_none()))
                        && self.before.owners[i] == Some(power)
                        && self.before.unit_in(map, ProvinceId(i as u16)).is_none()
                });
                let left = if free_home {
                    tr!(words, "classic.builds_pending", count = unused)
                } else {
                    tr!(words, "classic.builds_unusable", count = unused)
                };
                lines.push(format!("{lead}{left}"));
            }
            // Units removed without an order: civil disorder.
            for unit in self.before.units.iter().filter(|u| {
                u.power == power
                    && !self.resolution.after.units.contains(u)
                    && !self.submitted.iter().any(|s| {
                        matches!(&s.order, Order::Unit(o) if o.at.province == map.province_of(u.region))
                    })
            }) {
                defaults.push(format!("{lead}{}", self.removal(words, unit, true)));
            }
        }
        lines.extend(defaults);
        lines
    }

    /// `Removes the army in Vienna.`, `Defaults, removing the fleet in the North Sea.`
    fn removal(&self, words: Words, unit: &Unit, default: bool) -> String {
        let map = self.map();
        let kind = match unit.kind {
            UnitKind::Army => tr!(words, "classic.the_army"),
            UnitKind::Fleet => tr!(words, "classic.the_fleet"),
        };
        let place = in_place(words, map, unit.region);
        if default {
            tr!(
                words,
                "classic.defaults_removing",
                unit = kind,
                place = place
            )
        } else {
            tr!(words, "classic.removes", unit = kind, place = place)
        }
    }

    /// The ownership block and the adjustment count lines, when the year ends.
    fn ownership(&self, words: Words, year: &YearEnd) -> (Vec<String>, Vec<String>) {
        let map = self.map();
        let board = &year.board;
        let ownership = ownership_lines(words, map, board);
        let counts = count_lines(words, map, board, self.winner);
        (ownership, counts)
    }

    /// `The next phase of 'game' will be Movement for Fall of 1901.` and the deadline; or the
    /// end of the game.
    fn next_lines(&self, words: Words) -> Vec<String> {
        if self.winner.is_some() || self.game.state == GameState::Finished {
            return vec![tr!(words, "classic.game_over")];
        }
        let (season, year) = season_and_year(words, self.variant, self.next.turn);
        let kind = match self.next.turn.kind {
            PhaseKind::Movement => tr!(words, "classic.kind_movement"),
            PhaseKind::Retreat => tr!(words, "classic.kind_retreats"),
            PhaseKind::Adjustment => tr!(words, "classic.kind_adjustments"),
        };
        let deadline = words.when(&crate::report::When {
            at: self.game.deadline_at,
            zone: self.game.time_zone.clone(),
        });
        vec![
            tr!(
                words,
                "classic.next_phase",
                game = self.game.name,
                kind = kind,
                season = season,
                year = year
            ),
            tr!(words, "classic.next_deadline", deadline = deadline),
        ]
    }

    /// What the variant adds to the year (Diadochi V): build-only cities, ungarrisoned
    /// rebellion centres, destroyed and restoring centres, credit, eliminated powers.
    fn variant_lines(&self, words: Words) -> Vec<String> {
        let map = self.map();
        let mut lines = Vec::new();
        if let Some(year) = self.year_end {
            let board = &year.board;
            let mut cities = Vec::new();
            for (i, province) in map.provinces.iter().enumerate() {
                let id = ProvinceId(i as u16);
                if province.build_site && province.centre.is_none() {
                    cities.push(match board.owners[i] {
                        Some(owner) => tr!(
                            words,
                            "report.city",
                            city = province.name_in(words.language()),
                            power = map.power(owner).name_in(words.language())
                        ),
                        None => tr!(
                            words,
                            "report.city_free",
                            city = province.name_in(words.language())
                        ),
                    });
                }
                if let (Some(owner), Some(crate::diplomacy::position::Unsupplied::NoGarrison)) =
                    (board.owners[i], board.why_not_supplying(map, id))
                {
                    lines.push(tr!(
                        words,
                        "report.ungarrisoned",
                        province = province.name_in(words.language()),
                        power = map.power(owner).name_in(words.language())
                    ));
                }
            }
            if !cities.is_empty() {
                lines.push(tr!(words, "classic.cities", cities = cities.join(", ")));
            }
            // With credit, each power's supply, what it borrowed or lent, and what it owes.
            let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, board);
            for (p, owed) in owed.iter().enumerate() {
                let power = PowerId(p as u8);
                let Balance { borrowed, lent } = balance(&board.credits, power);
                if borrowed == 0 && lent == 0 {
                    continue;
                }
                let mut credit = Vec::new();
                if borrowed > 0 {
                    credit.push(tr!(words, "report.borrowed", amount = borrowed));
                }
                if lent > 0 {
                    credit.push(tr!(words, "report.lent", amount = lent));
                }
                let change = match *owed {
                    n if n > 0 => tr!(words, "report.builds", count = n),
                    n if n < 0 => tr!(words, "report.removes", count = -n),
                    _ => tr!(words, "report.no_change"),
                };
                lines.push(tr!(
                    words,
                    "report.adjustment_credit",
                    power = map.power(power).name_in(words.language()),
                    supply = board.supply_of(map, power),
                    credit = credit.join(", "),
                    units = board.units.iter().filter(|u| u.power == power).count(),
                    change = change
                ));
            }
            lines.extend(lapse_lines(words, map, &year.lapsed));
        }
        if !self.next.destroyed.is_empty() {
            let names: Vec<&str> = self
                .next
                .destroyed
                .iter()
                .map(|p| map.province(*p).name_in(words.language()))
                .collect();
            lines.push(tr!(words, "classic.destroyed", centres = names.join(", ")));
        }
        for r in &self.next.restoring {
            lines.push(tr!(
                words,
                "classic.restoring",
                restoring = tr!(
                    words,
                    "report.restoring",
                    province = map.province(r.province).name_in(words.language()),
                    power = map.power(r.power).name_in(words.language()),
                    turns = r.turns
                )
            ));
        }
        if self.year_end.is_some()
            || self.before.turn.kind == PhaseKind::Adjustment
            || self.next.turn.kind == PhaseKind::Adjustment
        {
            lines.extend(credit_lines(words, map, self.next));
        }
        if !self.eliminated.is_empty() {
            let names: Vec<&str> = self
                .eliminated
                .iter()
                .map(|p| map.power(*p).name_in(words.language()))
                .collect();
            lines.push(tr!(words, "classic.eliminated", powers = names.join(", ")));
        }
        lines
    }
}

/// `The Austrian Fleet in Trieste can retreat to Albania or Adriatic Sea.`, or `... with no
/// valid retreats was destroyed.`
pub(crate) fn dislodged_line(words: Words, map: &Map, d: &RetreatOptions) -> String {
    let unit = &d.dislodgement.unit;
    let adjective = &map.power(unit.power).adjective;
    let power = map.power(unit.power).name_in(words.language());
    let kind = kind_word(words, unit.kind);
    let place = in_place(words, map, unit.region);
    if d.retreats.is_empty() {
        return tr!(
            words,
            "classic.dislodged_destroyed",
            adjective = adjective,
            power = power,
            kind = kind,
            place = place
        );
    }
    let options: Vec<String> = d
        .retreats
        .iter()
        .map(|r| crate::report::describe::region_name_in(words, map, *r))
        .collect();
    tr!(
        words,
        "classic.dislodged",
        adjective = adjective,
        power = power,
        kind = kind,
        place = place,
        options = options.join(&tr!(words, "classic.or"))
    )
}

/// njudge's note for an order (`bounce`, `cut`, `void`, `no convoy`, `dislodged`, and failed
/// and dislodged together), none for an order that succeeded.
/// njudge's `dislodged`, agreeing with the unit where the language says so (Russian `выбита`
/// for an army, `выбит` for a fleet).
fn dislodged_note(words: Words, kind: UnitKind) -> String {
    match kind {
        UnitKind::Army => tr!(words, "classic.note_dislodged_army"),
        UnitKind::Fleet => tr!(words, "classic.note_dislodged"),
    }
}

fn classic_note(words: Words, outcome: &Outcome, dislodged: Option<UnitKind>) -> Option<String> {
    let failed = match outcome {
        Outcome::Bounced { .. } => Some(tr!(words, "classic.note_bounce")),
        Outcome::Cut { .. } => Some(tr!(words, "classic.note_cut")),
        Outcome::Void | Outcome::Illegal(_) => Some(tr!(words, "classic.note_void")),
        Outcome::NoConvoy | Outcome::Paradox => Some(tr!(words, "classic.note_no_convoy")),
        _ => None,
    };
    let dislodged = dislodged.map(|kind| dislodged_note(words, kind));
    match (failed, dislodged) {
        (Some(f), Some(d)) => Some(format!("{f}, {d}")),
        (Some(f), None) => Some(f),
        (None, Some(d)) => Some(d),
        (None, None) => None,
    }
}
