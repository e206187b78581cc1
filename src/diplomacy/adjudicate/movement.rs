//! Movement phases: orders checked against the board, then resolved.
//!
//! Checking (`Board::new`) turns each submitted order into a command for its unit or an
//! illegal outcome. Resolving follows DATC v3.0 section 5: the conditions of 5.B, decided
//! by the partial-information algorithm of 5.E in `resolver.rs`.

use super::convoy::{can_convoy_from, on_minimal_route, route_exists};
use super::outcome::{Illegal, Outcome, RetreatOptions};
use super::resolver::{Decide, Resolver};
use super::{Resolution, Submitted};
use crate::diplomacy::map::{Map, ProvinceId, RegionId, Terrain};
use crate::diplomacy::order::{Action, Location, Order};
use crate::diplomacy::position::{Dislodgement, Position};
use crate::diplomacy::rules::{ConvoyParadox, MultiRouteConvoy, Rules};
use crate::diplomacy::unit::{Unit, UnitKind};

/// What a unit does this phase, once its order has been checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Hold,
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
    pub units: &'a [Unit],
    pub province: Vec<ProvinceId>,
    pub unit_at: Vec<Option<usize>>,
    pub command: Vec<Command>,
    /// Units ordered to move into each province.
    pub attackers: Vec<Vec<usize>>,
    /// Supports of each unit's hold that match (the unit does not move).
    pub hold_support: Vec<Vec<usize>>,
    /// Supports of each unit's move that match it.
    pub move_support: Vec<Vec<usize>>,
    /// For each convoyed move, the fleets ordered to convoy it.
    pub convoyers: Vec<Vec<usize>>,
    /// For each convoyed move, the fleets without which no route remains (2000 rulebook).
    pub necessary: Vec<Vec<usize>>,
    /// Convoys taken out by the Szykman rule.
    pub paradox: Vec<bool>,
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

impl<'a> Board<'a> {
    /// Checks every order; returns the board, the outcomes known so far (illegal ones), and
    /// for each unit the index of the order in force.
    fn new(
        map: &'a Map,
        rules: &'a Rules,
        position: &'a Position,
        orders: &[Submitted],
    ) -> (Board<'a>, Vec<Outcome>, Vec<Option<usize>>) {
        let units = position.units.as_slice();
        let n = units.len();
        let mut unit_at = vec![None; map.n_provinces()];
        let province: Vec<ProvinceId> = units.iter().map(|u| map.province_of(u.region)).collect();
        for (i, p) in province.iter().enumerate() {
            unit_at[p.index()] = Some(i);
        }
        let mut board = Board {
            map,
            rules,
            units,
            province,
            unit_at,
            command: vec![Command::Hold; n],
            attackers: vec![Vec::new(); map.n_provinces()],
            hold_support: vec![Vec::new(); n],
            move_support: vec![Vec::new(); n],
            convoyers: vec![Vec::new(); n],
            necessary: vec![Vec::new(); n],
            paradox: vec![false; n],
        };
        let mut outcomes = vec![Outcome::Held; orders.len()];
        let mut in_force: Vec<Option<usize>> = vec![None; n];
        for (i, submitted) in orders.iter().enumerate() {
            match board.check(submitted) {
                Ok((u, command)) => {
                    if let Some(earlier) = in_force[u] {
                        outcomes[earlier] = Outcome::Superseded;
                    }
                    in_force[u] = Some(i);
                    board.command[u] = command;
                }
                Err(illegal) => outcomes[i] = Outcome::Illegal(illegal),
            }
        }
        board.link();
        (board, outcomes, in_force)
    }

    /// Checks one order against the board (DATC 4.E.1: could it be valid at all?).
    fn check(&self, submitted: &Submitted) -> Result<(usize, Command), Illegal> {
        let Order::Unit(order) = &submitted.order else {
            return Err(Illegal::WrongPhase);
        };
        let u = self.unit_at[order.at.province.index()].ok_or(Illegal::NoUnit)?;
        if self.units[u].power != submitted.power {
            return Err(Illegal::ForeignUnit);
        }
        let command = match &order.action {
            Action::Hold => Command::Hold,
            Action::Move { to, via_convoy } => self.check_move(u, *to, *via_convoy)?,
            Action::SupportHold { at, .. } => self.check_support_hold(u, *at)?,
            Action::SupportMove { from, to, .. } => self.check_support_move(u, *from, *to)?,
            Action::Convoy { from, to } => self.check_convoy(u, *from, *to)?,
            Action::Retreat { .. } | Action::Disband | Action::Build => {
                return Err(Illegal::WrongPhase);
            }
        };
        Ok((u, command))
    }

