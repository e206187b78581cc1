//! The course of a move, shared by every step below the procedure: the move as declared and as
//! it stands, the running context (the board being changed, the inputs, the record, the windows
//! opened and the dice asked for), and what the steps all do to forces: a side's forces in a
//! space, the spaces a force may not go to and why, lone leaders, going inside the
//! fortifications, laying a siege, the 2d6 check's modifiers. The steps (`check`,
//! `interception`, `avoid`, `battle`, `retreat`) import this and never one another; `movement`
//! runs them in order, `procedure` runs `movement` over the inputs.

use super::board::{Board, Force, LeaderPlace, Siege, Units};
use super::event::{Event, Modifier, Source};
use super::lang::Case;
use super::map::{LeaderId, Map, SpaceId};
use super::power::Power;
use super::question::{Answer, Question};
use super::standing::Standing;
use crate::message::Message;
use crate::msg;

/// A move as declared: `MOVE <units and leaders> FROM <space> TO <space>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    pub power: Power,
    pub force: Force,
    pub from: SpaceId,
    pub to: SpaceId,
}

/// A window: a question, who must answer it, who has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The n-th window of this move, from 1.
    pub number: u32,
    pub question: Question,
    pub asked: Vec<Power>,
    pub answered: Vec<Power>,
}

impl Window {
    /// The powers still to answer.
    pub fn waiting_for(&self) -> Vec<Power> {
        self.asked
            .iter()
            .filter(|p| !self.answered.contains(p))
            .copied()
            .collect()
    }
}

/// Dice to roll, with their purpose stated before the roll: what is rolled and the details
/// that make it up (a check's modifiers, a battle's units and leader, what the faces mean), as
/// `docs/dice.md` writes a purpose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceRequest {
    /// The n-th roll of this move, from 1.
    pub number: u32,
    pub dice: u32,
    /// For whom.
    pub power: Power,
    /// What is rolled: `Hapsburg interception from Graz into Vienna`.
    pub what: String,
    /// Each detail, in English (a purpose feeds the dice): `+2 Charles V`.
    pub details: Vec<String>,
}

impl DiceRequest {
    /// The stated purpose, as the roll line gives it: `Hapsburg interception from Graz into
    /// Vienna: 2 dice, +2 Charles V, -1 against Ottoman cavalry`.
    pub fn purpose(&self) -> String {
        let details: Vec<&str> = self.details.iter().map(String::as_str).collect();
        crate::dice::purpose(&self.what, self.dice as usize, &details)
    }
}

/// How a procedure ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The move was refused as declared; the board is unchanged.
    Refused,
    /// The move was carried out (or cancelled after its CP were spent).
    Done,
}

/// One input to a procedure, in the order received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Answer {
        window: u32,
        power: Power,
        answer: Answer,
    },
    /// The window's deadline passed: the powers still silent get the default.
    Deadline {
        window: u32,
    },
    Dice {
        roll: u32,
        values: Vec<u8>,
    },
}

/// The move being resolved: who moves what where, and what is left of the formation.
#[derive(Clone, Debug)]
pub(super) struct Move {
    pub power: Power,
    pub from: SpaceId,
    pub to: SpaceId,
    /// The moving formation as it stands now (after Gout, after losses).
    pub force: Force,
}

/// How a battle ended, for the retreat that follows.
pub(super) struct Fought {
    /// The attacker won (more hits); else the defender won (a tie goes to it).
    pub attacker_won: bool,
    /// The defender that captures and decides for the defence as a whole.
    pub lead: Power,
    /// The defending sides, in impulse order.
    pub sides: Vec<Power>,
}

/// Why a run stopped before the end.
pub(super) enum Stop {
    Wait(Box<Window>),
    Roll(DiceRequest),
    /// The input for this window or roll does not fit it.
    Invalid(Message),
}

/// The running procedure: the board being changed, the inputs, the record.
pub(super) struct Cx<'a> {
    pub map: &'a Map,
    pub board: Board,
    standing: &'a Standing,
    inputs: &'a [Input],
    windows: u32,
    rolls: u32,
    pub log: Vec<Event>,
}

