//! Dice everyone can verify: one secret seed per game, committed to in the first report and revealed at the end; every roll derived from it.
//!
//! The referee draws 32 random bytes per game (the caller's job: this module takes the bytes,
//! it never draws them) and publishes their SHA-256, the commitment, in the game's first
//! report. Each roll is then HMAC-SHA256 keyed by the seed over the game's name, the running
//! roll number, the stated purpose and the number of dice, expanded block by block and read a
//! byte at a time with rejection sampling, so every face is equally likely. Every roll is
//! announced as one line (`Roll 12 (Hapsburg defending in the field battle at Vienna: 5 dice, 2
//! units, +2 Charles V, +1 defender): 6 5 4 2 6`); when the game ends the seed is revealed and [`verify`] recomputes every roll
//! from the text of the archive. `docs/dice.md` gives the derivation byte by byte.
//!
//! The lines are the same in every language: they are read back by programs.

use std::collections::BTreeMap;
use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

mod line;
mod verify;

pub use line::{DiceLine, commitment_line, parse_line, reveal_line};
pub use verify::{Problem, Verdict, Verification, verify};

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
    /// What is rolled, how many dice, and the details (modifiers, what makes up the dice, what
    /// the faces mean): `Hapsburg interception from Graz into Vienna: 2 dice, +2 Charles V, -1
    /// against Ottoman cavalry`. Tidied: no line breaks, single spaces, nothing around it.
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
        // Purposes as the Here I Stand referee states them.
        let battle = "Hapsburg defending in the field battle at Vienna: 5 dice, 2 units, +2 Charles V, +1 defender";
        assert_eq!(
            derive(&seed, "vienna", 12, battle, 5).unwrap(),
            [6, 5, 4, 2, 6]
        );
        let odd = "Odd loss in the field battle at Calais: 1 die, 1-3 Hapsburg, 4-6 England";
        assert_eq!(derive(&seed, "vienna", 1, odd, 1).unwrap(), [5]);
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
        let first = dice
            .roll(
                "Odd loss in the field battle at Calais",
                1,
                &["1-3 Hapsburg", "4-6 England"],
            )
            .unwrap();
        assert_eq!(first.number, 1);
        assert_eq!(
            first.purpose,
            "Odd loss in the field battle at Calais: 1 die, 1-3 Hapsburg, 4-6 England"
        );
        assert_eq!(
            first.line(),
            "Roll 1 (Odd loss in the field battle at Calais: 1 die, 1-3 Hapsburg, 4-6 England): 5"
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
    fn dice_lines_broken_over_several_lines_are_read_whole() {
        let good = archive(6, true).join("\n");
        // As a mail program may break them (the judge never does): greedily at spaces.
        let broken = |width: usize| -> String {
            let mut out = Vec::new();
            for line in good.lines() {
                let mut current = String::new();
                for word in line.split(' ') {
                    if !current.is_empty() && current.len() + 1 + word.len() > width {
                        out.push(std::mem::take(&mut current));
                    }
                    if !current.is_empty() {
                        current.push(' ');
                    }
                    current.push_str(word);
                }
                out.push(current);
            }
            out.join("\n")
        };
        for width in [78, 40] {
            let wrapped = broken(width);
            assert_ne!(wrapped, good);
            let verification = verify(&wrapped);
            assert_eq!(
                verification.verdict(),
                Verdict::Verified,
                "{:?}",
                verification.problems
            );
            assert_eq!(verification.verified, 6);
        }
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
