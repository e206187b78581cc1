//! Movement phases: the conditions every order must meet (DATC v3.0 section 5.B).
//!
//! `check.rs` turns each submitted order into a command for its unit or an illegal
//! outcome; this file states when moves, supports and convoys succeed, and the strengths
//! they rest on; `resolver.rs` decides them (5.E); `aftermath.rs` reports the result.

use super::convoy::{on_minimal_route, route_exists};
use super::resolver::{Decide, Resolver};
use super::{Resolution, Submitted};
use crate::diplomacy::map::{Map, ProvinceId, RegionId};
use crate::diplomacy::position::Position;
use crate::diplomacy::rules::{ConvoyParadox, MultiRouteConvoy, Rules};
use crate::diplomacy::unit::Unit;

/// Work on the centre a unit stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Work {
    Destroy,
    Restore,
}

/// What a unit does this phase, once its order has been checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Hold,
    /// Holds while destroying or restoring the centre it stands in (Diadochi V).
    Work(Work),
    Move {
        to: ProvinceId,
        region: RegionId,
        convoyed: bool,
    },
    SupportHold {
        target: ProvinceId,
    },
    SupportMove {
        from: ProvinceId,
        to: ProvinceId,
        coast: Option<RegionId>,
    },
    Convoy {
        from: ProvinceId,
        to: ProvinceId,
    },
}

/// The board of one movement phase with every unit's command.
pub(super) struct Board<'a> {
    pub map: &'a Map,
    pub rules: &'a Rules,
    pub position: &'a Position,
    pub units: &'a [Unit],
    pub province: Vec<ProvinceId>,
    pub unit_at: Vec<Option<usize>>,
    pub command: Vec<Command>,
    /// Units ordered to move into each province.
    pub attackers: Lists,
    /// Supports of each unit's hold that match (the unit does not move).
    pub hold_support: Lists,
    /// Supports of each unit's move that match it.
    pub move_support: Lists,
    /// For each convoyed move, the fleets ordered to convoy it.
    pub convoyers: Lists,
    /// For each convoyed move, the fleets without which no route remains (2000 rulebook).
    pub necessary: Lists,
    /// Convoys taken out by the Szykman rule.
    pub paradox: Vec<bool>,
    /// Moves made at half strength: across a half-strength border, or convoyed into their
    /// destination only across one (1900's way round the Cape of Good Hope).
    pub half: Vec<bool>,
}

/// A list of units for each key (a province, or a unit), all kept in one vector: a board has
/// five of them, and a vector for each key would cost an allocation for every unit that
/// attacks, supports or convoys.
#[derive(Clone, Debug, Default)]
pub(super) struct Lists {
    /// Where each key's list starts in `items`, and (last) where the last list ends.
    starts: Vec<u32>,
    items: Vec<usize>,
}

impl Lists {
    /// `keys` lists made of `(key, item)` pairs, each list in the pairs' order.
    pub fn from_pairs(keys: usize, pairs: &[(usize, usize)]) -> Lists {
        let mut starts = vec![0u32; keys + 1];
        for &(key, _) in pairs {
            starts[key + 1] += 1;
        }
        for k in 0..keys {
            starts[k + 1] += starts[k];
        }
        let mut items = vec![0; pairs.len()];
        let mut next: Vec<u32> = starts[..keys].to_vec();
        for &(key, item) in pairs {
            items[next[key] as usize] = item;
            next[key] += 1;
        }
        Lists { starts, items }
    }
}

impl std::ops::Index<usize> for Lists {
    type Output = [usize];

    fn index(&self, key: usize) -> &[usize] {
        &self.items[self.starts[key] as usize..self.starts[key + 1] as usize]
    }
}

/// Adjudicates a movement phase.
pub fn adjudicate(
    map: &Map,
    rules: &Rules,
    position: &Position,
    orders: &[Submitted],
) -> Resolution {
    let (mut board, mut outcomes, in_force) = Board::new(map, rules, position, orders);
    let mut resolver = Resolver::new(board.units.len());
    for u in 0..board.units.len() {
        resolver.settle(&mut board, u);
    }
    let success: Vec<bool> = (0..board.units.len()).map(|u| resolver.result(u)).collect();
    board.report(&success, &in_force, &mut outcomes);
    let (after, dislodged) = board.position_after(position, &success);
    Resolution {
        outcomes,
        dislodged,
        after,
    }
}