    fn check_move(&self, u: usize, to: Location, via_convoy: bool) -> Result<Command, Illegal> {
        let unit = self.units[u];
        let from = self.province[u];
        if to.province == from {
            return Err(Illegal::MoveToSelf);
        }
        let terrain = self.map.province(to.province).terrain;
        match unit.kind {
            UnitKind::Army => {
                if matches!(terrain, Terrain::Sea | Terrain::Impassable) {
                    return Err(Illegal::WrongTerrain);
                }
                let region = self.map.province(to.province).region;
                let adjacent = self.map.is_adjacent(UnitKind::Army, unit.region, region);
                if !adjacent && !self.convoy_possible(from, to.province, None) {
                    return Err(Illegal::Unreachable);
                }
                // Whether an adjacent move goes by convoy is settled in `link`.
                Ok(Command::Move {
                    to: to.province,
                    region,
                    convoyed: !adjacent || via_convoy,
                })
            }
            UnitKind::Fleet => {
                if matches!(terrain, Terrain::Land | Terrain::Impassable) {
                    return Err(Illegal::Unreachable);
                }
                let region = self.fleet_destination(unit.region, to)?;
                Ok(Command::Move {
                    to: to.province,
                    region,
                    convoyed: false,
                })
            }
        }
    }

    /// The region a fleet move goes to, applying DATC 4.B.1 to 4.B.3.
    fn fleet_destination(&self, from: RegionId, to: Location) -> Result<RegionId, Illegal> {
        let province = self.map.province(to.province);
        if province.coasts.is_empty() {
            return if self.map.is_adjacent(UnitKind::Fleet, from, province.region) {
                Ok(province.region)
            } else {
                Err(Illegal::Unreachable)
            };
        }
        let reachable: Vec<RegionId> = province
            .coasts
            .iter()
            .copied()
            .filter(|c| self.map.is_adjacent(UnitKind::Fleet, from, *c))
            .collect();
        match (to.coast, reachable.as_slice()) {
            (_, []) => Err(Illegal::Unreachable),
            (Some(coast), _) if reachable.contains(&coast) => Ok(coast),
            (Some(_), _) => Err(Illegal::CoastUnreachable),
            (None, [only]) => Ok(*only),
            (None, _) => Err(Illegal::CoastNeeded),
        }
    }

    /// Whether some chain of fleets now at sea could carry an army (ignoring `without`).
    fn convoy_possible(&self, from: ProvinceId, to: ProvinceId, without: Option<usize>) -> bool {
        let fleets: Vec<ProvinceId> = self
            .sea_fleets()
            .filter(|f| Some(*f) != without)
            .map(|f| self.province[f])
            .collect();
        route_exists(self.map, from, to, &fleets, |_| true)
    }

