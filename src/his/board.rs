//! The Here I Stand board the referee holds: political control, unrest, land units per power
//! and space (inside or outside the fortifications), army leaders, sieges, relations, and the
//! turn, impulse, active power and its CP. Cards, religion and naval play stay with the players
//! and the game master, who change this board with adjustments (`adjust.rs`).

use std::collections::BTreeSet;

use super::lang::{Case, commas, list};
use super::map::{LeaderId, Map, SpaceId, SpaceKind};
use super::power::{Diplomacy, Power};
use crate::message::{Arg, Message};
use crate::msg;

/// The kinds of land unit [R §5.2].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum UnitKind {
    Regular,
    /// Major powers other than the Ottoman.
    Mercenary,
    /// The Ottoman only.
    Cavalry,
}

impl UnitKind {
    pub const ALL: [UnitKind; 3] = [UnitKind::Regular, UnitKind::Mercenary, UnitKind::Cavalry];

    pub fn word(self, n: u32) -> &'static str {
        match (self, n == 1) {
            (UnitKind::Regular, true) => "regular",
            (UnitKind::Regular, false) => "regulars",
            (UnitKind::Mercenary, true) => "mercenary",
            (UnitKind::Mercenary, false) => "mercenaries",
            (UnitKind::Cavalry, _) => "cavalry",
        }
    }

    /// `n` units of this kind in words: `2 regulars`, `2 регулярные части`.
    pub fn count(self, n: u32) -> Message {
        match self {
            UnitKind::Regular => msg!("his.units.regulars", n = n),
            UnitKind::Mercenary => msg!("his.units.mercenaries", n = n),
            UnitKind::Cavalry => msg!("his.units.cavalry", n = n),
        }
    }
}

/// Land units of one power counted by kind (counters are fungible [spec §2.1 I]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Units {
    pub regulars: u32,
    pub mercenaries: u32,
    pub cavalry: u32,
}

impl Units {
    pub const NONE: Units = Units {
        regulars: 0,
        mercenaries: 0,
        cavalry: 0,
    };

    pub fn regulars(n: u32) -> Units {
        Units {
            regulars: n,
            ..Units::NONE
        }
    }

    pub fn total(self) -> u32 {
        self.regulars + self.mercenaries + self.cavalry
    }

    pub fn is_empty(self) -> bool {
        self.total() == 0
    }

    pub fn get(self, kind: UnitKind) -> u32 {
        match kind {
            UnitKind::Regular => self.regulars,
            UnitKind::Mercenary => self.mercenaries,
            UnitKind::Cavalry => self.cavalry,
        }
    }

    pub fn get_mut(&mut self, kind: UnitKind) -> &mut u32 {
        match kind {
            UnitKind::Regular => &mut self.regulars,
            UnitKind::Mercenary => &mut self.mercenaries,
            UnitKind::Cavalry => &mut self.cavalry,
        }
    }

    pub fn plus(self, other: Units) -> Units {
        Units {
            regulars: self.regulars + other.regulars,
            mercenaries: self.mercenaries + other.mercenaries,
            cavalry: self.cavalry + other.cavalry,
        }
    }

    /// `self - other`, if `other` fits in `self` kind by kind.
    pub fn minus(self, other: Units) -> Option<Units> {
        Some(Units {
            regulars: self.regulars.checked_sub(other.regulars)?,
            mercenaries: self.mercenaries.checked_sub(other.mercenaries)?,
            cavalry: self.cavalry.checked_sub(other.cavalry)?,
        })
    }

    pub fn contains(self, other: Units) -> bool {
        self.minus(other).is_some()
    }

    /// The part of `self` that fits in `limit`, kind by kind.
    pub fn min(self, limit: Units) -> Units {
        Units {
            regulars: self.regulars.min(limit.regulars),
            mercenaries: self.mercenaries.min(limit.mercenaries),
            cavalry: self.cavalry.min(limit.cavalry),
        }
    }

    /// `n` of these units taken in the order of `kinds` (the documented default casualties).
    pub fn take_in_order(self, mut n: u32, kinds: &[UnitKind]) -> Units {
        let mut out = Units::NONE;
        for &k in kinds {
            let t = self.get(k).min(n);
            *out.get_mut(k) = t;
            n -= t;
        }
        out
    }
}

