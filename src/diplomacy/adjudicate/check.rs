//! Checking a movement phase's orders against the board (DATC 4.E.1: could the order be
//! valid at all?), then linking them: which moves go by convoy, which supports and convoys
//! match the orders they name.

use super::Submitted;
use super::convoy::{can_convoy_from, on_minimal_route, route_exists};
use super::movement::{Board, Command, Lists, Work};
use super::outcome::{Illegal, Outcome};
use crate::diplomacy::map::{Map, ProvinceId, RegionId, Terrain};
use crate::diplomacy::order::{Action, Location, Order};
use crate::diplomacy::position::Position;
use crate::diplomacy::rules::{ConvoyParadox, Rules};
use crate::diplomacy::unit::UnitKind;

impl<'a> Board<'a> {
    /// Checks every order; returns the board, the outcomes known so far (illegal ones), and
    /// for each unit the index of the order in force.
    pub(super) fn new(
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
            position,
            units,
            province,
            unit_at,
            command: vec![Command::Hold; n],
            attackers: Lists::default(),
            hold_support: Lists::default(),
            move_support: Lists::default(),
            convoyers: Lists::default(),
            necessary: Lists::default(),
            paradox: vec![false; n],
            half: vec![false; n],
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
            Action::Destroy => self.check_work(u, Work::Destroy)?,
            Action::Restore => self.check_work(u, Work::Restore)?,
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

    /// Destroy (`Z`) or restore (`R`) the centre the unit stands in, where the variant allows.
    fn check_work(&self, u: usize, work: Work) -> Result<Command, Illegal> {
        if !self.rules.destroy_and_restore {
            return Err(Illegal::NotInThisVariant);
        }
        let here = self.province[u];
        let Some(centre) = &self.map.province(here).centre else {
            return Err(Illegal::NotACentre);
        };
        let destroyed = self.position.destroyed.contains(&here);
        match work {
            Work::Destroy if centre.indestructible => Err(Illegal::Indestructible),
            Work::Destroy if destroyed => Err(Illegal::AlreadyDestroyed),
            Work::Restore if !destroyed => Err(Illegal::NotDestroyed),
            _ => Ok(Command::Work(work)),
        }
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
                if via_convoy {
                    return Err(Illegal::FleetViaConvoy);
                }
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
            || self.map.is_half_strength(self.province[u], target)
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
            || self.map.is_half_strength(here, to.province)
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
        // The fleets ordered to convoy, looked through for each army's move (few, mostly none).
        let convoying: Vec<usize> = (0..n)
            .filter(|&f| matches!(self.command[f], Command::Convoy { .. }))
            .collect();
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
                let own_fleet = convoying.iter().any(|&f| {
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
        // (key, unit) pairs of each list, in unit order; one vector serves them all.
        let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(n);
        pairs.extend((0..n).filter_map(|u| match self.command[u] {
            Command::Move { to, .. } => Some((to.index(), u)),
            _ => None,
        }));
        self.attackers = Lists::from_pairs(self.map.n_provinces(), &pairs);
        pairs.clear();
        for s in 0..n {
            if let Command::SupportHold { target } = self.command[s] {
                let t = self.unit_at[target.index()].expect("checked: a unit is there");
                if !matches!(self.command[t], Command::Move { .. }) {
                    pairs.push((t, s));
                }
            }
        }
        self.hold_support = Lists::from_pairs(n, &pairs);
        pairs.clear();
        for s in 0..n {
            if let Command::SupportMove { from, to, coast } = self.command[s] {
                let m = self.unit_at[from.index()].expect("checked: a unit is there");
                if let Command::Move {
                    to: dest, region, ..
                } = self.command[m]
                {
                    // DATC 4.B.6: a coast written for an army is ignored.
                    let coast_matches =
                        self.units[m].kind == UnitKind::Army || coast.is_none_or(|c| c == region);
                    if dest == to && coast_matches {
                        pairs.push((m, s));
                    }
                }
            }
        }
        self.move_support = Lists::from_pairs(n, &pairs);
        pairs.clear();
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
                    pairs.push((a, f));
                }
            }
        }
        self.convoyers = Lists::from_pairs(n, &pairs);
        pairs.clear();
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
                        pairs.push((a, *f));
                    }
                }
            }
        }
        self.necessary = Lists::from_pairs(n, &pairs);
        if !self.map.half_strength.is_empty() {
            self.mark_half_strength();
        }
    }

    /// Which moves go at half strength: across a half-strength border, or convoyed and
    /// reaching their destination from their convoying fleets only across one.
    fn mark_half_strength(&mut self) {
        for u in 0..self.units.len() {
            let Command::Move { to, convoyed, .. } = self.command[u] else {
                continue;
            };
            self.half[u] = if convoyed {
                let last: Vec<ProvinceId> = self.convoyers[u]
                    .iter()
                    .map(|f| self.province[*f])
                    .filter(|f| super::convoy::sea_link(self.map, *f, to))
                    .collect();
                !last.is_empty() && last.iter().all(|f| self.map.is_half_strength(*f, to))
            } else {
                self.map.is_half_strength(self.province[u], to)
            };
        }
    }
}