    fn sea_fleets(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.units.len()).filter(|f| {
            self.units[*f].kind == UnitKind::Fleet && can_convoy_from(self.map, self.province[*f])
        })
    }

    fn check_support_hold(&self, u: usize, at: Location) -> Result<Command, Illegal> {
        let target = at.province;
        if target == self.province[u] {
            return Err(Illegal::SupportSelf);
        }
        if self.unit_at[target.index()].is_none() {
            return Err(Illegal::NoSupportedUnit);
        }
        if !self
            .map
            .reaches_province(self.units[u].kind, self.units[u].region, target)
        {
            return Err(Illegal::SupportUnreachable);
        }
        Ok(Command::SupportHold { target })
    }

    fn check_support_move(
        &self,
        u: usize,
        from: Location,
        to: Location,
    ) -> Result<Command, Illegal> {
        let here = self.province[u];
        if from.province == here || to.province == here {
            return Err(Illegal::SupportSelf);
        }
        let Some(supported) = self.unit_at[from.province.index()] else {
            return Err(Illegal::NoSupportedUnit);
        };
        if from.province == to.province {
            return Err(Illegal::SupportedMoveImpossible);
        }
        if !self
            .map
            .reaches_province(self.units[u].kind, self.units[u].region, to.province)
        {
            return Err(Illegal::SupportUnreachable);
        }
        let other = self.units[supported];
        let possible = match other.kind {
            UnitKind::Fleet => {
                self.map
                    .reaches_province(UnitKind::Fleet, other.region, to.province)
            }
            UnitKind::Army => {
                let terrain = self.map.province(to.province).terrain;
                !matches!(terrain, Terrain::Sea | Terrain::Impassable)
                    && (self
                        .map
                        .reaches_province(UnitKind::Army, other.region, to.province)
                        || self.convoy_possible(from.province, to.province, Some(u)))
            }
        };
        if !possible {
            return Err(Illegal::SupportedMoveImpossible);
        }
        if self.rules.support_must_name_coast
            && other.kind == UnitKind::Fleet
            && to.coast.is_none()
            && !self.map.province(to.province).coasts.is_empty()
        {
            return Err(Illegal::CoastNeeded);
        }
        Ok(Command::SupportMove {
            from: from.province,
            to: to.province,
            coast: to.coast,
        })
    }

    fn check_convoy(&self, u: usize, from: Location, to: Location) -> Result<Command, Illegal> {
        if self.units[u].kind != UnitKind::Fleet || !can_convoy_from(self.map, self.province[u]) {
            return Err(Illegal::ConvoyerNotAtSea);
        }
        let Some(army) = self.unit_at[from.province.index()] else {
            return Err(Illegal::NoSupportedUnit);
        };
        if self.units[army].kind != UnitKind::Army {
            return Err(Illegal::NotAnArmy);
        }
        if from.province == to.province
            || matches!(
                self.map.province(to.province).terrain,
                Terrain::Sea | Terrain::Impassable
            )
        {
            return Err(Illegal::NotOnConvoyRoute);
        }
        let fleets: Vec<usize> = self.sea_fleets().collect();
        let places: Vec<ProvinceId> = fleets.iter().map(|f| self.province[*f]).collect();
        let on_route = on_minimal_route(self.map, from.province, to.province, &places);
        let mine = fleets.iter().position(|f| *f == u);
        if !mine.is_some_and(|i| on_route[i]) {
            return Err(Illegal::NotOnConvoyRoute);
        }
        Ok(Command::Convoy {
            from: from.province,
            to: to.province,
        })
    }

    /// Decides which moves are convoyed (2000 rulebook: an own fleet's convoy or `via
    /// convoy` shows intent) and collects attackers, matching supports and convoys.
    fn link(&mut self) {
        let n = self.units.len();
        for u in 0..n {
            let Command::Move {
                to,
                region,
                convoyed,
            } = self.command[u]
            else {
                continue;
            };
            if self.units[u].kind != UnitKind::Army {
                continue;
            }
            let adjacent = self
                .map
                .is_adjacent(UnitKind::Army, self.units[u].region, region);
            if adjacent && !convoyed {
                // 2000 rulebook: a convoy by one of the army's own fleets shows intent.
                let own_fleet = (0..n).any(|f| {
                    self.units[f].power == self.units[u].power
                        && self.command[f]
                            == Command::Convoy {
                                from: self.province[u],
                                to,
                            }
                });
                self.command[u] = Command::Move {
                    to,
                    region,
                    convoyed: own_fleet,
                };
            }
        }
        for u in 0..n {
            if let Command::Move { to, .. } = self.command[u] {
                self.attackers[to.index()].push(u);
            }
        }
        for s in 0..n {
            match self.command[s] {
                Command::SupportHold { target } => {
                    let t = self.unit_at[target.index()].expect("checked: a unit is there");
                    if !matches!(self.command[t], Command::Move { .. }) {
                        self.hold_support[t].push(s);
                    }
                }
                Command::SupportMove { from, to, coast } => {
                    let m = self.unit_at[from.index()].expect("checked: a unit is there");
                    if let Command::Move {
                        to: dest, region, ..
                    } = self.command[m]
                    {
                        let coast_matches = coast.is_none_or(|c| c == region);
                        if dest == to && coast_matches {
                            self.move_support[m].push(s);
                        }
                    }
                }
                _ => {}
            }
        }
        for f in 0..n {
            if let Command::Convoy { from, to } = self.command[f] {
                let a = self.unit_at[from.index()].expect("checked: an army is there");
                if self.command[a]
                    == (Command::Move {
                        to,
                        region: self.map.province(to).region,
                        convoyed: true,
                    })
                {
                    self.convoyers[a].push(f);
                }
            }
        }
        if self.rules.convoy_paradox == ConvoyParadox::Rulebook2000 {
            for a in 0..n {
                let places: Vec<ProvinceId> = self.convoyers[a]
                    .iter()
                    .map(|f| self.province[*f])
                    .collect();
                let Command::Move { to, .. } = self.command[a] else {
                    continue;
                };
                for (i, f) in self.convoyers[a].iter().enumerate() {
                    if !route_exists(self.map, self.province[a], to, &places, |j| j != i) {
                        self.necessary[a].push(*f);
                    }
                }
            }
        }
    }

    pub fn origin(&self, u: usize) -> ProvinceId {
        self.province[u]
    }

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
            Command::Hold => true,
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
            if !self.attack_from_target(w, s) && self.path(r, w, !opt) {
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
        let convoyers = self.convoyers[u].clone();
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

    /// DATC 5.B.5.
    fn hold_strength(&mut self, r: &mut Resolver, p: ProvinceId, opt: bool) -> u32 {
        let Some(v) = self.unit_at[p.index()] else {
            return 0;
        };
        if self.is_move(v) {
            return if r.resolve(self, v, !opt) { 0 } else { 1 };
        }
        1 + self.count_supports(r, v, false, opt, None)
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
            if let Some(x) = self.unit_at[to.index()] {
                if self.destination(x) == Some(self.province[w]) && r.resolve(self, x, !opt) {
                    return 0;
                }
            }
        }
        1 + self.count_supports(r, w, true, opt, None)
    }

    /// DATC 5.B.7.
    fn defend_strength(&mut self, r: &mut Resolver, v: usize, opt: bool) -> u32 {
        1 + self.count_supports(r, v, true, opt, None)
    }

    /// DATC 5.B.8.
    pub fn attack_strength(&mut self, r: &mut Resolver, u: usize, opt: bool) -> u32 {
        if !self.path(r, u, opt) {
            return 0;
        }
        let to = self.destination(u).expect("a move");
        let Some(v) = self.unit_at[to.index()] else {
            return 1 + self.count_supports(r, u, true, opt, None);
        };
        if self.head_to_head(u).is_none() && self.is_move(v) && r.resolve(self, v, opt) {
            return 1 + self.count_supports(r, u, true, opt, None);
        }
        if self.units[v].power == self.units[u].power {
            return 0;
        }
        let defender = self.units[v].power;
        1 + self.count_supports(r, u, true, opt, Some(defender))
    }

    fn count_supports(
        &mut self,
        r: &mut Resolver,
        u: usize,
        of_move: bool,
        opt: bool,
        not_of: Option<crate::diplomacy::power::PowerId>,
    ) -> u32 {
        let list = if of_move {
            &self.move_support[u]
        } else {
            &self.hold_support[u]
        };
        let list = list.clone();
        let mut n = 0;
        for s in list {
            if not_of == Some(self.units[s].power) {
                continue;
            }
            if r.resolve(self, s, opt) {
                n += 1;
            }
        }
        n
    }
}

