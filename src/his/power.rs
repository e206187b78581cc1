//! The powers of Here I Stand: six major powers in impulse order, four minor powers, and the
//! independents; and the relations between them (at war, allied, neither) that every step of the
//! movement procedure asks about.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A power, or the independents (units and spaces no power controls).
///
/// The order of the variants is the impulse order of the major powers, then the minor powers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Power {
    Ottoman,
    Hapsburg,
    England,
    France,
    Papacy,
    Protestant,
    Genoa,
    HungaryBohemia,
    Scotland,
    Venice,
    Independent,
}

impl Power {
    /// The six major powers in impulse order.
    pub const MAJOR: [Power; 6] = [
        Power::Ottoman,
        Power::Hapsburg,
        Power::England,
        Power::France,
        Power::Papacy,
        Power::Protestant,
    ];
    /// The four minor powers.
    pub const MINOR: [Power; 4] = [
        Power::Genoa,
        Power::HungaryBohemia,
        Power::Scotland,
        Power::Venice,
    ];
    /// Every power and the independents.
    pub const ALL: [Power; 11] = [
        Power::Ottoman,
        Power::Hapsburg,
        Power::England,
        Power::France,
        Power::Papacy,
        Power::Protestant,
        Power::Genoa,
        Power::HungaryBohemia,
        Power::Scotland,
        Power::Venice,
        Power::Independent,
    ];

    pub fn is_major(self) -> bool {
        Power::MAJOR.contains(&self)
    }

    pub fn is_minor(self) -> bool {
        Power::MINOR.contains(&self)
    }

    /// The word used in data files and commands: `ottoman`, `hungary-bohemia`.
    pub fn id(self) -> &'static str {
        match self {
            Power::Ottoman => "ottoman",
            Power::Hapsburg => "hapsburg",
            Power::England => "england",
            Power::France => "france",
            Power::Papacy => "papacy",
            Power::Protestant => "protestant",
            Power::Genoa => "genoa",
            Power::HungaryBohemia => "hungary-bohemia",
            Power::Scotland => "scotland",
            Power::Venice => "venice",
            Power::Independent => "independent",
        }
    }

    /// The name in reports: `Ottoman`, `Hungary-Bohemia`.
    pub fn name(self) -> &'static str {
        match self {
            Power::Ottoman => "Ottoman",
            Power::Hapsburg => "Hapsburg",
            Power::England => "England",
            Power::France => "France",
            Power::Papacy => "Papacy",
            Power::Protestant => "Protestant",
            Power::Genoa => "Genoa",
            Power::HungaryBohemia => "Hungary-Bohemia",
            Power::Scotland => "Scotland",
            Power::Venice => "Venice",
            Power::Independent => "independent",
        }
    }

    /// Reads a power's id, name or a common short form (`hungary`, `ottomans`), any case.
    pub fn from_word(word: &str) -> Option<Power> {
        let w = word.trim().to_lowercase().replace(['_', ' '], "-");
        let w = w.trim_end_matches('s');
        Some(match w {
            "ottoman" | "turk" | "turkey" => Power::Ottoman,
            "hapsburg" | "habsburg" => Power::Hapsburg,
            "england" | "english" => Power::England,
            "france" | "french" => Power::France,
            "papacy" | "pope" | "papal" => Power::Papacy,
            "protestant" => Power::Protestant,
            "genoa" | "genoese" => Power::Genoa,
            "hungary-bohemia" | "hungary" | "hungarian" => Power::HungaryBohemia,
            "scotland" | "scot" | "scottish" => Power::Scotland,
            "venice" | "venetian" => Power::Venice,
            "independent" => Power::Independent,
            _ => return None,
        })
    }
}

impl fmt::Display for Power {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How two powers stand to each other [R §2.2, §9.2, §9.6, §22].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diplomacy {
    /// Pairs at war, each stored once with the lesser power first.
    wars: BTreeSet<(Power, Power)>,
    /// Alliances between major powers this turn, each stored once with the lesser power first.
    alliances: BTreeSet<(Power, Power)>,
    /// Active minor powers and the major power each is allied to; a minor not listed is inactive.
    minor_allies: BTreeMap<Power, Power>,
    /// The mandatory event Schmalkaldic League has been played [R §21.6].
    pub schmalkaldic_league: bool,
}

fn pair(a: Power, b: Power) -> (Power, Power) {
    if a <= b { (a, b) } else { (b, a) }
}

impl Default for Diplomacy {
    fn default() -> Self {
        Diplomacy::new()
    }
}

impl Diplomacy {
    /// The relations at the start of the game: the Ottoman at war with Hungary-Bohemia [R §9.6],
    /// every other pair neither at war nor allied, every minor power inactive.
    pub fn new() -> Diplomacy {
        let mut d = Diplomacy {
            wars: BTreeSet::new(),
            alliances: BTreeSet::new(),
            minor_allies: BTreeMap::new(),
            schmalkaldic_league: false,
        };
        d.set_war(Power::Ottoman, Power::HungaryBohemia, true);
        d
    }

