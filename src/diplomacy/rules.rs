//! Rules editions as values: every point where rulebooks differ is a named switch.
//!
//! `Rules::edition_2000()` is the rulebook as this project's documents state it,
//! `Rules::edition_2023()` is DATC v3.0's preferences. A variant or a game may start
//! from either and change single switches. The DATC chapter-4 issue is named on each.

/// DATC 4.A.1: when is a convoy with several routes disrupted?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiRouteConvoy {
    /// 1971: when any of its routes is disrupted.
    AnyRouteDisrupts,
    /// 1982 and later: only when every route is disrupted (rulebook diagram 29).
    AllRoutesMustFail,
}

/// DATC 4.A.2: how convoy paradoxes are settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvoyParadox {
    /// The Szykman rule alone: the convoying fleets in the paradox hold.
    Szykman,
    /// The 2000 rulebook (diagram 30): a convoyed army does not cut the support of a unit
    /// supporting an attack on a fleet necessary for its convoy; the Szykman rule settles
    /// whatever that leaves unresolved.
    Rulebook2000,
}

/// DATC 4.D.8: which unit goes when a power in civil disorder must remove units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CivilDisorderRemoval {
    /// 2023: farthest from the nearest owned centre, armies and fleets both crossing land
    /// and sea; ties: fleets first, then alphabetical by the province's English name.
    FarthestFromOwnedCentre,
    /// Earlier rulebooks: farthest from a home centre, fleets by fleet moves, armies by land
    /// or sea; same ties.
    FarthestFromHomeCentre,
}

/// Where a power may build (the 2000 rulebook: its own home centres).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildSites {
    /// Its own vacant home centres (the rulebook).
    Home,
    /// Any vacant centre it owns (DPjudge's BUILD_ANY: Chaos, Hundred).
    Owned,
    /// Any vacant centre it owns while it still owns one of its home centres (DPjudge's
    /// REMOTE_BUILDS); with none left, nowhere.
    OwnedWithHome,
}

/// The named switches of a rules edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Name for reports and the JSON interface: `2000`, `2023`.
    pub edition: String,
    pub multi_route_convoy: MultiRouteConvoy,
    pub convoy_paradox: ConvoyParadox,
    /// DATC 4.A.4: a convoyed attack from the province a support is aimed at still cuts it.
    pub convoyed_attack_cuts_support_against_itself: bool,
    /// DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's origin.
    pub retreat_to_convoy_origin: bool,
    /// DATC 4.A.7: a unit dislodged by a unit from its destination never bounces a third
    /// unit there, even without a head-to-head battle (the literal reading).
    pub dislodged_never_affects_attacker_origin: bool,
    /// DATC 4.B.4: a support of a fleet move to a split-coast province must name the coast.
    pub support_must_name_coast: bool,
    pub civil_disorder_removal: CivilDisorderRemoval,
    /// Most fleets a power may build in one adjustment phase (Diadochi V: 2).
    pub max_fleet_builds: Option<u32>,
    /// Units may destroy the centre they stand in (`Z`) and restore a destroyed one by two
    /// restore orders (`R`) in consecutive movement phases (Diadochi V rules 6 and 7).
    pub destroy_and_restore: bool,
    /// Powers may lend the supply of their centres to one another (Diadochi V rule 8).
    pub supply_credit: bool,
    /// Where builds go.
    pub builds: BuildSites,
}

impl Rules {
    /// The 2000 rulebook, as `../shared/rules-sources/000_*.txt` states it; where it is
    /// silent, DATC v3.0's preference.
    pub fn edition_2000() -> Rules {
        Rules {
            edition: "2000".into(),
            convoy_paradox: ConvoyParadox::Rulebook2000,
            retreat_to_convoy_origin: false,
            civil_disorder_removal: CivilDisorderRemoval::FarthestFromHomeCentre,
            ..Rules::edition_2023()
        }
    }

    /// DATC v3.0's preferences throughout (written for the 2023 rulebook).
    pub fn edition_2023() -> Rules {
        Rules {
            edition: "2023".into(),
            multi_route_convoy: MultiRouteConvoy::AllRoutesMustFail,
            convoy_paradox: ConvoyParadox::Szykman,
            convoyed_attack_cuts_support_against_itself: false,
            retreat_to_convoy_origin: true,
            dislodged_never_affects_attacker_origin: false,
            support_must_name_coast: false,
            civil_disorder_removal: CivilDisorderRemoval::FarthestFromOwnedCentre,
            max_fleet_builds: None,
            destroy_and_restore: false,
            supply_credit: false,
            builds: BuildSites::Home,
        }
    }

