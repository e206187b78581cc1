//! Whether the powers' colours are told apart by colour-blind readers: each colour is seen as
//! a reader with protanopia, deuteranopia or tritanopia sees it (the matrices of Machado,
//! Oliveira and Fernandes 2009, full severity, on linear RGB), and every two colours must stay
//! at least `LEAST_DIFFERENCE` apart in CIELAB (ΔE 1976). The shipped palettes are Okabe and
//! Ito's, made for this.

/// The least colour difference (ΔE 1976) between two powers, for every kind of reader.
pub const LEAST_DIFFERENCE: f64 = 15.0;

/// The most powers that each get a colour of their own (`SEVENTEEN` holds that many apart).
/// A variant with more (Chaos's 34) shares colours among them, and its pictures mark units
/// and centres with the power's letter; the colours it uses must still stay apart.
pub const MOST_COLOURS: usize = 17;

/// Seventeen colours every two of which stay `LEAST_DIFFERENCE` apart for every kind of
/// reader (ΔE 16 at the closest): Okabe and Ito's seven first, then ten found by search
/// (farthest first among the colours of middle lightness, then improved at random).
pub const SEVENTEEN: [&str; 17] = [
    "#D55E00", "#0072B2", "#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#1306FE",
    "#BD1227", "#C0DB63", "#135B17", "#AD25F9", "#1FF897", "#C3A464", "#6C06B5", "#673E48",
    "#A0E4D5",
];

const SIGHTS: [(&str, [[f64; 3]; 3]); 4] = [
    (
        "normal",
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    ),
    (
        "protanopia",
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ],
    ),
    (
        "deuteranopia",
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ],
    ),
    (
        "tritanopia",
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ],
    ),
];

fn linear(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

fn seen(colour: &str, sight: &[[f64; 3]; 3]) -> [f64; 3] {
    let (r, g, b) = super::svg::rgb(colour);
    let rgb = [linear(r), linear(g), linear(b)];
    let row = |i: usize| {
        (sight[i][0] * rgb[0] + sight[i][1] * rgb[1] + sight[i][2] * rgb[2]).clamp(0.0, 1.0)
    };
    lab([row(0), row(1), row(2)])
}

/// Every two colours (named) too alike for some reader: `(sight, a, b, difference)`.
pub fn too_alike<'a>(colours: &[(&'a str, &'a str)]) -> Vec<(&'static str, &'a str, &'a str, f64)> {
    let mut out = Vec::new();
    for (name, sight) in &SIGHTS {
        for (i, (a, ca)) in colours.iter().enumerate() {
            for (b, cb) in &colours[i + 1..] {
                let (x, y) = (seen(ca, sight), seen(cb, sight));
                let d =
                    ((x[0] - y[0]).powi(2) + (x[1] - y[1]).powi(2) + (x[2] - y[2]).powi(2)).sqrt();
                if d < LEAST_DIFFERENCE {
                    out.push((*name, *a, *b, d));
                }
            }
        }
    }
    out
}
