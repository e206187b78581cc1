//! The dice lines of an archive as people and programs read them: the commitment, each roll,
//! the revealed seed; written and read back.

use super::*;

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

/// Why a line that starts as a dice line cannot be read; its `Display` says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not 64 hexadecimal digits where a commitment or seed should be.
    NotHex(String),
    /// The words before the game's name are not the judge's.
    Words,
    /// No `<game>: <hex>` after the words.
    NoGame,
    /// No roll number (1, 2, 3...).
    RollNumber(String),
    /// No `): ` after the purpose.
    NoPurposeEnd,
    EmptyPurpose,
    /// No face of a die (1 to 6).
    Face(String),
    NoDice,
    TooManyDice,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NotHex(hex) => write!(f, "'{hex}' is not 64 hexadecimal digits"),
            LineError::Words => {
                f.write_str("the words before the game's name are not as written by the judge")
            }
            LineError::NoGame => f.write_str("no '<game>: <hex>' after the words"),
            LineError::RollNumber(n) => write!(f, "'{n}' is no roll number (1, 2, 3...)"),
            LineError::NoPurposeEnd => f.write_str("no '): ' after the purpose"),
            LineError::EmptyPurpose => f.write_str("the purpose is empty"),
            LineError::Face(face) => write!(f, "'{face}' is no face of a die (1 to 6)"),
            LineError::NoDice => f.write_str("no dice after the purpose"),
            LineError::TooManyDice => write!(f, "more than {MAX_DICE} dice"),
        }
    }
}

/// Reads one line: `None` when it is no dice line, `Some(Err(why))` when it starts like one
/// (`Roll 12 (`, `Dice commitment`, `Dice seed revealed`) but cannot be read. Spaces and
/// mail quoting (`> `) before the line are passed over; runs of spaces count as one.
pub fn parse_line(line: &str) -> Option<Result<DiceLine, LineError>> {
    let line = line.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    let line = tidy(line);
    if let Some(rest) = line.strip_prefix(COMMITMENT_START) {
        return Some(game_and_hex(rest).and_then(|(game, hex)| {
            let commitment =
                Commitment::from_hex(hex).ok_or_else(|| LineError::NotHex(hex.to_string()))?;
            Ok(DiceLine::Commitment { game, commitment })
        }));
    }
    if let Some(rest) = line.strip_prefix(REVEAL_START) {
        return Some(game_and_hex(rest).and_then(|(game, hex)| {
            let seed = Seed::from_hex(hex).ok_or_else(|| LineError::NotHex(hex.to_string()))?;
            Ok(DiceLine::Reveal { game, seed })
        }));
    }
    if line.starts_with("Dice commitment") || line.starts_with("Dice seed revealed") {
        return Some(Err(LineError::Words));
    }
    let rest = line.strip_prefix(ROLL_START)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !rest[digits..].starts_with(" (") {
        return None;
    }
    Some(parse_roll(&rest[..digits], &rest[digits + 2..]).map(DiceLine::Roll))
}

/// `12` and `purpose): 6 3 5 1 2` into a roll.
fn parse_roll(number: &str, rest: &str) -> Result<Roll, LineError> {
    let number: u64 = match number.parse() {
        Ok(n) if n > 0 => n,
        _ => return Err(LineError::RollNumber(number.to_string())),
    };
    let Some((purpose, faces)) = rest
        .rsplit_once("): ")
        .or_else(|| rest.strip_suffix("):").map(|purpose| (purpose, "")))
    else {
        return Err(LineError::NoPurposeEnd);
    };
    if purpose.is_empty() {
        return Err(LineError::EmptyPurpose);
    }
    let mut dice = Vec::new();
    for face in faces.split(' ').filter(|f| !f.is_empty()) {
        match face.parse::<u8>() {
            Ok(d @ 1..=6) => dice.push(d),
            _ => return Err(LineError::Face(face.to_string())),
        }
    }
    if dice.is_empty() {
        return Err(LineError::NoDice);
    }
    if dice.len() > MAX_DICE {
        return Err(LineError::TooManyDice);
    }
    Ok(Roll {
        number,
        purpose: purpose.to_string(),
        dice,
    })
}

/// `<game>: <hex>` (the name may hold `: `; the digits never do).
fn game_and_hex(rest: &str) -> Result<(String, &str), LineError> {
    match rest.rsplit_once(": ") {
        Some((game, hex)) if !game.is_empty() => Ok((game.to_string(), hex)),
        _ => Err(LineError::NoGame),
    }
}