    /// Declares or ends a war between two powers (peace ends it). Alliances end with a war.
    pub fn set_war(&mut self, a: Power, b: Power, at_war: bool) {
        if a == b || a == Power::Independent || b == Power::Independent {
            return;
        }
        if at_war {
            self.wars.insert(pair(a, b));
            self.alliances.remove(&pair(a, b));
        } else {
            self.wars.remove(&pair(a, b));
        }
    }

    /// Makes or ends an alliance between two major powers (never between powers at war).
    pub fn set_alliance(&mut self, a: Power, b: Power, allied: bool) {
        if a == b || !a.is_major() || !b.is_major() {
            return;
        }
        if allied {
            self.wars.remove(&pair(a, b));
            self.alliances.insert(pair(a, b));
        } else {
            self.alliances.remove(&pair(a, b));
        }
    }

    /// Activates a minor power as the ally of a major power, or deactivates it (`None`).
    pub fn set_minor_ally(&mut self, minor: Power, major: Option<Power>) {
        if !minor.is_minor() {
            return;
        }
        match major {
            Some(m) if m.is_major() => {
                self.minor_allies.insert(minor, m);
            }
            _ => {
                self.minor_allies.remove(&minor);
            }
        }
    }

    /// The major power an active minor is allied to.
    pub fn minor_ally(&self, minor: Power) -> Option<Power> {
        self.minor_allies.get(&minor).copied()
    }

    /// The power that decides for `p`'s units: an active minor's major power, else `p`.
    pub fn side(&self, p: Power) -> Power {
        self.minor_ally(p).unwrap_or(p)
    }

    /// Whether `p`'s units can act at all (move, intercept, avoid battle): a major power, or a
    /// minor power that is active. Inactive minors and independents never act [R §22.1, §22.6].
    pub fn acts(&self, p: Power) -> bool {
        p.is_major() || self.minor_ally(p).is_some()
    }

    /// At war [R §9.6]: a declared war between the two or between the major powers they serve.
    pub fn at_war(&self, a: Power, b: Power) -> bool {
        if a == b || a == Power::Independent || b == Power::Independent {
            return false;
        }
        let (sa, sb) = (self.side(a), self.side(b));
        self.wars.contains(&pair(a, b)) || (sa != sb && self.wars.contains(&pair(sa, sb)))
    }

    /// Allied [R §9.2, §22.3]: two different powers on the same side (a major and its active
    /// minor, or two minors of one major), or the sides of the two are allied this turn.
    pub fn allied(&self, a: Power, b: Power) -> bool {
        if a == b || a == Power::Independent || b == Power::Independent {
            return false;
        }
        let (sa, sb) = (self.side(a), self.side(b));
        sa == sb || self.alliances.contains(&pair(sa, sb))
    }

    /// The same power or allied.
    pub fn friendly(&self, a: Power, b: Power) -> bool {
        (a == b && a != Power::Independent) || self.allied(a, b)
    }

    /// Enemies for a battle: at war, or one of them independent and the other not. Independent
    /// units never act, but a power entering their key meets them [R §22.6].
    pub fn enemies(&self, a: Power, b: Power) -> bool {
        self.at_war(a, b) || ((a == Power::Independent) != (b == Power::Independent))
    }

    /// The pairs at war, lesser power first.
    pub fn wars(&self) -> impl Iterator<Item = (Power, Power)> + '_ {
        self.wars.iter().copied()
    }

    /// The alliances, lesser power first.
    pub fn alliances(&self) -> impl Iterator<Item = (Power, Power)> + '_ {
        self.alliances.iter().copied()
    }

    /// The active minor powers and their major powers.
    pub fn minor_allies(&self) -> impl Iterator<Item = (Power, Power)> + '_ {
        self.minor_allies.iter().map(|(a, b)| (*a, *b))
    }
}
