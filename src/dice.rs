//! Dice everyone can verify: one secret seed per game, committed to in the first report and revealed at the end; every roll derived from it.
//!
//! The referee draws 32 random bytes per game (the caller's job: this module takes the bytes,
//! it never draws them) and publishes their SHA-256, the commitment, in the game's first
//! report. Each roll is then HMAC-SHA256 keyed by the seed over the game's name, the running
//! roll number, the stated purpose and the number of dice, expanded block by block and read a
//! byte at a time with rejection sampling, so every face is equally likely. Every roll is
//! announced as one line (`Roll 12 (Hapsburg field battle at Vienna: 5 dice, +1 Charles V):
//! 6 3 5 1 2`); when the game ends the seed is revealed and [`verify`] recomputes every roll
//! from the text of the archive. `docs/dice.md` gives the derivation byte by byte.
//!
//! The lines are the same in every language: they are read back by programs.

use std::collections::BTreeMap;
use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// How many bytes a seed has.
pub const SEED_BYTES: usize = 32;

/// The most dice one roll may have; a line with more is not read as a roll.
pub const MAX_DICE: usize = 1000;

/// Written first in every message the dice are derived from, so these bytes can never be
/// taken for those of another use of the same seed, and a later scheme can change it.
pub const DOMAIN: &[u8] = b"strategos dice v1";

const COMMITMENT_START: &str = "Dice commitment (SHA-256 of the seed) for game ";
const REVEAL_START: &str = "Dice seed revealed for game ";
const ROLL_START: &str = "Roll ";

/// A game's secret seed. Its `Debug` does not show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; SEED_BYTES]);

impl Seed {
    /// The seed made of these bytes, which the caller drew from a secure source.
    pub fn from_bytes(bytes: [u8; SEED_BYTES]) -> Seed {
        Seed(bytes)
    }

    /// The seed written as 64 hexadecimal digits (either case).
    pub fn from_hex(text: &str) -> Option<Seed> {
        from_hex(text).map(Seed)
    }

    /// The seed as 64 lower-case hexadecimal digits, as the reveal line writes it.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }

    /// The bytes of the seed.
    pub fn bytes(&self) -> &[u8; SEED_BYTES] {
        &self.0
    }

    /// SHA-256 of the 32 bytes of the seed (not of its hexadecimal text).
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(secret)")
    }
}

/// The SHA-256 of a seed, published before any roll.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Commitment([u8; 32]);

impl Commitment {
    /// A commitment written as 64 hexadecimal digits (either case).
    pub fn from_hex(text: &str) -> Option<Commitment> {
        from_hex(text).map(Commitment)
    }

    /// The commitment as 64 lower-case hexadecimal digits.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Why a roll cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiceError {
    /// Roll numbers start at 1.
    NumberZero,
    /// A roll has at least one die.
    NoDice,
    /// More than [`MAX_DICE`] dice.
    TooManyDice(usize),
    /// The purpose is empty once its spaces are tidied.
    NoPurpose,
    /// The game's name is empty.
    NoGame,
}

impl fmt::Display for DiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiceError::NumberZero => f.write_str("roll numbers start at 1"),
            DiceError::NoDice => f.write_str("a roll needs at least one die"),
            DiceError::TooManyDice(n) => write!(f, "{n} dice are more than {MAX_DICE}"),
            DiceError::NoPurpose => f.write_str("a roll needs a stated purpose"),
            DiceError::NoGame => f.write_str("a roll needs the game's name"),
        }
    }
}

impl std::error::Error for DiceError {}

/// One roll as announced: its number in the game, what it is for, and the faces, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    pub number: u64,
    /// What is rolled, how many dice, which modifiers: `Hapsburg field battle at Vienna: 5
    /// dice, +1 Charles V`. Tidied: no line breaks, single spaces, nothing around it.
    pub purpose: String,
    /// Each die, 1 to 6.
    pub dice: Vec<u8>,
}

impl Roll {
    /// The line announcing the roll: `Roll 12 (purpose): 6 3 5 1 2`.
    pub fn line(&self) -> String {
        self.to_string()
    }

