//! After a movement phase is resolved: each order's outcome with its reason, the units
//! dislodged with their retreats, and the board that follows.

use super::movement::{Board, Command, Work};
use super::outcome::{Bouncer, Outcome, RetreatOptions};
use super::resolver::Resolver;
use crate::diplomacy::map::{Map, ProvinceId, RegionId};
use crate::diplomacy::position::{Dislodgement, Position, Restoration};
use crate::diplomacy::rules::Rules;
use crate::diplomacy::unit::UnitKind;

impl Board<'_> {
    /// Fills in the outcome of every order in force.
    pub(super) fn report(
        &mut self,
        success: &[bool],
        in_force: &[Option<usize>],
        outcomes: &mut [Outcome],
    ) {
        let mut r = Resolver::settled(success);
        for (u, order) in in_force.iter().enumerate() {
            let Some(i) = order else { continue };
            outcomes[*i] = self.outcome_of(&mut r, u, success);
        }
    }

    fn dislodger(&self, u: usize, success: &[bool]) -> Option<usize> {
        if self.is_move(u) && success[u] {
            return None;
        }
        self.attackers[self.province[u].index()]
            .iter()
            .copied()
            .find(|w| success[*w])
    }

    fn outcome_of(&mut self, r: &mut Resolver, u: usize, success: &[bool]) -> Outcome {
        let dislodged_by = self.dislodger(u, success).map(|w| self.province[w]);
        match self.command[u] {
            Command::Hold => match dislodged_by {
                Some(by) => Outcome::Dislodged { by },
                None => Outcome::Held,
            },
            Command::Work(work) => match (dislodged_by, work) {
                (Some(by), _) => Outcome::Dislodged { by },
                (None, Work::Destroy) => Outcome::Destroyed,
                (None, Work::Restore) => match self.restoration_turns(u) {
                    1 => Outcome::Restoring,
                    _ => Outcome::Restored,
                },
            },
            Command::Move { to, .. } => {
                if success[u] {
                    return Outcome::Moved;
                }
                if !self.path(r, u, true) {
                    return if self.convoyers[u].iter().any(|f| self.paradox[*f]) {
                        Outcome::Paradox
                    } else {
                        Outcome::NoConvoy
                    };
                }
                Outcome::Bounced {
                    by: self.bounced_by(r, u, to),
                }
            }
            Command::SupportHold { target } => {
                let t = self.unit_at[target.index()].expect("checked");
                if !self.hold_support[t].contains(&u) {
                    return Outcome::Void;
                }
                self.support_outcome(r, u, success, dislodged_by)
            }
            Command::SupportMove { from, .. } => {
                let m = self.unit_at[from.index()].expect("checked");
                if !self.move_support[m].contains(&u) {
                    return Outcome::Void;
                }
                self.support_outcome(r, u, success, dislodged_by)
            }
            Command::Convoy { from, .. } => {
                let a = self.unit_at[from.index()].expect("checked");
                if self.paradox[u] {
                    return Outcome::Paradox;
                }
                if let Some(by) = dislodged_by {
                    return Outcome::Dislodged { by };
                }
                if self.convoyers[a].contains(&u) {
                    Outcome::Convoyed
                } else {
                    Outcome::Void
                }
            }
        }
    }

    fn support_outcome(
        &mut self,
        r: &mut Resolver,
        s: usize,
        success: &[bool],
        dislodged_by: Option<ProvinceId>,
    ) -> Outcome {
        if success[s] {
            return Outcome::Supported;
        }
        let here = self.province[s];
        for i in 0..self.attackers[here.index()].len() {
            let w = self.attackers[here.index()][i];
            if self.units[w].power != self.units[s].power
                && !self.spared_by_2000_rule(w, s)
                && !self.attack_from_target(w, s)
                && self.path(r, w, true)
            {
                return Outcome::Cut {
                    by: self.province[w],
                };
            }
        }
        match dislodged_by {
            Some(by) => Outcome::Cut { by },
            None => Outcome::Void,
        }
    }

    /// The units whose strength stopped a move: the defender and any rival at least as strong.
    fn bounced_by(&mut self, r: &mut Resolver, u: usize, to: ProvinceId) -> Vec<Bouncer> {
        let attack = self.attack_strength(r, u, true);
        let mut by = Vec::new();
        if let Some(v) = self.unit_at[to.index()] {
            let defence = match self.head_to_head(u) {
                Some(v) => self.defend_strength(r, v, true),
                None => self.hold_strength(r, to, true),
            };
            if attack == 0 || attack <= defence {
                by.push(Bouncer {
                    at: self.province[v],
                    kind: self.units[v].kind,
                    defended: true,
                });
            }
        }
        for i in 0..self.attackers[to.index()].len() {
            let w = self.attackers[to.index()][i];
            if w != u && attack <= self.prevent_strength(r, w, true) {
                by.push(Bouncer {
                    at: self.province[w],
                    kind: self.units[w].kind,
                    defended: false,
                });
            }
        }
        by
    }

    /// The units after the phase, and the dislodged units with their retreats.
    /// How many restore orders in a row the unit `u` has given, counting this one.
    fn restoration_turns(&self, u: usize) -> u8 {
        let before = self
            .position
            .restoring
            .iter()
            .find(|r| r.province == self.province[u] && r.power == self.units[u].power)
            .map_or(0, |r| r.turns);
        before + 1
    }

    /// Destructions and restorations by units that were not dislodged (Diadochi V rules 6
    /// and 7). A restoration not carried on this turn (a move, another order, a
    /// dislodgement) starts again from nothing.
    fn work_on_centres(&self, after: &mut Position, success: &[bool]) {
        after.restoring.clear();
        for u in 0..self.units.len() {
            let Command::Work(work) = self.command[u] else {
                continue;
            };
            if self.dislodger(u, success).is_some() {
                continue;
            }
            let here = self.province[u];
            match work {
                Work::Destroy => {
                    if !after.destroyed.contains(&here) {
                        after.destroyed.push(here);
                    }
                }
                Work::Restore => {
                    let turns = self.restoration_turns(u);
                    if turns >= 2 {
                        after.destroyed.retain(|p| *p != here);
                    } else {
                        after.restoring.push(Restoration {
                            province: here,
                            power: self.units[u].power,
                            turns,
                        });
                    }
                }
            }
        }
    }

    pub(super) fn position_after(
        &mut self,
        before: &Position,
        success: &[bool],
    ) -> (Position, Vec<RetreatOptions>) {
        let mut after = before.clone();
        after.units.clear();
        let mut dislodged = Vec::new();
        let mut occupied = vec![false; self.map.n_provinces()];
        for u in 0..self.units.len() {
            let mut unit = self.units[u];
            if let (Command::Move { to, region, .. }, true) = (self.command[u], success[u]) {
                unit.region = region;
                occupied[to.index()] = true;
                after.units.push(unit);
            } else if let Some(w) = self.dislodger(u, success) {
                dislodged.push(Dislodgement {
                    unit,
                    attacker_from: self.province[w],
                    by_convoy: self.is_convoyed(w),
                });
            } else {
                occupied[self.province[u].index()] = true;
                after.units.push(unit);
            }
        }
        self.work_on_centres(&mut after, success);
        let mut r = Resolver::settled(success);
        let mut contested = Vec::new();
        for (p, taken) in occupied.iter().enumerate() {
            if *taken {
                continue;
            }
            let bounced = (0..self.attackers[p].len()).any(|i| {
                let w = self.attackers[p][i];
                !success[w] && self.prevent_strength(&mut r, w, true) > 0
            });
            if bounced {
                contested.push(ProvinceId(p as u16));
            }
        }
        let options = dislodged
            .into_iter()
            .map(|d| RetreatOptions {
                retreats: retreat_options(self.map, self.rules, &d, &occupied, &contested),
                dislodgement: d,
            })
            .collect::<Vec<_>>();
        // A dislodged unit with nowhere to go is destroyed now (as njudge does, in the
        // movement results): only units with a choice wait for a retreat phase.
        after.dislodged = options
            .iter()
            .filter(|o| !o.retreats.is_empty())
            .map(|o| o.dislodgement)
            .collect();
        after.contested = contested;
        (after, options)
    }
}

/// Where a dislodged unit may go: a neighbour that is empty, not left empty by a standoff,
/// and not where the attacker came from (unless it came by convoy and DATC 4.A.5's 2023
/// answer applies).
pub fn retreat_options(
    map: &Map,
    rules: &Rules,
    d: &Dislodgement,
    occupied: &[bool],
    contested: &[ProvinceId],
) -> Vec<RegionId> {
    let unit = d.unit;
    let candidates: Vec<RegionId> = match unit.kind {
        UnitKind::Fleet => map.region(unit.region).fleet_neighbours.clone(),
        UnitKind::Army => map.army_neighbours[map.province_of(unit.region).index()]
            .iter()
            .map(|p| map.province(*p).region)
            .collect(),
    };
    let mut out: Vec<RegionId> = candidates
        .into_iter()
        .filter(|r| {
            let p = map.province_of(*r);
            !occupied[p.index()]
                && !contested.contains(&p)
                && (p != d.attacker_from || (d.by_convoy && rules.retreat_to_convoy_origin))
        })
        .collect();
    out.sort();
    out
}
