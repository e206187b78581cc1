//! Checking an archive's dice: the seed against its commitment, every roll recomputed, the
//! numbering without gaps or repeats, each problem named with its roll.

use super::*;

/// What the archive of a game says about its dice, once every line is read and every roll
/// recomputed.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// The game named by the commitment (or by the reveal, when there is no commitment).
    pub game: Option<String>,
    pub commitment: Option<Commitment>,
    /// Whether the seed is revealed (whether or not it matches the commitment).
    pub revealed: bool,
    /// The rolls read, each number once, in number order.
    pub rolls: Vec<Roll>,
    /// How many of them the revealed seed gives exactly.
    pub verified: usize,
    pub problems: Vec<Problem>,
}

/// The verdict on an archive's dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The commitment matches the seed and every roll is what the seed gives.
    Verified,
    /// At least one problem.
    Problems,
    /// Nothing wrong so far, but the seed is not revealed, so the dice cannot be checked yet.
    NotRevealed,
    /// No dice line at all.
    NoDice,
}

impl Verification {
    pub fn verdict(&self) -> Verdict {
        if !self.problems.is_empty() {
            Verdict::Problems
        } else if self.commitment.is_none() && !self.revealed && self.rolls.is_empty() {
            Verdict::NoDice
        } else if !self.revealed {
            Verdict::NotRevealed
        } else {
            Verdict::Verified
        }
    }

    /// The last line of the report: what was verified, or why not.
    pub fn summary(&self) -> String {
        let game = self.game.as_deref().unwrap_or("?");
        let rolls = plural(self.rolls.len(), "roll", "rolls");
        match self.verdict() {
            Verdict::Verified => format!(
                "{} verified (game {game}): the seed matches its commitment and gives every die.",
                plural(self.verified, "roll", "rolls")
            ),
            Verdict::Problems => format!(
                "{} found (game {game}); {} of {rolls} verified.",
                plural(self.problems.len(), "problem", "problems"),
                self.verified
            ),
            Verdict::NotRevealed => format!(
                "The seed of game {game} is not revealed yet: {rolls}, numbered from 1 with none \
                 missing or repeated, can be checked once it is."
            ),
            Verdict::NoDice => "No dice lines found (no commitment, seed or roll).".to_string(),
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Something wrong in an archive's dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A line that starts like a dice line but cannot be read.
    Unreadable { line: String, why: String },
    /// Rolls or a seed, but no commitment.
    NoCommitment,
    /// A second commitment, or a second revealed seed, that differs from the first.
    Contradicts { first: String, later: String },
    /// A commitment or reveal line naming another game than the first.
    OtherGame { first: String, later: String },
    /// A roll announced before the commitment was published.
    BeforeCommitment { number: u64 },
    /// A roll announced after the seed was revealed.
    AfterReveal { number: u64 },
    /// The revealed seed's SHA-256 is not the commitment.
    SeedMismatch {
        commitment: Commitment,
        seed_hash: Commitment,
    },
    /// The same roll number twice, with different purposes or dice.
    Repeated { first: Roll, again: Roll },
    /// A roll announced after a roll with a higher number.
    OutOfOrder { number: u64, after: u64 },
    /// Roll numbers `from..=to` are nowhere.
    Missing { from: u64, to: u64 },
    /// The seed gives other dice for this number and purpose than those written.
    Dice { roll: Roll, derived: Vec<u8> },
    /// The roll as written cannot be derived at all.
    Underivable { roll: Roll, why: DiceError },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable { line, why } => write!(f, "Unreadable dice line ({why}): {line}"),
            Problem::NoCommitment => {
                f.write_str("No commitment: the archive never published the seed's SHA-256.")
            }
            Problem::Contradicts { first, later } => {
                write!(f, "Contradicting lines: '{first}' and later '{later}'.")
            }
            Problem::OtherGame { first, later } => {
                write!(f, "The dice lines name two games: {first} and {later}.")
            }
            Problem::BeforeCommitment { number } => {
                write!(f, "Roll {number} is announced before the commitment.")
            }
            Problem::AfterReveal { number } => {
                write!(f, "Roll {number} is announced after the seed was revealed.")
            }
            Problem::SeedMismatch {
                commitment,
                seed_hash,
            } => write!(
                f,
                "The revealed seed is not the one committed to: its SHA-256 is {seed_hash}, \
                 the commitment {commitment}. No roll can be checked against it."
            ),
            Problem::Repeated { first, again } => write!(
                f,
                "Roll {} appears twice: '{}' and '{}'.",
                first.number, first, again
            ),
            Problem::OutOfOrder { number, after } => {
                write!(f, "Roll {number} is announced after roll {after}.")
            }
            Problem::Missing { from, to } if from == to => write!(f, "Roll {from} is missing."),
            Problem::Missing { from, to } => write!(f, "Rolls {from} to {to} are missing."),
            Problem::Dice { roll, derived } => write!(
                f,
                "Roll {} ({}): written {}, but the seed gives {} for this number and purpose.",
                roll.number,
                roll.purpose,
                faces(&roll.dice),
                faces(derived)
            ),
            Problem::Underivable { roll, why } => {
                write!(f, "Roll {} cannot be derived: {why}.", roll.number)
            }
        }
    }
}