impl Units {
    /// The units in words (keys `his.units.*`): `7 regulars 1 cavalry`, `7 регулярных частей
    /// и 1 кавалерийская часть`.
    pub fn describe(self) -> Message {
        let parts: Vec<Arg> = UnitKind::ALL
            .into_iter()
            .filter(|k| self.get(*k) > 0)
            .map(|k| Arg::Message(k.count(self.get(k))))
            .collect();
        if parts.is_empty() {
            return msg!("his.units.none");
        }
        let units = list(parts, |first, rest| {
            msg!("his.join.units", first = first, rest = rest)
        });
        msg!("his.units.some", units = units)
    }
}

/// Land units of one or more powers (a major power and its active minor allies) and army
/// leaders: a formation, a group avoiding battle, a set of losses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Force {
    /// Units by power, each power once, in power order.
    pub units: Vec<(Power, Units)>,
    pub leaders: Vec<LeaderId>,
}

impl Force {
    pub fn of(power: Power, units: Units) -> Force {
        let mut f = Force::default();
        f.add(power, units);
        f
    }

    pub fn add(&mut self, power: Power, units: Units) {
        if units.is_empty() {
            return;
        }
        match self.units.iter_mut().find(|(p, _)| *p == power) {
            Some((_, u)) => *u = u.plus(units),
            None => {
                self.units.push((power, units));
                self.units.sort_by_key(|(p, _)| *p);
            }
        }
    }

    pub fn units_of(&self, power: Power) -> Units {
        self.units
            .iter()
            .find(|(p, _)| *p == power)
            .map(|(_, u)| *u)
            .unwrap_or_default()
    }

    /// All land units, whatever their power.
    pub fn all_units(&self) -> Units {
        self.units
            .iter()
            .fold(Units::NONE, |acc, (_, u)| acc.plus(*u))
    }

    pub fn land_units(&self) -> u32 {
        self.all_units().total()
    }

    pub fn is_empty(&self) -> bool {
        self.land_units() == 0 && self.leaders.is_empty()
    }

    pub fn has_cavalry(&self) -> bool {
        self.all_units().cavalry > 0
    }

    /// The best battle rating among its leaders (0 without one).
    pub fn best_battle(&self, map: &Map) -> u32 {
        self.leaders
            .iter()
            .map(|l| map.leader(*l).battle)
            .max()
            .unwrap_or(0)
    }

    /// The most land units these leaders may command [R §5.1]: 4 without a leader, else the
    /// command rating of the one leader or the sum of the two highest.
    pub fn command_limit(&self, map: &Map) -> u32 {
        let mut ratings: Vec<u32> = self
            .leaders
            .iter()
            .map(|l| map.leader(*l).command)
            .collect();
        ratings.sort_unstable_by(|a, b| b.cmp(a));
        match ratings.as_slice() {
            [] => 4,
            [one] => *one,
            [a, b, ..] => a + b,
        }
    }

    /// The force in words, with leader names (keys `his.units.*`): units (with their power's
    /// name unless they are `main`'s, or the only units and no `main` is given), then leaders:
    /// `7 regulars 1 cavalry, Suleiman, Ibrahim Pasha`.
    pub fn describe(&self, map: &Map, main: Option<Power>) -> Message {
        let mut parts = Vec::new();
        for (p, u) in &self.units {
            if Some(*p) == main || self.units.len() == 1 && main.is_none() {
                parts.push(Arg::Message(u.describe()));
            } else {
                parts.push(Arg::Message(msg!(
                    "his.units.of",
                    power = p.named(Case::Nom),
                    units = u.describe()
                )));
            }
        }
        for l in &self.leaders {
            parts.push(Arg::Text(map.leader(*l).name.clone()));
        }
        if parts.is_empty() {
            return msg!("his.units.nobody");
        }
        msg!("his.units.some", units = commas(parts))
    }
}

/// What units and leaders did earlier in this impulse; cleared when the impulse ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Marks {
    /// Part of a formation that lost a field battle this impulse [R §13.1, §13.3].
    pub lost_battle: bool,
    /// Attempted an interception this impulse [R §13.2].
    pub intercepted: bool,
    /// Moved a space this impulse (Foul Weather limits them to one [C 31]).
    pub moved: bool,
    /// Placed a siege this impulse: may not move again [R §13.1].
    pub placed_siege: bool,
    /// Moved on past this fortified space, into which defenders withdrew: eliminated if
    /// forced to retreat back into it [R §13.4].
    pub passed_fortification: Option<SpaceId>,
}