/// Checks an answer of a power to a window.
pub(super) type CheckAnswer<'f> = &'f dyn Fn(&Cx<'_>, Power, &Answer) -> Result<(), Message>;
/// The answer given when the deadline passes.
pub(super) type DefaultAnswer<'f> = &'f dyn Fn(&Cx<'_>, Power) -> Answer;

impl<'a> Cx<'a> {
    /// A run from `board` over `inputs`, with nothing recorded yet.
    pub fn new(map: &'a Map, board: Board, standing: &'a Standing, inputs: &'a [Input]) -> Self {
        Cx {
            map,
            board,
            standing,
            inputs,
            windows: 0,
            rolls: 0,
            log: Vec::new(),
        }
    }

    pub fn note(&mut self, event: Event) {
        self.log.push(event);
    }

    /// Opens a window: returns every asked power's answer (from its letter, its standing
    /// instructions, or the default once the deadline passed), or stops to wait for them.
    pub fn ask(
        &mut self,
        question: Question,
        asked: Vec<Power>,
        check: CheckAnswer<'_>,
        default: DefaultAnswer<'_>,
    ) -> Result<Vec<(Power, Answer)>, Stop> {
        self.windows += 1;
        let number = self.windows;
        let mut got: Vec<(Power, Answer, Source)> = Vec::new();
        let mut deadline = false;
        for input in self.inputs {
            match input {
                Input::Answer {
                    window,
                    power,
                    answer,
                } if *window == number => {
                    if !asked.contains(power) || got.iter().any(|(p, _, _)| p == power) {
                        return Err(Stop::Invalid(msg!(
                            "his.course.not_asked",
                            power = power.named(Case::Nom),
                            power_gen = power.named(Case::Gen),
                            window = number
                        )));
                    }
                    if let Err(why) = check(self, *power, answer) {
                        return Err(Stop::Invalid(why));
                    }
                    got.push((*power, answer.clone(), Source::Letter));
                }
                Input::Deadline { window } if *window == number => deadline = true,
                _ => {}
            }
        }
        for &p in &asked {
            if got.iter().any(|(q, _, _)| *q == p) {
                continue;
            }
            if let Some(a) = self.standing.answer(self.map, p, &question)
                && check(self, p, &a).is_ok()
            {
                got.push((p, a, Source::Standing));
            }
        }
        if got.len() < asked.len() {
            if !deadline {
                let answered = asked
                    .iter()
                    .filter(|p| got.iter().any(|(q, _, _)| q == *p))
                    .copied()
                    .collect();
                return Err(Stop::Wait(Box::new(Window {
                    number,
                    question,
                    asked,
                    answered,
                })));
            }
            for &p in &asked {
                if !got.iter().any(|(q, _, _)| *q == p) {
                    got.push((p, default(self, p), Source::Deadline));
                }
            }
        }
        let mut out = Vec::new();
        for &p in &asked {
            if let Some((_, a, source)) = got.iter().find(|(q, _, _)| *q == p) {
                self.log.push(Event::Answered {
                    window: number,
                    power: p,
                    answer: a.clone(),
                    source: *source,
                });
                out.push((p, a.clone()));
            }
        }
        Ok(out)
    }

    /// Asks one power; returns its answer.
    pub fn ask_one(
        &mut self,
        question: Question,
        power: Power,
        check: CheckAnswer<'_>,
        default: DefaultAnswer<'_>,
    ) -> Result<Answer, Stop> {
        let mut answers = self.ask(question, vec![power], check, default)?;
        Ok(answers.pop().map(|(_, a)| a).unwrap_or(Answer::Decline))
    }

    /// Rolls `dice` dice for `power`: `what` is rolled, with these details (in English), all
    /// stated before the roll; stops until the dice are given.
    pub fn roll(
        &mut self,
        dice: u32,
        power: Power,
        what: String,
        details: Vec<String>,
    ) -> Result<Vec<u8>, Stop> {
        if dice == 0 {
            return Ok(Vec::new());
        }
        self.rolls += 1;
        let request = DiceRequest {
            number: self.rolls,
            dice,
            power,
            what,
            details,
        };
        for input in self.inputs {
            if let Input::Dice { roll, values } = input
                && *roll == request.number
            {
                self.log.push(Event::Rolled {
                    number: request.number,
                    purpose: request.purpose(),
                    values: values.clone(),
                });
                return Ok(values.clone());
            }
        }
        Err(Stop::Roll(request))
    }
}

/// Land units of `power` and its active minors in `space`.
pub(super) fn side_units(cx: &Cx<'_>, space: SpaceId, power: Power, inside: bool) -> u32 {
    let d = &cx.board.diplomacy;
    Power::ALL
        .into_iter()
        .filter(|p| *p == power || (d.acts(*p) && d.side(*p) == power))
        .map(|p| cx.board.units(space, p, inside).total())
        .sum()
}

/// The force of `power`'s side outside the fortifications of `space`: its units, its active
/// minors' units, its leaders.
pub(super) fn side_force(cx: &Cx<'_>, space: SpaceId, power: Power) -> Force {
    let d = &cx.board.diplomacy;
    let mut f = Force::default();
    for p in Power::ALL {
        if p == power || (d.acts(p) && d.side(p) == power) {
            f.add(p, cx.board.units(space, p, false));
        }
    }
    f.leaders = cx
        .board
        .leaders_in(space, false)
        .into_iter()
        .filter(|l| cx.board.leader(*l).power == power)
        .collect();
    f
}

/// The powers with land units outside the fortifications of the destination that are not
/// friendly to the mover: the defenders.
pub(super) fn defenders(cx: &Cx<'_>, mv: &Move) -> Vec<Power> {
    let d = &cx.board.diplomacy;
    cx.board
        .powers_in(mv.to, false)
        .into_iter()
        .filter(|p| !d.friendly(*p, mv.power))
        .collect()
}

/// Land units of powers hostile to `power` inside the fortifications of `space`.
pub(super) fn hostile_inside(cx: &Cx<'_>, space: SpaceId, power: Power) -> u32 {
    let d = &cx.board.diplomacy;
    cx.board
        .powers_in(space, true)
        .into_iter()
        .filter(|p| !d.friendly(*p, power))
        .map(|p| cx.board.units(space, p, true).total())
        .sum()
}

/// Why `power` (a side) may not go from `from` into `to` by avoiding battle or retreating
/// [seed 003 restrictions; R §14.1]: a sea zone, not adjacent, the `excluded` space (the one the
/// moving enemy came from, with its reason), unrest, enemy units, independent, controlled by a
/// power that is not its ally, an electorate before the Schmalkaldic League.
pub(super) fn closed(
    cx: &Cx<'_>,
    power: Power,
    from: SpaceId,
    to: SpaceId,
    excluded: Option<(SpaceId, &Message)>,
) -> Option<Message> {
    let (map, board) = (cx.map, &cx.board);
    let d = &board.diplomacy;
    let name = map.space(to).names();
    if map.space(to).is_sea() {
        return Some(msg!("his.course.sea", space = name));
    }
    if map.crossing(from, to).is_none() {
        return Some(msg!("his.course.not_adjacent", space = name));
    }
    if let Some((space, why)) = excluded
        && space == to
    {
        return Some(why.clone());
    }
    if board.in_unrest(to) {
        return Some(msg!("his.course.unrest", space = name));
    }
    if let Some(e) = board
        .powers_anywhere_in(to)
        .into_iter()
        .find(|p| d.enemies(power, *p))
    {
        return Some(msg!(
            "his.course.enemy_units",
            space = name,
            power = e.named(Case::Nom),
            power_gen = e.named(Case::Gen)
        ));
    }
    let controller = board.controller(to);
    if controller == Power::Independent {
        return Some(msg!("his.course.independent", space = name));
    }
    if controller != power && !d.allied(power, controller) {
        return Some(msg!(
            "his.course.not_allied",
            space = name,
            controller = controller.named(Case::Nom),
            controller_gen = controller.named(Case::Gen)
        ));
    }
    if board.is_electorate(map, to) && !d.schmalkaldic_league && power != Power::Protestant {
        return Some(electorate(name));
    }
    None
}

/// `Mainz is an electorate and the Schmalkaldic League has not been played`.
pub(super) fn electorate(name: crate::message::Arg) -> Message {
    msg!("his.course.electorate", space = name)
}

/// `Hapsburg has 2 regulars there, not 3 regulars`.
pub(super) fn not_there(power: Power, there: Units, named: Units) -> Message {
    msg!(
        "his.course.units_not_there",
        power = power.named(Case::Nom),
        power_gen = power.named(Case::Gen),
        there = there.describe(),
        named = named.describe()
    )
}

/// `Ferdinand is not there`.
pub(super) fn leader_not_there(name: &str) -> Message {
    msg!("his.course.leader_not_there", leader = name)
}

/// A leader goes onto `by`'s power card.
pub(super) fn capture(cx: &mut Cx<'_>, leader: LeaderId, by: Power, reason: Message) {
    cx.board.leader_mut(leader).place = LeaderPlace::Captured { by };
    cx.note(Event::Captured { leader, by, reason });
}

/// How leaders came to be alone with enemy land units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Alone {
    /// Enemy land units entered their space (by a move, an interception, a retreat, an
    /// avoidance) [R §13.1].
    Entered,
    /// Their own units avoided battle and left them behind with the enemy land units that
    /// entered (a leader alone may not avoid battle) [seed 003; ruling 19].
    LeftBehind,
}

/// Enemy leaders of `enemy` without land units of their side outside the fortifications of
/// `space`, where `enemy`'s land units stand: inside the fortifications of a space friendly to
/// them, else captured by `enemy` [R §13.1; ruling 19].
pub(super) fn lone_leaders(cx: &mut Cx<'_>, space: SpaceId, enemy: Power, how: Alone) {
    let board = &cx.board;
    let d = &board.diplomacy;
    if side_units(cx, space, enemy, false) == 0 {
        return;
    }
    let outside = board.powers_in(space, false);
    let fortified = board.fortified(cx.map, space);
    let controller = board.controller(space);
    let lone: Vec<(LeaderId, Power)> = board
        .leaders_in(space, false)
        .into_iter()
        .map(|l| (l, board.leader(l).power))
        .filter(|(_, p)| d.enemies(enemy, *p) && !outside.iter().any(|o| d.friendly(*o, *p)))
        .collect();
    let name = cx.map.space(space).names();
    for (l, p) in lone {
        if fortified && cx.board.diplomacy.friendly(p, controller) {
            cx.board.leader_mut(l).place = LeaderPlace::Space {
                space,
                inside: true,
            };
            let reason = match how {
                Alone::Entered => msg!("his.course.alone_inside"),
                Alone::LeftBehind => msg!("his.course.left_behind_inside", space = name),
            };
            cx.note(Event::Withdrew {
                force: Force {
                    units: Vec::new(),
                    leaders: vec![l],
                },
                at: space,
                reason,
            });
        } else {
            let reason = match how {
                Alone::Entered => msg!("his.course.alone_captured", space = name),
                Alone::LeftBehind => msg!("his.course.left_behind_captured", space = name),
            };
            capture(cx, l, enemy, reason);
        }
    }
}

/// Moves these units and leaders inside the fortifications of `space`.
pub(super) fn go_inside(cx: &mut Cx<'_>, space: SpaceId, force: &Force) {
    for (p, u) in &force.units {
        cx.board.set_inside(space, *p, false, *u);
    }
    for l in &force.leaders {
        cx.board.leader_mut(*l).place = LeaderPlace::Space {
            space,
            inside: true,
        };
    }
}

/// Whether the mover in a fortified space now faces a siege to lay: enemy units inside, or an
/// enemy (or independent) controller, and no siege of its own there yet.
pub(super) fn siege_due(cx: &Cx<'_>, mv: &Move) -> bool {
    let board = &cx.board;
    if !board.fortified(cx.map, mv.to) || mv.force.land_units() == 0 {
        return false;
    }
    if board
        .siege(mv.to)
        .is_some_and(|s| s.besiegers.contains(&mv.power))
    {
        return false;
    }
    let controller = board.controller(mv.to);
    hostile_inside(cx, mv.to, mv.power) > 0 || !board.diplomacy.friendly(controller, mv.power)
}

/// Lays the siege if the formation has more land units than are inside [R §13.4, §15.1];
/// returns whether it did.
pub(super) fn lay_siege(cx: &mut Cx<'_>, mv: &Move) -> bool {
    let inside = hostile_inside(cx, mv.to, mv.power);
    let besiegers = mv.force.land_units();
    if besiegers <= inside {
        return false;
    }
    cx.board.sieges.retain(|s| s.space != mv.to);
    cx.board.sieges.push(Siege {
        space: mv.to,
        besiegers: vec![mv.power],
        since_impulse: cx.board.impulse,
    });
    for (p, _) in &mv.force.units {
        cx.board
            .mark_units(mv.to, *p, false, |m| m.placed_siege = true);
    }
    for l in &mv.force.leaders {
        cx.board.leader_mut(*l).marks.placed_siege = true;
    }
    cx.note(Event::SiegeBegan {
        at: mv.to,
        by: mv.power,
        besiegers,
        inside,
    });
    true
}

/// The modifiers of a 2d6 check [seed 003 step 4; R §13.2]: the best leader's battle rating,
/// +1 for Ottoman cavalry in the group, -1 for any other power against a formation with Ottoman
/// cavalry.
pub(super) fn modifiers(
    cx: &Cx<'_>,
    power: Power,
    group: &Force,
    opposing_cavalry: bool,
) -> Vec<(i32, Modifier)> {
    let mut m = Vec::new();
    if let Some(l) = group
        .leaders
        .iter()
        .max_by_key(|l| (cx.map.leader(**l).battle, std::cmp::Reverse(**l)))
    {
        let info = cx.map.leader(*l);
        m.push((info.battle as i32, Modifier::Leader(info.name.clone())));
    }
    if power == Power::Ottoman && group.has_cavalry() {
        m.push((1, Modifier::OttomanCavalry));
    }
    if power != Power::Ottoman && opposing_cavalry {
        m.push((-1, Modifier::AgainstCavalry));
    }
    m
}

/// The modifiers as a roll's details, in English always (a purpose feeds the dice): `+2
/// Charles V`, `-1 against Ottoman cavalry`.
pub(super) fn modifier_details(modifiers: &[(i32, Modifier)]) -> Vec<String> {
    modifiers
        .iter()
        .map(|(m, why)| format!("{m:+} {}", why.english()))
        .collect()
}