/// How many lines one dice line may have been broken into, after its first.
const MOST_CONTINUATIONS: usize = 8;

/// Reads every dice line of `text` (reports in order, as HISTORY or the archive give them)
/// and checks them: the seed against the commitment, each roll against the seed, the roll
/// numbers 1, 2, 3... with none missing or repeated, the commitment before the first roll
/// and the reveal after the last. The same roll written twice identically (quoted again)
/// counts once.
pub fn verify(text: &str) -> Verification {
    let mut result = Verification::default();
    let mut seed: Option<(String, Seed)> = None;
    let mut by_number: BTreeMap<u64, Roll> = BTreeMap::new();
    let mut highest = 0;
    // The first roll announced while no commitment had been published.
    let mut early = None;
    let lines: Vec<&str> = text.lines().collect();
    let mut next = 0;
    while let Some(&line) = lines.get(next) {
        next += 1;
        let Some(mut read) = parse_line(line) else {
            continue;
        };
        // A dice line broken over several lines (the judge wraps long lines under 80
        // columns, and so do mail programs) is read joined again.
        if read.is_err() {
            let mut joined = line.to_string();
            for (taken, more) in lines[next..].iter().take(MOST_CONTINUATIONS).enumerate() {
                // A blank line, or the next dice line, ends it.
                if more.trim().is_empty() || parse_line(more).is_some() {
                    break;
                }
                joined.push(' ');
                joined.push_str(more.trim_start_matches(|c: char| c.is_whitespace() || c == '>'));
                if let Some(Ok(whole)) = parse_line(&joined) {
                    read = Ok(whole);
                    next += taken + 1;
                    break;
                }
            }
        }
        match read {
            Err(why) => result.problems.push(Problem::Unreadable {
                line: tidy(line),
                why: why.to_string(),
            }),
            Ok(DiceLine::Commitment { game, commitment }) => {
                note_game(&mut result, &game);
                match result.commitment {
                    None => result.commitment = Some(commitment),
                    Some(first) if first != commitment => {
                        result.problems.push(Problem::Contradicts {
                            first: commitment_line(&game, &first),
                            later: commitment_line(&game, &commitment),
                        })
                    }
                    Some(_) => {}
                }
            }
            Ok(DiceLine::Reveal { game, seed: found }) => {
                note_game(&mut result, &game);
                match &seed {
                    None => seed = Some((game, found)),
                    Some((_, first)) if *first != found => {
                        result.problems.push(Problem::Contradicts {
                            first: reveal_line(&game, first),
                            later: reveal_line(&game, &found),
                        })
                    }
                    Some(_) => {}
                }
            }
            Ok(DiceLine::Roll(roll)) => {
                if let Some(first) = by_number.get(&roll.number) {
                    if *first != roll {
                        result.problems.push(Problem::Repeated {
                            first: first.clone(),
                            again: roll,
                        });
                    }
                    continue;
                }
                if result.commitment.is_none() && early.is_none() {
                    early = Some(roll.number);
                }
                if seed.is_some() {
                    result.problems.push(Problem::AfterReveal {
                        number: roll.number,
                    });
                }
                if roll.number < highest {
                    result.problems.push(Problem::OutOfOrder {
                        number: roll.number,
                        after: highest,
                    });
                }
                highest = highest.max(roll.number);
                by_number.insert(roll.number, roll);
            }
        }
    }
    result.revealed = seed.is_some();
    match (result.commitment, early) {
        (None, _) if seed.is_some() || !by_number.is_empty() => {
            result.problems.push(Problem::NoCommitment)
        }
        (Some(_), Some(number)) => result.problems.push(Problem::BeforeCommitment { number }),
        _ => {}
    }
    let mut expected = 1;
    for &number in by_number.keys() {
        if number > expected {
            result.problems.push(Problem::Missing {
                from: expected,
                to: number - 1,
            });
        }
        expected = number + 1;
    }
    if let (Some((_, seed)), Some(commitment)) = (&seed, result.commitment) {
        let seed_hash = seed.commitment();
        if seed_hash != commitment {
            result.problems.push(Problem::SeedMismatch {
                commitment,
                seed_hash,
            });
            result.rolls = by_number.into_values().collect();
            return result;
        }
    }
    if let (Some((_, seed)), Some(game)) = (&seed, &result.game) {
        for roll in by_number.values() {
            match derive(seed, game, roll.number, &roll.purpose, roll.dice.len()) {
                Ok(derived) if derived == roll.dice => result.verified += 1,
                Ok(derived) => result.problems.push(Problem::Dice {
                    roll: roll.clone(),
                    derived,
                }),
                Err(why) => result.problems.push(Problem::Underivable {
                    roll: roll.clone(),
                    why,
                }),
            }
        }
    }
    result.rolls = by_number.into_values().collect();
    result
}

/// Keeps the first game named; a later line naming another is a problem.
fn note_game(result: &mut Verification, game: &str) {
    match &result.game {
        None => result.game = Some(game.to_string()),
        Some(first) if first != game => result.problems.push(Problem::OtherGame {
            first: first.clone(),
            later: game.to_string(),
        }),
        Some(_) => {}
    }
}
