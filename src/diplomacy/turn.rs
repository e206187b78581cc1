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

/// A phase of the game: `Movement for Spring of 1901`.
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
    /// The season of the first phase: `Spring` (its movement) or `Winter` (its adjustments:
    /// Chaos begins with builds on an empty board).
    pub first_phase: Season,
    /// Years from one movement turn to the next when each turn is its own year (Hundred:
    /// Spring 1425, Fall 1430, Winter 1430, Spring 1435); `None`: spring and fall share a
    /// year, and the year turns after the winter.
    pub years_per_turn: Option<i32>,
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
            first_phase: Season::Spring,
            years_per_turn: None,
        }
    }
}

impl Calendar {
    /// The first phase of a game.
    pub fn first_turn(&self) -> Turn {
        let (season, kind) = match self.first_phase {
            Season::Winter => (Season::Winter, PhaseKind::Adjustment),
            _ => (Season::Spring, PhaseKind::Movement),
        };
        Turn {
            year: self.first_year,
            season,
            kind,
        }
    }

    /// The phase after `turn`, counting every phase (skipping empty ones is the game's business).
    pub fn next(&self, turn: Turn) -> Turn {
        use PhaseKind::*;
        use Season::*;
        // Whether the year turns: after the winter, and between the seasons' movement turns
        // when each turn is its own year.
        let (season, kind, next_year) = match (turn.season, turn.kind) {
            (Spring, Movement) => (Spring, Retreat, false),
            (Spring, _) => (Fall, Movement, self.years_per_turn.is_some()),
            (Fall, Movement) => (Fall, Retreat, false),
            (Fall, _) => (Winter, Adjustment, false),
            (Winter, _) => (Spring, Movement, true),
        };
        let step = self.years_per_turn.unwrap_or(1);
        let year = match (next_year, self.direction) {
            (false, _) => turn.year,
            (true, YearDirection::Up) => turn.year + step,
            (true, YearDirection::Down) => turn.year - step,
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
