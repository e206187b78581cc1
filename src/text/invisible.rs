//! Characters that change how text reads without being seen: bidirectional controls (which
//! can make a name read backwards), zero-width and joining characters (which make two names
//! that look the same differ), fillers that show as blank, and the other invisible format
//! characters of Unicode (general category Cf, and the blank letters outside it). Names, and
//! anything else one player writes for others to read as a name or a heading, may hold none.

/// The invisible characters, as inclusive ranges of code points.
const INVISIBLE: [(u32, u32); 24] = [
    (0x00AD, 0x00AD),   // soft hyphen
    (0x034F, 0x034F),   // combining grapheme joiner
    (0x0600, 0x0605),   // Arabic number signs (format)
    (0x061C, 0x061C),   // Arabic letter mark
    (0x06DD, 0x06DD),   // Arabic end of ayah
    (0x070F, 0x070F),   // Syriac abbreviation mark
    (0x08E2, 0x08E2),   // Arabic disputed end of ayah
    (0x115F, 0x1160),   // Hangul fillers
    (0x17B4, 0x17B5),   // Khmer inherent vowels
    (0x180B, 0x180F),   // Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),   // zero width space, non-joiner, joiner; left-to-right, right-to-left marks
    (0x2028, 0x202E),   // line and paragraph separators; embeddings and overrides
    (0x2060, 0x206F),   // word joiner, invisible operators, isolates, deprecated format
    (0x2800, 0x2800),   // Braille blank
    (0x3164, 0x3164),   // Hangul filler
    (0xFE00, 0xFE0F),   // variation selectors
    (0xFEFF, 0xFEFF),   // zero width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),   // halfwidth Hangul filler
    (0xFFF9, 0xFFFB),   // interlinear annotation
    (0x110BD, 0x110BD), // Kaithi number sign
    (0x13430, 0x1343F), // Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3), // shorthand format controls
    (0x1D173, 0x1D17A), // musical symbol format controls
    (0xE0000, 0xE0FFF), // tags and variation selectors supplement
];

/// Whether `c` is invisible in this sense (see the module).
pub fn is_invisible(c: char) -> bool {
    let c = u32::from(c);
    INVISIBLE
        .iter()
        .any(|(from, to)| (*from..=*to).contains(&c))
}

/// The first invisible character of `text`, if it holds one.
pub fn first_invisible(text: &str) -> Option<char> {
    text.chars().find(|c| is_invisible(*c))
}

/// `text` without its invisible characters.
pub fn without_invisible(text: &str) -> String {
    text.chars().filter(|c| !is_invisible(*c)).collect()
}

/// How a refused character is named to a player: `U+202E`.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_and_zero_width_characters_are_invisible_and_letters_are_not() {
        for c in [
            '\u{202E}',
            '\u{2066}',
            '\u{200B}',
            '\u{200D}',
            '\u{FEFF}',
            '\u{3164}',
            '\u{E0041}',
        ] {
            assert!(is_invisible(c), "{}", code_point(c));
        }
        for c in ['a', 'Я', 'é', 'א', 'ع', ' ', '-', '中'] {
            assert!(!is_invisible(c), "{}", code_point(c));
        }
        assert_eq!(without_invisible("Bo\u{200B}b \u{202E}kcaH"), "Bob kcaH");
        assert_eq!(first_invisible("Ann \u{2066}x"), Some('\u{2066}'));
        assert_eq!(code_point('\u{202E}'), "U+202E");
    }
}