impl Board<'_> {
    /// The unit at `u`'s destination moving into `u`'s province, without convoys.
    pub fn head_to_head(&self, u: usize) -> Option<usize> {
        let Command::Move {
            to,
            convoyed: false,
            ..
        } = self.command[u]
        else {
            return None;
        };
        let v = self.unit_at[to.index()]?;
        match self.command[v] {
            Command::Move {
                to: back,
                convoyed: false,
                ..
            } if back == self.province[u] => Some(v),
            _ => None,
        }
    }

    pub fn destination(&self, u: usize) -> Option<ProvinceId> {
        match self.command[u] {
            Command::Move { to, .. } => Some(to),
            _ => None,
        }
    }

    pub fn is_move(&self, u: usize) -> bool {
        matches!(self.command[u], Command::Move { .. })
    }

    pub fn is_convoyed(&self, u: usize) -> bool {
        matches!(self.command[u], Command::Move { convoyed: true, .. })
    }
}

impl Decide for Board<'_> {
    fn decide(&mut self, r: &mut Resolver, u: usize, opt: bool) -> bool {
        match self.command[u] {
            Command::Move { .. } => self.move_succeeds(r, u, opt),
            Command::SupportHold { .. } | Command::SupportMove { .. } => {
                self.support_given(r, u, opt)
            }
            Command::Convoy { .. } => self.convoy_holds(r, u, opt),
            Command::Hold | Command::Work(_) => true,
        }
    }

    fn is_convoy(&self, u: usize) -> bool {
        matches!(self.command[u], Command::Convoy { .. })
    }

    fn is_move(&self, u: usize) -> bool {
        Board::is_move(self, u)
    }

    fn mark_paradox(&mut self, u: usize) {
        self.paradox[u] = true;
    }
}