    /// How many dice show `at_least` or more (hits on 5 and 6: `roll.count(5)`).
    pub fn count(&self, at_least: u8) -> usize {
        self.dice.iter().filter(|&&d| d >= at_least).count()
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{ROLL_START}{} ({}): {}",
            self.number,
            self.purpose,
            faces(&self.dice)
        )
    }
}

/// The faces as written in a roll line: `6 3 5 1 2`.
fn faces(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// A game's dice: its seed, its name and how many rolls it has made. The mail layer keeps
/// the seed and the count with the game and builds this to roll; each roll counts, so no
/// number is ever used twice.
#[derive(Clone, Debug)]
pub struct Dice {
    seed: Seed,
    game: String,
    made: u64,
}

impl Dice {
    /// The dice of a new game, before its first roll.
    pub fn new(seed: Seed, game: &str) -> Dice {
        Dice::resume(seed, game, 0)
    }

    /// The dice of a game that has made `made` rolls: the next is number `made + 1`.
    pub fn resume(seed: Seed, game: &str, made: u64) -> Dice {
        Dice {
            seed,
            game: tidy(game),
            made,
        }
    }

    /// How many rolls the game has made.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// The game's name, as the dice use it.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The seed, to be stored with the game.
    pub fn seed(&self) -> &Seed {
        &self.seed
    }

    /// The next roll: `n` dice for `what`, with the modifiers that apply, all stated in the
    /// purpose (`what: n dice, modifier, modifier`) before the faces are known.
    pub fn roll(&mut self, what: &str, n: usize, modifiers: &[&str]) -> Result<Roll, DiceError> {
        if tidy(what).is_empty() {
            return Err(DiceError::NoPurpose);
        }
        let number = self.made + 1;
        let purpose = purpose(what, n, modifiers);
        let dice = derive(&self.seed, &self.game, number, &purpose, n)?;
        self.made = number;
        Ok(Roll {
            number,
            purpose,
            dice,
        })
    }

    /// The line for the game's first report: `Dice commitment (SHA-256 of the seed) for game
    /// <game>: <hex>`.
    pub fn commitment_line(&self) -> String {
        commitment_line(&self.game, &self.seed.commitment())
    }

    /// The line for the game's last report: `Dice seed revealed for game <game>: <hex>`.
    pub fn reveal_line(&self) -> String {
        reveal_line(&self.game, &self.seed)
    }
}

/// The stated purpose of a roll: `what: 5 dice, +1 Charles V` (`1 die` for one).
pub fn purpose(what: &str, n: usize, modifiers: &[&str]) -> String {
    let mut text = format!(
        "{}: {n} {}",
        tidy(what),
        if n == 1 { "die" } else { "dice" }
    );
    for modifier in modifiers {
        let modifier = tidy(modifier);
        if !modifier.is_empty() {
            text.push_str(", ");
            text.push_str(&modifier);
        }
    }
    text
}

/// `text` with every run of spaces, line breaks and control characters made one space, and
/// none at either end: the form purposes and names are hashed and written in.
pub fn tidy(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `n` dice of roll `number` of `game` for `purpose` (both tidied first): the whole
/// derivation, which `docs/dice.md` describes for re-implementing.
pub fn derive(
    seed: &Seed,
    game: &str,
    number: u64,
    purpose: &str,
    n: usize,
) -> Result<Vec<u8>, DiceError> {
    let game = tidy(game);
    let purpose = tidy(purpose);
    if number == 0 {
        return Err(DiceError::NumberZero);
    }
    if n == 0 {
        return Err(DiceError::NoDice);
    }
    if n > MAX_DICE {
        return Err(DiceError::TooManyDice(n));
    }
    if purpose.is_empty() {
        return Err(DiceError::NoPurpose);
    }
    if game.is_empty() {
        return Err(DiceError::NoGame);
    }
    let mut message = DOMAIN.to_vec();
    message.extend_from_slice(&(game.len() as u64).to_be_bytes());
    message.extend_from_slice(game.as_bytes());
    message.extend_from_slice(&number.to_be_bytes());
    message.extend_from_slice(&(purpose.len() as u64).to_be_bytes());
    message.extend_from_slice(purpose.as_bytes());
    message.extend_from_slice(&(n as u64).to_be_bytes());
    let mut dice = Vec::with_capacity(n);
    let mut block: u64 = 0;
    while dice.len() < n {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(seed.bytes())
            .expect("HMAC takes a key of any length");
        mac.update(&message);
        mac.update(&block.to_be_bytes());
        for byte in mac.finalize().into_bytes() {
            // 252 = 6 × 42: the bytes 252..=255 would favour faces 1 to 4, so they are
            // thrown away and the next byte read.
            if byte < 252 && dice.len() < n {
                dice.push(byte % 6 + 1);
            }
        }
        block += 1;
    }
    Ok(dice)
}

/// The commitment line: `Dice commitment (SHA-256 of the seed) for game <game>: <hex>`.
pub fn commitment_line(game: &str, commitment: &Commitment) -> String {
    format!("{COMMITMENT_START}{}: {}", tidy(game), commitment.to_hex())
}

/// The reveal line: `Dice seed revealed for game <game>: <hex>`.
pub fn reveal_line(game: &str, seed: &Seed) -> String {
    format!("{REVEAL_START}{}: {}", tidy(game), seed.to_hex())
}

/// A line of an archive that the dice write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiceLine {
    Commitment {
        game: String,
        commitment: Commitment,
    },
    Reveal {
        game: String,
        seed: Seed,
    },
    Roll(Roll),
}

/// Reads one line: `None` when it is no dice line, `Some(Err(why))` when it starts like one
/// (`Roll 12 (`, `Dice commitment`, `Dice seed revealed`) but cannot be read. Spaces and
/// mail quoting (`> `) before the line are passed over; runs of spaces count as one.
pub fn parse_line(line: &str) -> Option<Result<DiceLine, String>> {
    let line = line.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    let line = tidy(line);
    if let Some(rest) = line.strip_prefix(COMMITMENT_START) {
        return Some(game_and_hex(rest).and_then(|(game, hex)| {
            let commitment = Commitment::from_hex(hex)
                .ok_or_else(|| format!("'{hex}' is not 64 hexadecimal digits"))?;
            Ok(DiceLine::Commitment { game, commitment })
        }));
    }
    if let Some(rest) = line.strip_prefix(REVEAL_START) {
        return Some(game_and_hex(rest).and_then(|(game, hex)| {
            let seed = Seed::from_hex(hex)
                .ok_or_else(|| format!("'{hex}' is not 64 hexadecimal digits"))?;
            Ok(DiceLine::Reveal { game, seed })
        }));
    }
    if line.starts_with("Dice commitment") || line.starts_with("Dice seed revealed") {
        return Some(Err(
            "the words before the game's name are not as written by the judge".into(),
        ));
    }
    let rest = line.strip_prefix(ROLL_START)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !rest[digits..].starts_with(" (") {
        return None;
    }
    Some(parse_roll(&rest[..digits], &rest[digits + 2..]).map(DiceLine::Roll))
}

/// `12` and `purpose): 6 3 5 1 2` into a roll.
fn parse_roll(number: &str, rest: &str) -> Result<Roll, String> {
    let number: u64 = match number.parse() {
        Ok(n) if n > 0 => n,
        _ => return Err(format!("'{number}' is no roll number (1, 2, 3...)")),
    };
    let Some((purpose, faces)) = rest
        .rsplit_once("): ")
        .or_else(|| rest.strip_suffix("):").map(|purpose| (purpose, "")))
    else {
        return Err("no '): ' after the purpose".into());
    };
    if purpose.is_empty() {
        return Err("the purpose is empty".into());
    }
    let mut dice = Vec::new();
    for face in faces.split(' ').filter(|f| !f.is_empty()) {
        match face.parse::<u8>() {
            Ok(d @ 1..=6) => dice.push(d),
            _ => return Err(format!("'{face}' is no face of a die (1 to 6)")),
        }
    }
    if dice.is_empty() {
        return Err("no dice after the purpose".into());
    }
    if dice.len() > MAX_DICE {
        return Err(format!("more than {MAX_DICE} dice"));
    }
    Ok(Roll {
        number,
        purpose: purpose.to_string(),
        dice,
    })
}

/// `<game>: <hex>` (the name may hold `: `; the digits never do).
fn game_and_hex(rest: &str) -> Result<(String, &str), String> {
    match rest.rsplit_once(": ") {
        Some((game, hex)) if !game.is_empty() => Ok((game.to_string(), hex)),
        _ => Err("no '<game>: <hex>' after the words".into()),
    }
}

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
    for line in text.lines() {
        let Some(read) = parse_line(line) else {
            continue;
        };
        match read {
            Err(why) => result.problems.push(Problem::Unreadable {
                line: tidy(line),
                why,
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

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Option<[u8; 32]> {
    let text = text.trim().as_bytes();
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks(2).enumerate() {
        let high = char::from(pair[0]).to_digit(16)?;
        let low = char::from(pair[1]).to_digit(16)?;
        out[i] = (high * 16 + low) as u8;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed 00 01 02 ... 1f, for vectors that `docs/dice.md` repeats.
    fn counting_seed() -> Seed {
        let mut bytes = [0u8; SEED_BYTES];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = i as u8;
        }
        Seed::from_bytes(bytes)
    }

    // Vectors computed by a separate implementation of docs/dice.md (Python's hmac and
    // hashlib), so the text and the code say the same thing.
    #[test]
    fn known_vectors() {
        let seed = counting_seed();
        assert_eq!(
            seed.commitment().to_hex(),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        let battle = "Hapsburg field battle at Vienna: 5 dice, +1 Charles V";
        assert_eq!(
            derive(&seed, "vienna", 12, battle, 5).unwrap(),
            [3, 4, 2, 6, 4]
        );
        let avoid = "Ottoman avoid battle from Buda: 1 die";
        assert_eq!(derive(&seed, "vienna", 1, avoid, 1).unwrap(), [3]);
        // Forty dice take a second HMAC block.
        assert_eq!(
            derive(&seed, "vienna", 2, "Test: 40 dice", 40).unwrap(),
            [
                1, 6, 6, 6, 3, 3, 2, 6, 6, 5, 3, 6, 3, 1, 5, 4, 1, 4, 3, 6, 2, 1, 2, 5, 5, 2, 1, 6,
                5, 2, 1, 3, 5, 4, 4, 1, 4, 4, 4, 4
            ]
        );
        // The block's bytes start 26 255 75 7 54 215 33: 255 is thrown away.
        assert_eq!(
            derive(&seed, "vienna", 17, "Rejection: 6 dice", 6).unwrap(),
            [3, 4, 2, 1, 6, 4]
        );
        // Names and purposes are UTF-8.
        assert_eq!(
            derive(&seed, "Вена", 3, "Битва: 3 dice", 3).unwrap(),
            [3, 2, 2]
        );
    }

    #[test]
    fn the_same_inputs_give_the_same_dice() {
        let seed = counting_seed();
        let a = derive(&seed, "vienna", 4, "Intercept from Graz: 2 dice", 2).unwrap();
        let b = derive(&seed, "vienna", 4, "Intercept from Graz: 2 dice", 2).unwrap();
        assert_eq!(a, b);
        // Spaces and line breaks are tidied before hashing.
        let c = derive(&seed, " vienna ", 4, "Intercept  from\nGraz: 2 dice ", 2).unwrap();
        assert_eq!(a, c);
        let mut first = Dice::new(counting_seed(), "vienna");
        let mut second = Dice::new(counting_seed(), "vienna");
        for _ in 0..20 {
            assert_eq!(
                first.roll("Battle", 7, &["+1 leader"]),
                second.roll("Battle", 7, &["+1 leader"])
            );
        }
    }

    #[test]
    fn each_input_changes_the_dice() {
        let seed = counting_seed();
        let n = 60;
        let base = derive(&seed, "vienna", 5, "Battle: 60 dice", n).unwrap();
        let others = [
            derive(&seed, "vienna", 6, "Battle: 60 dice", n).unwrap(),
            derive(&seed, "vienna", 5, "Battle: 60 dice, +1 Charles V", n).unwrap(),
            derive(&seed, "graz", 5, "Battle: 60 dice", n).unwrap(),
            derive(
                &Seed::from_bytes([7; 32]),
                "vienna",
                5,
                "Battle: 60 dice",
                n,
            )
            .unwrap(),
            // One die more changes the whole roll, not just its end.
            derive(&seed, "vienna", 5, "Battle: 60 dice", n + 1).unwrap()[..n].to_vec(),
        ];
        for other in others {
            // Independent dice agree about one time in six; sixty of them all the same, or
            // more than half the same, would mean the input was not used.
            let same = base.iter().zip(&other).filter(|(a, b)| a == b).count();
            assert!(same < n / 2, "{same} of {n} dice agree");
        }
    }

    #[test]
    fn every_face_comes_up_about_as_often() {
        let mut dice = Dice::new(counting_seed(), "uniform");
        let mut counts = [0usize; 7];
        let mut firsts = [0usize; 7];
        for _ in 0..2000 {
            let roll = dice.roll("Count", 30, &[]).unwrap();
            for &d in &roll.dice {
                counts[usize::from(d)] += 1;
            }
            firsts[usize::from(roll.dice[0])] += 1;
        }
        assert_eq!(counts[0], 0);
        // 60,000 dice: 10,000 expected per face, standard deviation about 91.
        for face in 1..=6 {
            assert!((9500..=10500).contains(&counts[face]), "{counts:?}");
        }
        // The first die of each roll (2,000): 333 expected, deviation about 17.
        for face in 1..=6 {
            assert!((250..=420).contains(&firsts[face]), "{firsts:?}");
        }
        assert_eq!(dice.made(), 2000);
    }

    #[test]
    fn rolls_count_up_and_state_their_purpose() {
        let mut dice = Dice::new(counting_seed(), "vienna");
        let first = dice.roll("Ottoman avoid battle from Buda", 1, &[]).unwrap();
        assert_eq!(first.number, 1);
        assert_eq!(first.purpose, "Ottoman avoid battle from Buda: 1 die");
        assert_eq!(
            first.line(),
            "Roll 1 (Ottoman avoid battle from Buda: 1 die): 3"
        );
        let second = dice
            .roll("Hapsburg field battle at Vienna", 5, &["+1 Charles V", " "])
            .unwrap();
        assert_eq!(second.number, 2);
        assert_eq!(
            second.purpose,
            "Hapsburg field battle at Vienna: 5 dice, +1 Charles V"
        );
        assert_eq!(dice.made(), 2);
        // A refused roll uses no number.
        assert_eq!(dice.roll("Nothing", 0, &[]), Err(DiceError::NoDice));
        assert_eq!(dice.roll("  ", 2, &[]), Err(DiceError::NoPurpose));
        assert_eq!(
            dice.roll("Too many", MAX_DICE + 1, &[]),
            Err(DiceError::TooManyDice(MAX_DICE + 1))
        );
        assert_eq!(dice.made(), 2);
        let mut resumed = Dice::resume(counting_seed(), "vienna", 1);
        assert_eq!(
            resumed.roll("Hapsburg field battle at Vienna", 5, &["+1 Charles V"]),
            Ok(second)
        );
        assert_eq!(
            derive(&counting_seed(), "vienna", 0, "x", 1),
            Err(DiceError::NumberZero)
        );
        assert_eq!(
            derive(&counting_seed(), " ", 1, "x", 1),
            Err(DiceError::NoGame)
        );
    }

    #[test]
    fn hits_are_counted() {
        let roll = Roll {
            number: 1,
            purpose: "x: 5 dice".into(),
            dice: vec![6, 3, 5, 1, 2],
        };
        assert_eq!(roll.count(5), 2);
        assert_eq!(roll.count(1), 5);
    }

    #[test]
    fn the_seed_and_commitment_read_back() {
        let seed = counting_seed();
        let hex = seed.to_hex();
        assert_eq!(&hex[..8], "00010203");
        assert_eq!(Seed::from_hex(&hex), Some(seed.clone()));
        assert_eq!(Seed::from_hex(&hex.to_uppercase()), Some(seed.clone()));
        assert_eq!(Seed::from_hex(&hex[1..]), None);
        assert_eq!(Seed::from_hex(&format!("{}zz", &hex[2..])), None);
        assert_eq!(Seed::from_hex("ébcd"), None);
        let commitment = seed.commitment();
        assert_eq!(Commitment::from_hex(&commitment.to_hex()), Some(commitment));
        assert_ne!(Seed::from_bytes([1; 32]).commitment(), commitment);
        assert_eq!(format!("{seed:?}"), "Seed(secret)");
    }

    #[test]
    fn lines_read_back() {
        let dice = Dice::new(counting_seed(), "vienna");
        let commitment = dice.commitment_line();
        assert_eq!(
            commitment,
            "Dice commitment (SHA-256 of the seed) for game vienna: \
             630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        assert_eq!(
            parse_line(&commitment),
            Some(Ok(DiceLine::Commitment {
                game: "vienna".into(),
                commitment: counting_seed().commitment()
            }))
        );
        let reveal = dice.reveal_line();
        assert!(reveal.starts_with("Dice seed revealed for game vienna: 000102"));
        assert_eq!(
            parse_line(&format!("> {reveal}")),
            Some(Ok(DiceLine::Reveal {
                game: "vienna".into(),
                seed: counting_seed()
            }))
        );
        let roll = Roll {
            number: 12,
            purpose: "Battle (Vienna): of kings: 5 dice, +1 Charles V".into(),
            dice: vec![6, 3, 5, 1, 2],
        };
        assert_eq!(
            roll.line(),
            "Roll 12 (Battle (Vienna): of kings: 5 dice, +1 Charles V): 6 3 5 1 2"
        );
        assert_eq!(
            parse_line(&roll.line()),
            Some(Ok(DiceLine::Roll(roll.clone())))
        );
        assert_eq!(
            parse_line(
                "   Roll 12  (Battle (Vienna): of kings:  5 dice, +1 Charles V):  6 3 5 1 2 "
            ),
            Some(Ok(DiceLine::Roll(roll)))
        );
        for not_dice in [
            "Roll call: everyone",
            "Roll 12: 6",
            "Rolls 1 (x): 2",
            "",
            "Dice",
        ] {
            assert_eq!(parse_line(not_dice), None, "{not_dice}");
        }
        for bad in [
            "Roll 0 (x): 1",
            "Roll 3 (x): 7",
            "Roll 3 (x): 1 two",
            "Roll 3 (x):",
            "Roll 3 (x) 1 2",
            "Roll 3 (): 1",
            "Roll 99999999999999999999999 (x): 1",
            "Dice commitment (SHA-256 of the seed) for game vienna: 12ab",
            "Dice commitment for game vienna: 12ab",
            "Dice seed revealed for game : 00",
        ] {
            assert!(matches!(parse_line(bad), Some(Err(_))), "{bad}");
        }
    }

    /// An archive of `rolls` rolls of game `vienna` with the counting seed, revealed or not.
    fn archive(rolls: u64, revealed: bool) -> Vec<String> {
        let mut dice = Dice::new(counting_seed(), "vienna");
        let mut lines = vec!["Game vienna starts.".to_string(), dice.commitment_line()];
        for i in 0..rolls {
            let roll = dice
                .roll(&format!("Battle {i}"), 1 + i as usize % 4, &[])
                .unwrap();
            lines.push(format!("Some report text for {i}."));
            lines.push(roll.line());
        }
        if revealed {
            lines.push(dice.reveal_line());
        }
        lines
    }

    #[test]
    fn a_good_archive_is_verified() {
        let text = archive(10, true).join("\n");
        let result = verify(&text);
        assert_eq!(result.problems, []);
        assert_eq!(result.verdict(), Verdict::Verified);
        assert_eq!(result.verified, 10);
        assert_eq!(result.game.as_deref(), Some("vienna"));
        assert!(result.summary().starts_with("10 rolls verified"));
        // A roll quoted again, word for word, is the same roll.
        let quoted = format!("{text}\n> {}", archive(10, true)[5]);
        assert_eq!(verify(&quoted).verdict(), Verdict::Verified);
    }

    #[test]
    fn an_archive_before_the_reveal_is_not_yet_verifiable() {
        let result = verify(&archive(3, false).join("\n"));
        assert_eq!(result.verdict(), Verdict::NotRevealed);
        assert_eq!(result.rolls.len(), 3);
        assert_eq!(
            verify("Nothing here.\nRoll call.").verdict(),
            Verdict::NoDice
        );
    }

    #[test]
    fn tampering_is_found() {
        let good = archive(6, true);
        let problems = |lines: &[String]| verify(&lines.join("\n")).problems;

        // A die changed: line 5 is roll 2 (2 dice).
        let mut lines = good.clone();
        let roll = match parse_line(&lines[5]) {
            Some(Ok(DiceLine::Roll(roll))) => roll,
            other => panic!("{other:?}"),
        };
        let mut changed = roll.clone();
        changed.dice[0] = changed.dice[0] % 6 + 1;
        lines[5] = changed.line();
        assert_eq!(
            problems(&lines),
            [Problem::Dice {
                roll: changed,
                derived: roll.dice.clone()
            }]
        );

        // A purpose changed.
        let mut lines = good.clone();
        lines[5] = lines[5].replace("Battle 1", "Battle 1, +1 Suleiman");
        assert!(matches!(&problems(&lines)[..], [Problem::Dice { roll, .. }] if roll.number == 2));

        // A roll left out.
        let mut lines = good.clone();
        lines.remove(5);
        assert_eq!(problems(&lines), [Problem::Missing { from: 2, to: 2 }]);

        // A number used twice (the referee rolled again).
        let mut lines = good.clone();
        lines.insert(6, lines[5].replace("Battle 1", "Battle one"));
        assert!(
            matches!(&problems(&lines)[..], [Problem::Repeated { first, .. }] if first.number == 2)
        );

        // Rolls announced in another order.
        let mut lines = good.clone();
        lines.swap(5, 7);
        assert_eq!(
            problems(&lines),
            [Problem::OutOfOrder {
                number: 2,
                after: 3
            }]
        );

        // Another seed revealed.
        let mut lines = good.clone();
        let last = lines.len() - 1;
        lines[last] = reveal_line("vienna", &Seed::from_bytes([9; 32]));
        assert!(matches!(
            &problems(&lines)[..],
            [Problem::SeedMismatch { .. }]
        ));

        // A roll after the reveal, a roll before the commitment, no commitment at all.
        let mut lines = good.clone();
        lines.swap(last, last - 1);
        assert_eq!(problems(&lines), [Problem::AfterReveal { number: 6 }]);
        let mut lines = good.clone();
        lines.swap(1, 3);
        assert_eq!(problems(&lines), [Problem::BeforeCommitment { number: 1 }]);
        let mut lines = good.clone();
        lines.remove(1);
        assert_eq!(problems(&lines), [Problem::NoCommitment]);

        // A line garbled, two games.
        let mut lines = good.clone();
        lines[5] = lines[5].replace("): ", "): x");
        assert!(matches!(
            &problems(&lines)[..],
            [
                Problem::Unreadable { .. },
                Problem::Missing { from: 2, to: 2 }
            ]
        ));
        let mut lines = good.clone();
        lines[last] = reveal_line("graz", &counting_seed());
        assert!(matches!(&problems(&lines)[0], Problem::OtherGame { .. }));
    }
}