/// Some land units of one power in one space with the same marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detachment {
    pub space: SpaceId,
    pub power: Power,
    /// Inside the fortifications (besieged, or withdrawn in after a battle).
    pub inside: bool,
    pub marks: Marks,
    pub units: Units,
}

/// Where a leader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderPlace {
    /// On the map, inside the fortifications or not.
    Space { space: SpaceId, inside: bool },
    /// On a power's card, captured [R §14 step 10].
    Captured { by: Power },
    /// Not on the map (not yet in play, removed, dead).
    Away,
}

/// A leader's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderState {
    pub id: LeaderId,
    /// The power he serves now.
    pub power: Power,
    pub place: LeaderPlace,
    pub marks: Marks,
}

/// A siege [R §15].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Siege {
    pub space: SpaceId,
    pub besiegers: Vec<Power>,
    /// The impulse in which the siege began (no assault in that impulse [R §15.1]).
    pub since_impulse: u32,
}

/// Effects lasting until the end of the impulse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Foul Weather was played on the active power [C 31].
    pub foul_weather: bool,
    /// Leaders struck by Gout [C 32].
    pub gout: Vec<LeaderId>,
}

/// The board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub turn: u32,
    /// Counts impulses through the game (a siege remembers the one it began in).
    pub impulse: u32,
    pub active: Power,
    /// CP the active power has left in this impulse.
    pub cp: u32,
    /// The political controller of each space (`Power::Independent` for none), by space index.
    pub control: Vec<Power>,
    pub unrest: Vec<bool>,
    /// Spaces fortified by events (Trace Italienne, Knights of St. John).
    pub extra_fortified: BTreeSet<SpaceId>,
    pub diplomacy: Diplomacy,
    pub detachments: Vec<Detachment>,
    pub leaders: Vec<LeaderState>,
    pub sieges: Vec<Siege>,
    pub effects: Effects,
    /// The Ottoman has played Janissaries this turn.
    pub janissaries_used: bool,
}

impl Board {
    /// An empty board: every space controlled by its home power, no units, every leader off the
    /// map, starting relations (`Diplomacy::new`), turn 1, impulse 1, the Ottoman active with 0 CP.
    pub fn new(map: &Map) -> Board {
        Board {
            turn: 1,
            impulse: 1,
            active: Power::Ottoman,
            cp: 0,
            control: map.spaces.iter().map(|s| s.home).collect(),
            unrest: vec![false; map.spaces.len()],
            extra_fortified: BTreeSet::new(),
            diplomacy: Diplomacy::new(),
            detachments: Vec::new(),
            leaders: map
                .leader_ids()
                .map(|id| LeaderState {
                    id,
                    power: map.leader(id).power.unwrap_or(Power::Independent),
                    place: LeaderPlace::Away,
                    marks: Marks::default(),
                })
                .collect(),
            sieges: Vec::new(),
            effects: Effects::default(),
            janissaries_used: false,
        }
    }

    /// The 1517 scenario as far as the specification gives it: political control by home power
    /// (Oran and Tripoli Hapsburg), the Ottoman at war with Hungary-Bohemia, every minor power
    /// inactive, turn 1. The specification has no deployment of units and leaders; the game
    /// master places them with adjustments.
    pub fn scenario_1517(map: &Map) -> Board {
        Board::new(map)
    }

    pub fn controller(&self, space: SpaceId) -> Power {
        self.control[space.index()]
    }

    pub fn in_unrest(&self, space: SpaceId) -> bool {
        self.unrest[space.index()]
    }

    /// Fortified: a key, capital, electorate or fortress, or fortified by an event.
    pub fn fortified(&self, map: &Map, space: SpaceId) -> bool {
        map.space(space).kind.fortified() || self.extra_fortified.contains(&space)
    }

    pub fn is_electorate(&self, map: &Map, space: SpaceId) -> bool {
        map.space(space).kind == SpaceKind::Electorate
    }