impl Board<'_> {
    /// Fills in the outcome of every order in force.
    fn report(&mut self, success: &[bool], in_force: &[Option<usize>], outcomes: &mut [Outcome]) {
        let mut r = Resolver::settled(success);
        for u in 0..self.units.len() {
            let Some(i) = in_force[u] else { continue };
            outcomes[i] = self.outcome_of(&mut r, u, success);
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
        for w in self.attackers[here.index()].clone() {
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
    fn bounced_by(&mut self, r: &mut Resolver, u: usize, to: ProvinceId) -> Vec<ProvinceId> {
        let attack = self.attack_strength(r, u, true);
        let mut by = Vec::new();
        if let Some(v) = self.unit_at[to.index()] {
            let defence = match self.head_to_head(u) {
                Some(v) => self.defend_strength(r, v, true),
                None => self.hold_strength(r, to, true),
            };
            if attack == 0 || attack <= defence {
                by.push(self.province[v]);
            }
        }
        for w in self.attackers[to.index()].clone() {
            if w != u && attack <= self.prevent_strength(r, w, true) {
                by.push(self.province[w]);
            }
        }
        by
    }

    /// The units after the phase, and the dislodged units with their retreats.
    fn position_after(
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
        let mut r = Resolver::settled(success);
        let mut contested = Vec::new();
        for p in 0..self.map.n_provinces() {
            if occupied[p] {
                continue;
            }
            let bounced = self.attackers[p]
                .clone()
                .into_iter()
                .any(|w| !success[w] && self.prevent_strength(&mut r, w, true) > 0);
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
        after.dislodged = options.iter().map(|o| o.dislodgement).collect();
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
