//! Writing SVG: escaped text, path data, numbers with one decimal, the palette's helpers, and
//! the symbols every picture shares (units, supply centres, arrows).

use std::fmt::Write;

pub use crate::atlas::geometry::{Point, lines_path, push_num, rings_path};

/// Text made safe inside an element or an attribute.
pub fn escape(text: &str) -> String {
    let plain: String = text
        .chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .collect();
    crate::report::escape::html(&plain)
}

/// A number with at most one decimal.
pub fn num(x: f64) -> String {
    let mut out = String::new();
    push_num(&mut out, x);
    out
}

/// `(r, g, b)` of `#rrggbb` (grey if it is no colour).
pub fn rgb(colour: &str) -> (u8, u8, u8) {
    let hex = colour.trim_start_matches('#');
    let part = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    (part(0), part(2), part(4))
}

/// `colour` mixed with white: `amount` 0 keeps it, 1 is white.
pub fn tint(colour: &str, amount: f64) -> String {
    let (r, g, b) = rgb(colour);
    let mix = |c: u8| (c as f64 + (255.0 - c as f64) * amount).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

/// Black or white, whichever reads better on `colour`.
pub fn ink_on(colour: &str) -> &'static str {
    let (r, g, b) = rgb(colour);
    let luminance = 0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64;
    if luminance > 140.0 { "#111" } else { "#fff" }
}

/// A label with a white halo, so it reads on any fill.
pub fn label(out: &mut String, at: Point, text: &str, size: f64, fill: &str, extra: &str) {
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="{fill}" stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"{extra}>{}</text>"##,
        num(at.x),
        num(at.y),
        num(size),
        escape(text)
    );
}

/// A unit symbol: an army is a disc, a fleet a hull, each with its letter (A or F, or the
/// power's letter where powers share colours: `mark`); `dashed` for a dislodged unit.
pub fn unit_symbol(
    out: &mut String,
    at: Point,
    fleet: bool,
    colour: &str,
    dislodged: bool,
    mark: Option<char>,
) {
    let (stroke, width, dash) = if dislodged {
        ("#c00", "2.5", r##" stroke-dasharray="3 2""##)
    } else {
        ("#222", "1.5", "")
    };
    if fleet {
        let (x, y) = (at.x, at.y);
        let _ = write!(
            out,
            r##"<path d="M{} {}L{} {}L{} {}L{} {}Z" fill="{colour}" stroke="{stroke}" stroke-width="{width}"{dash}/>"##,
            num(x - 12.0),
            num(y - 6.0),
            num(x + 12.0),
            num(y - 6.0),
            num(x + 8.0),
            num(y + 7.0),
            num(x - 8.0),
            num(y + 7.0)
        );
    } else {
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="9" fill="{colour}" stroke="{stroke}" stroke-width="{width}"{dash}/>"##,
            num(at.x),
            num(at.y)
        );
    }
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="{}">{}</text>"##,
        num(at.x),
        num(at.y + 4.0),
        ink_on(colour),
        mark.unwrap_or(if fleet { 'F' } else { 'A' })
    );
}

/// A supply centre's marker: the owner's colour, or white for a neutral one.
pub fn centre_symbol(out: &mut String, at: Point, fill: &str) {
    let _ = write!(
        out,
        r##"<circle cx="{}" cy="{}" r="5" fill="{fill}" stroke="#222" stroke-width="1.5"/><circle cx="{}" cy="{}" r="1.6" fill="#222"/>"##,
        num(at.x),
        num(at.y),
        num(at.x),
        num(at.y)
    );
}

/// `a` moved `by` pixels toward `b`.
pub fn toward(a: Point, b: Point, by: f64) -> Point {
    let d = a.distance(b);
    if d < 1e-9 {
        a
    } else {
        a.lerp(b, (by / d).min(0.5))
    }
}

/// The arrowheads the orders use, one per colour given.
pub fn arrow_markers(out: &mut String, colours: &[(&str, &str)]) {
    out.push_str("<defs>");
    for (id, colour) in colours {
        let _ = write!(
            out,
            r##"<marker id="{id}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10Z" fill="{colour}" stroke="#222" stroke-width="1"/></marker>"##
        );
    }
    out.push_str("</defs>");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `num` as it was written first, with the float formatting: the fast one agrees.
    #[test]
    fn numbers_in_tenths_are_what_the_float_formatting_writes() {
        let by_float = |x: f64| {
            let r = (x * 10.0).round() / 10.0;
            if r == r.trunc() {
                format!("{}", r as i64)
            } else {
                format!("{r:.1}")
            }
        };
        let mut x = -2000.0;
        while x < 2000.0 {
            assert_eq!(num(x), by_float(x), "{x}");
            x += 0.0137;
        }
        for x in [
            0.0, -0.0, -0.04, -0.05, -0.06, 0.05, 0.95, -0.95, 1e14, -1e14, 123.45,
        ] {
            assert_eq!(num(x), by_float(x), "{x}");
        }
    }
}