    pub fn siege(&self, space: SpaceId) -> Option<&Siege> {
        self.sieges.iter().find(|s| s.space == space)
    }

    pub fn leader(&self, id: LeaderId) -> &LeaderState {
        &self.leaders[id.index()]
    }

    pub fn leader_mut(&mut self, id: LeaderId) -> &mut LeaderState {
        &mut self.leaders[id.index()]
    }

    /// Land units of `power` in `space`, inside or outside the fortifications.
    pub fn units(&self, space: SpaceId, power: Power, inside: bool) -> Units {
        self.units_where(space, power, inside, |_| true)
    }

    /// Land units of `power` in `space` whose marks pass `keep`.
    pub fn units_where(
        &self,
        space: SpaceId,
        power: Power,
        inside: bool,
        keep: impl Fn(&Marks) -> bool,
    ) -> Units {
        self.detachments
            .iter()
            .filter(|d| {
                d.space == space && d.power == power && d.inside == inside && keep(&d.marks)
            })
            .fold(Units::NONE, |acc, d| acc.plus(d.units))
    }

    /// The powers with land units in `space` (inside or outside as asked), in power order.
    pub fn powers_in(&self, space: SpaceId, inside: bool) -> Vec<Power> {
        let mut out: Vec<Power> = self
            .detachments
            .iter()
            .filter(|d| d.space == space && d.inside == inside && !d.units.is_empty())
            .map(|d| d.power)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The powers with land units in `space`, inside or outside.
    pub fn powers_anywhere_in(&self, space: SpaceId) -> Vec<Power> {
        let mut out = self.powers_in(space, false);
        out.extend(self.powers_in(space, true));
        out.sort();
        out.dedup();
        out
    }

    /// All land units in `space` (inside or outside as asked), by power.
    pub fn force_in(&self, space: SpaceId, inside: bool) -> Force {
        let mut f = Force::default();
        for d in &self.detachments {
            if d.space == space && d.inside == inside {
                f.add(d.power, d.units);
            }
        }
        f.leaders = self.leaders_in(space, inside);
        f
    }

    /// Leaders in `space`, inside or outside the fortifications.
    pub fn leaders_in(&self, space: SpaceId, inside: bool) -> Vec<LeaderId> {
        self.leaders
            .iter()
            .filter(|l| l.place == LeaderPlace::Space { space, inside })
            .map(|l| l.id)
            .collect()
    }

    /// Adds land units (merging them with a detachment of the same marks).
    pub fn add_units(
        &mut self,
        space: SpaceId,
        power: Power,
        inside: bool,
        marks: Marks,
        units: Units,
    ) {
        if units.is_empty() {
            return;
        }
        if let Some(d) = self.detachments.iter_mut().find(|d| {
            d.space == space && d.power == power && d.inside == inside && d.marks == marks
        }) {
            d.units = d.units.plus(units);
            return;
        }
        self.detachments.push(Detachment {
            space,
            power,
            inside,
            marks,
            units,
        });
        self.detachments
            .sort_by_key(|d| (d.space, d.power, d.inside, d.marks));
    }

    /// Takes `units` of `power` out of `space`, only from detachments whose marks pass `keep`,
    /// those with the fewest marks first; returns the parts taken (with their marks), or `None`
    /// (and takes nothing) if there are not enough.
    pub fn take_units(
        &mut self,
        space: SpaceId,
        power: Power,
        inside: bool,
        units: Units,
        keep: impl Fn(&Marks) -> bool,
    ) -> Option<Vec<Detachment>> {
        if !self
            .units_where(space, power, inside, &keep)
            .contains(units)
        {
            return None;
        }
        let mut order: Vec<usize> = (0..self.detachments.len())
            .filter(|&i| {
                let d = &self.detachments[i];
                d.space == space && d.power == power && d.inside == inside && keep(&d.marks)
            })
            .collect();
        order.sort_by_key(|&i| mark_count(&self.detachments[i].marks));
        let mut wanted = units;
        let mut taken = Vec::new();
        for i in order {
            let d = &mut self.detachments[i];
            let part = d.units.min(wanted);
            if part.is_empty() {
                continue;
            }
            d.units = d.units.minus(part).unwrap_or_default();
            wanted = wanted.minus(part).unwrap_or_default();
            taken.push(Detachment {
                units: part,
                ..d.clone()
            });
        }
        self.detachments.retain(|d| !d.units.is_empty());
        Some(taken)
    }

    /// Puts detachments taken with `take_units` into `space`, changing their marks with `mark`.
    pub fn put_detachments(
        &mut self,
        parts: Vec<Detachment>,
        space: SpaceId,
        inside: bool,
        mark: impl Fn(&mut Marks),
    ) {
        for mut d in parts {
            mark(&mut d.marks);
            self.add_units(space, d.power, inside, d.marks, d.units);
        }
    }

    /// Changes the marks of all units of `power` in `space` (inside or outside).
    pub fn mark_units(
        &mut self,
        space: SpaceId,
        power: Power,
        inside: bool,
        mark: impl Fn(&mut Marks),
    ) {
        let mut moved = Vec::new();
        self.detachments.retain(|d| {
            if d.space == space && d.power == power && d.inside == inside {
                moved.push(d.clone());
                false
            } else {
                true
            }
        });
        for mut d in moved {
            mark(&mut d.marks);
            self.add_units(d.space, d.power, d.inside, d.marks, d.units);
        }
    }

    /// Removes units of `power` in `space`, in the order of `kinds`, as losses; returns them.
    pub fn remove_units(
        &mut self,
        space: SpaceId,
        power: Power,
        inside: bool,
        units: Units,
    ) -> bool {
        self.take_units(space, power, inside, units, |_| true)
            .is_some()
    }

    /// Moves units of `power` in `space` in or out of the fortifications.
    pub fn set_inside(
        &mut self,
        space: SpaceId,
        power: Power,
        from_inside: bool,
        units: Units,
    ) -> bool {
        match self.take_units(space, power, from_inside, units, |_| true) {
            Some(parts) => {
                self.put_detachments(parts, space, !from_inside, |_| {});
                true
            }
            None => false,
        }
    }

    /// Clears the marks and effects of the impulse and moves on to the next impulse of `active`
    /// with `cp` CP.
    pub fn next_impulse(&mut self, active: Power, cp: u32) {
        let parts = std::mem::take(&mut self.detachments);
        for d in parts {
            self.add_units(d.space, d.power, d.inside, Marks::default(), d.units);
        }
        for l in &mut self.leaders {
            l.marks = Marks::default();
        }
        self.effects = Effects::default();
        self.impulse += 1;
        self.active = active;
        self.cp = cp;
    }

    /// Units inside fortifications that no siege holds and that no enemy faces come out (units
    /// are inside only while besieged or while an enemy stands in the space). Run after each move.
    pub fn tidy(&mut self) {
        let spaces: Vec<SpaceId> = {
            let mut v: Vec<SpaceId> = self
                .detachments
                .iter()
                .filter(|d| d.inside)
                .map(|d| d.space)
                .chain(self.leaders.iter().filter_map(|l| match l.place {
                    LeaderPlace::Space {
                        space,
                        inside: true,
                    } => Some(space),
                    _ => None,
                }))
                .collect();
            v.sort();
            v.dedup();
            v
        };
        for space in spaces {
            if self.siege(space).is_some() {
                continue;
            }
            let inside = self.powers_in(space, true);
            let outside = self.powers_in(space, false);
            let inside_leaders: Vec<Power> = self
                .leaders_in(space, true)
                .iter()
                .map(|l| self.leader(*l).power)
                .collect();
            let faced = outside.iter().any(|o| {
                inside
                    .iter()
                    .chain(inside_leaders.iter())
                    .any(|i| self.diplomacy.enemies(*o, *i))
            });
            if faced {
                continue;
            }
            for p in inside {
                let u = self.units(space, p, true);
                self.set_inside(space, p, true, u);
            }
            for l in self.leaders_in(space, true) {
                self.leader_mut(l).place = LeaderPlace::Space {
                    space,
                    inside: false,
                };
            }
        }
        self.detachments.retain(|d| !d.units.is_empty());
    }
}

fn mark_count(m: &Marks) -> u32 {
    m.lost_battle as u32
        + m.intercepted as u32
        + m.moved as u32
        + m.placed_siege as u32
        + m.passed_fortification.is_some() as u32
}