impl Board<'_> {
    /// DATC 5.B.1.
    fn move_succeeds(&mut self, r: &mut Resolver, u: usize, opt: bool) -> bool {
        let to = self.destination(u).expect("a move");
        let attack = self.attack_strength(r, u, opt);
        if attack == 0 {
            return false;
        }
        let defence = match self.head_to_head(u) {
            Some(v) => self.defend_strength(r, v, !opt),
            None => self.hold_strength(r, to, !opt),
        };
        if attack <= defence {
            return false;
        }
        for i in 0..self.attackers[to.index()].len() {
            let w = self.attackers[to.index()][i];
            if w != u && attack <= self.prevent_strength(r, w, !opt) {
                return false;
            }
        }
        true
    }

    /// DATC 5.B.2, with the 2000 rulebook's exception (diagram 30) where it applies.
    fn support_given(&mut self, r: &mut Resolver, s: usize, opt: bool) -> bool {
        let here = self.province[s];
        for i in 0..self.attackers[here.index()].len() {
            let w = self.attackers[here.index()][i];
            if self.units[w].power == self.units[s].power || self.spared_by_2000_rule(w, s) {
                continue;
            }
            // A move across a half-strength border cuts no support; it may still dislodge.
            let across_half = self.half[w] && !self.is_convoyed(w);
            if !across_half && !self.attack_from_target(w, s) && self.path(r, w, !opt) {
                return false;
            }
            if r.resolve(self, w, !opt) {
                return false;
            }
        }
        true
    }

    /// Whether `w` attacks `s` from the province `s` supports a move into (no cut, unless
    /// DATC 4.A.4's other answer is chosen and `w` comes by convoy).
    pub fn attack_from_target(&self, w: usize, s: usize) -> bool {
        match self.command[s] {
            Command::SupportMove { to, .. } => {
                to == self.province[w]
                    && !(self.rules.convoyed_attack_cuts_support_against_itself
                        && self.is_convoyed(w))
            }
            _ => false,
        }
    }

    /// 2000 rulebook: "a convoyed army does not cut the support of a unit supporting an
    /// attack against one of the fleets necessary for the army to convoy".
    pub fn spared_by_2000_rule(&self, w: usize, s: usize) -> bool {
        if self.rules.convoy_paradox != ConvoyParadox::Rulebook2000 || !self.is_convoyed(w) {
            return false;
        }
        let Command::SupportMove { to, .. } = self.command[s] else {
            return false;
        };
        self.unit_at[to.index()].is_some_and(|f| self.necessary[w].contains(&f))
    }

    /// DATC 5.B.3: a convoy succeeds while its fleet is not dislodged.
    fn convoy_holds(&mut self, r: &mut Resolver, f: usize, opt: bool) -> bool {
        let here = self.province[f];
        for i in 0..self.attackers[here.index()].len() {
            let w = self.attackers[here.index()][i];
            if r.resolve(self, w, !opt) {
                return false;
            }
        }
        true
    }

    /// DATC 5.B.4.
    pub fn path(&mut self, r: &mut Resolver, u: usize, opt: bool) -> bool {
        if !self.is_convoyed(u) {
            return true;
        }
        let convoyers = self.convoyers[u].to_vec();
        if convoyers.is_empty() {
            return false;
        }
        let to = self.destination(u).expect("a move");
        let places: Vec<ProvinceId> = convoyers.iter().map(|f| self.province[*f]).collect();
        let mut up = Vec::with_capacity(convoyers.len());
        for f in &convoyers {
            up.push(!self.paradox[*f] && r.resolve(self, *f, opt));
        }
        let from = self.province[u];
        match self.rules.multi_route_convoy {
            MultiRouteConvoy::AllRoutesMustFail => {
                route_exists(self.map, from, to, &places, |i| up[i])
            }
            MultiRouteConvoy::AnyRouteDisrupts => {
                let on_route = on_minimal_route(self.map, from, to, &places);
                route_exists(self.map, from, to, &places, |i| up[i])
                    && on_route.iter().zip(&up).all(|(on, ok)| !on || *ok)
            }
        }
    }

    /// What a move of `u` weighs before its supports: a whole unit, or half across a
    /// half-strength border. Strengths are counted in halves (a unit 2, a support 2).
    fn base(&self, u: usize) -> u32 {
        if self.half[u] { 1 } else { 2 }
    }

    /// DATC 5.B.5 (in halves: see `base`).
    pub fn hold_strength(&mut self, r: &mut Resolver, p: ProvinceId, opt: bool) -> u32 {
        let Some(v) = self.unit_at[p.index()] else {
            return 0;
        };
        if self.is_move(v) {
            return if r.resolve(self, v, !opt) { 0 } else { 2 };
        }
        2 + self.count_supports(r, v, false, opt, None)
    }

    /// DATC 5.B.6.
    pub fn prevent_strength(&mut self, r: &mut Resolver, w: usize, opt: bool) -> u32 {
        if !self.path(r, w, opt) {
            return 0;
        }
        if let Some(x) = self.head_to_head(w) {
            if r.resolve(self, x, !opt) {
                return 0;
            }
        } else if self.rules.dislodged_never_affects_attacker_origin {
            let to = self.destination(w).expect("a move");
            if let Some(x) = self.unit_at[to.index()]
                && self.destination(x) == Some(self.province[w])
                && r.resolve(self, x, !opt)
            {
                return 0;
            }
        }
        self.base(w) + self.count_supports(r, w, true, opt, None)
    }

    /// DATC 5.B.7.
    pub fn defend_strength(&mut self, r: &mut Resolver, v: usize, opt: bool) -> u32 {
        self.base(v) + self.count_supports(r, v, true, opt, None)
    }

    /// DATC 5.B.8.
    pub fn attack_strength(&mut self, r: &mut Resolver, u: usize, opt: bool) -> u32 {
        if !self.path(r, u, opt) {
            return 0;
        }
        let to = self.destination(u).expect("a move");
        let Some(v) = self.unit_at[to.index()] else {
            return self.base(u) + self.count_supports(r, u, true, opt, None);
        };
        if self.head_to_head(u).is_none() && self.is_move(v) && r.resolve(self, v, opt) {
            return self.base(u) + self.count_supports(r, u, true, opt, None);
        }
        if self.units[v].power == self.units[u].power {
            return 0;
        }
        let defender = self.units[v].power;
        self.base(u) + self.count_supports(r, u, true, opt, Some(defender))
    }

    /// The strength the supports of `u` that are given add, in halves (2 a support).
    fn count_supports(
        &mut self,
        r: &mut Resolver,
        u: usize,
        of_move: bool,
        opt: bool,
        not_of: Option<crate::diplomacy::power::PowerId>,
    ) -> u32 {
        let supports = |board: &Self, i: usize| {
            let list = if of_move {
                &board.move_support[u]
            } else {
                &board.hold_support[u]
            };
            list.get(i).copied()
        };
        let mut n = 0;
        // By index: resolving a support needs the board, and the lists never change.
        let mut i = 0;
        while let Some(s) = supports(self, i) {
            i += 1;
            if not_of == Some(self.units[s].power) {
                continue;
            }
            if r.resolve(self, s, opt) {
                n += 2;
            }
        }
        n
    }
}