    /// The edition named `name` (`2000`, `2023`), if we know it.
    pub fn edition(name: &str) -> Option<Rules> {
        match name.trim() {
            "2000" => Some(Rules::edition_2000()),
            "2023" | "datc" => Some(Rules::edition_2023()),
            _ => None,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::edition_2000()
    }
}

/// A value given to a switch in a variant file or a game's settings.
#[derive(Clone, Debug, PartialEq)]
pub enum SwitchValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl Rules {
    /// Names of the switches `set_switch` knows.
    pub const SWITCHES: [&'static str; 11] = [
        "multi_route_convoy",
        "convoy_paradox",
        "convoyed_attack_cuts_support_against_itself",
        "retreat_to_convoy_origin",
        "dislodged_never_affects_attacker_origin",
        "support_must_name_coast",
        "civil_disorder_removal",
        "max_fleet_builds",
        "destroy_and_restore",
        "supply_credit",
        "builds",
    ];

    /// Changes one named switch; the error says what values it takes.
    pub fn set_switch(&mut self, name: &str, value: &SwitchValue) -> Result<(), SwitchError> {
        let takes = |values: &'static str| SwitchError::Takes {
            name: name.to_string(),
            values,
        };
        let flag = |value: &SwitchValue| match value {
            SwitchValue::Bool(b) => Ok(*b),
            _ => Err(takes("true or false")),
        };
        let text = |value: &SwitchValue, allowed: &'static str| match value {
            SwitchValue::Text(t) => Ok(t.clone()),
            _ => Err(takes(allowed)),
        };
        match name {
            "multi_route_convoy" => {
                self.multi_route_convoy =
                    match text(value, "one of: any_route, all_routes")?.as_str() {
                        "any_route" => MultiRouteConvoy::AnyRouteDisrupts,
                        "all_routes" => MultiRouteConvoy::AllRoutesMustFail,
                        _ => return Err(takes("one of: any_route, all_routes")),
                    }
            }
            "convoy_paradox" => {
                self.convoy_paradox = match text(value, "one of: szykman, rulebook_2000")?.as_str()
                {
                    "szykman" => ConvoyParadox::Szykman,
                    "rulebook_2000" => ConvoyParadox::Rulebook2000,
                    _ => return Err(takes("one of: szykman, rulebook_2000")),
                }
            }
            "convoyed_attack_cuts_support_against_itself" => {
                self.convoyed_attack_cuts_support_against_itself = flag(value)?
            }
            "retreat_to_convoy_origin" => self.retreat_to_convoy_origin = flag(value)?,
            "dislodged_never_affects_attacker_origin" => {
                self.dislodged_never_affects_attacker_origin = flag(value)?
            }
            "support_must_name_coast" => self.support_must_name_coast = flag(value)?,
            "destroy_and_restore" => self.destroy_and_restore = flag(value)?,
            "supply_credit" => self.supply_credit = flag(value)?,
            "civil_disorder_removal" => {
                self.civil_disorder_removal =
                    match text(value, "one of: owned_centre, home_centre")?.as_str() {
                        "owned_centre" => CivilDisorderRemoval::FarthestFromOwnedCentre,
                        "home_centre" => CivilDisorderRemoval::FarthestFromHomeCentre,
                        _ => return Err(takes("one of: owned_centre, home_centre")),
                    }
            }
            "builds" => {
                self.builds = match text(value, "one of: home, owned, owned_with_home")?.as_str() {
                    "home" => BuildSites::Home,
                    "owned" => BuildSites::Owned,
                    "owned_with_home" => BuildSites::OwnedWithHome,
                    _ => return Err(takes("one of: home, owned, owned_with_home")),
                }
            }
            "max_fleet_builds" => {
                self.max_fleet_builds = match value {
                    SwitchValue::Int(n) if *n >= 0 => Some(*n as u32),
                    _ => return Err(takes("a number of at least 0")),
                }
            }
            _ => {
                return Err(SwitchError::Unknown(name.to_string()));
            }
        }
        Ok(())
    }
}

/// Why a rules switch was not set; its `Display` says so to whoever wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchError {
    /// No switch has that name.
    Unknown(String),
    /// The switch takes other values (`true or false`, `one of: ...`).
    Takes { name: String, values: &'static str },
}

impl std::fmt::Display for SwitchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SwitchError::Unknown(name) => write!(
                f,
                "'{name}' is not a rules switch; the switches are {}",
                Rules::SWITCHES.join(", ")
            ),
            SwitchError::Takes { name, values } => write!(f, "{name} takes {values}"),
        }
    }
}
