//! Turns: the year, the season and the kind of phase, and how one follows another.

/// Season of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Season {
    Spring,
    /// Called Autumn in some rulebooks and variants; the calendar names it.
    Fall,
    Winter,
}

/// What is ordered in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// A phase of the game: `Spring 1901 movement`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The year as the calendar counts it: 1901, or 240 for 240 BC.
    pub year: i32,
    pub season: Season,
    pub kind: PhaseKind,
}

/// Which way years run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YearDirection {
    /// 1901, 1902, ...
    Up,
    /// 240 BC, 239 BC, ...
    Down,
}

/// A variant's calendar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar {
    pub first_year: i32,
    pub direction: YearDirection,
    /// Written after the year: `""` or `" BC"`.
    pub era: String,
    /// Names of the seasons for reports.
    pub spring: String,
    pub fall: String,
    pub winter: String,
}

impl Default for Calendar {
    fn default() -> Self {
        Calendar {
            first_year: 1901,
            direction: YearDirection::Up,
            era: String::new(),
            spring: "Spring".into(),
            fall: "Fall".into(),
            winter: "Winter".into(),
        }
    }
}

impl Calendar {
    /// The first phase of a game.
    pub fn first_turn(&self) -> Turn {
        Turn {
            year: self.first_year,
            season: Season::Spring,
            kind: PhaseKind::Movement,
        }
    }

    /// The phase after `turn`, counting every phase (skipping empty ones is the game's business).
    pub fn next(&self, turn: Turn) -> Turn {
        use PhaseKind::*;
        use Season::*;
        let (season, kind, next_year) = match (turn.season, turn.kind) {
            (Spring, Movement) => (Spring, Retreat, false),
            (Spring, _) => (Fall, Movement, false),
            (Fall, Movement) => (Fall, Retreat, false),
            (Fall, _) => (Winter, Adjustment, false),
            (Winter, _) => (Spring, Movement, true),
        };
        let year = match (next_year, self.direction) {
            (false, _) => turn.year,
            (true, YearDirection::Up) => turn.year + 1,
            (true, YearDirection::Down) => turn.year - 1,
        };
        Turn { year, season, kind }
    }

    /// `Spring 1901`, `Autumn 240 BC`.
    pub fn describe(&self, turn: Turn) -> String {
        let season = match turn.season {
            Season::Spring => &self.spring,
            Season::Fall => &self.fall,
            Season::Winter => &self.winter,
        };
        format!("{season} {}{}", turn.year, self.era)
    }
}
