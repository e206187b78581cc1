//! Checks a data-driven table of order texts (`tests/data/text/orders.txt`) against a map.
//!
//! The format is described at the top of that file. Besides what each case expects, every
//! order read is rendered and read again, and must come back the same.

use strategos::diplomacy::turn::PhaseKind;
use strategos::text::order::{parse_order, parse_orders, render};
use strategos::text::{Diagnostic, Severity};
use strategos::variant::Variant;

/// A diagnostic a case expects.
struct Expected {
    severity: Severity,
    line: Option<usize>,
    column: Option<usize>,
    /// Must occur in the message.
    text: String,
}

/// Check every case of `table` against the variant's map: the number of cases, and one line per failure.
pub fn check_table(variant: &Variant, table: &str) -> (usize, Vec<String>) {
    let mut cases = 0;
    let mut failures = Vec::new();
    for (index, line) in table.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        cases += 1;
        if let Err(why) = check_case(variant, line) {
            failures.push(format!(
                "orders table line {}: {line}\n    {why}",
                index + 1
            ));
        }
    }
    (cases, failures)
}

fn check_case(variant: &Variant, case: &str) -> Result<(), String> {
    let map = &variant.map;
    let fields: Vec<&str> = case.split('|').map(str::trim).collect();
    let (Some(phase), Some(input)) = (fields.first(), fields.get(1)) else {
        return Err("a case needs a phase and an input".into());
    };
    let phase = match phase.to_ascii_uppercase().as_str() {
        "M" => PhaseKind::Movement,
        "R" => PhaseKind::Retreat,
        "A" => PhaseKind::Adjustment,
        other => return Err(format!("unknown phase '{other}' (M, R or A)")),
    };
    let input = input.replace("\\n", "\n");
    let mut want_orders = Vec::new();
    let mut want_diagnostics = Vec::new();
    for item in fields.iter().skip(2).filter(|f| !f.is_empty()) {
        match expected_diagnostic(item)? {
            Some(d) => want_diagnostics.push(d),
            None => want_orders.push(item.to_string()),
        }
    }
    let (orders, diagnostics) = parse_orders(variant, phase, &input);
    let got: Vec<String> = orders.iter().map(|o| render(map, &o.order)).collect();
    if got != want_orders {
        return Err(format!(
            "orders: got {got:?}, expected {want_orders:?}; diagnostics {:?}",
            show(&diagnostics)
        ));
    }
    let matches = diagnostics.len() == want_diagnostics.len()
        && diagnostics.iter().zip(&want_diagnostics).all(|(d, w)| {
            d.severity == w.severity
                && w.line.is_none_or(|l| l == d.line)
                && w.column.is_none_or(|c| c == d.column)
                && d.message.contains(&w.text)
        });
    if !matches {
        return Err(format!("diagnostics: got {:?}", show(&diagnostics)));
    }
    for parsed in &orders {
        let text = render(map, &parsed.order);
        let (again, diagnostics) = parse_order(variant, phase, &text);
        if again.as_ref() != Some(&parsed.order) || !diagnostics.is_empty() {
            return Err(format!(
                "'{text}' reads back as {again:?}, {:?}",
                show(&diagnostics)
            ));
        }
    }
    Ok(())
}

fn show(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{:?}@{}:{}: {}", d.severity, d.line, d.column, d.message))
        .collect()
}

/// `ERROR: text`, `WARNING@7: text`, `ERROR@2:7: text`; `None` for an order.
fn expected_diagnostic(item: &str) -> Result<Option<Expected>, String> {
    let (severity, rest) = if let Some(rest) = item.strip_prefix("ERROR") {
        (Severity::Error, rest)
    } else if let Some(rest) = item.strip_prefix("WARNING") {
        (Severity::Warning, rest)
    } else {
        return Ok(None);
    };
    let Some((place, text)) = rest.split_once(": ") else {
        return Err(format!(
            "'{item}': write 'ERROR: text' or 'ERROR@column: text'"
        ));
    };
    let number = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("bad position in '{item}'"))
    };
    let (line, column) = match place.strip_prefix('@') {
        None if place.is_empty() => (None, None),
        None => {
            return Err(format!(
                "'{item}': write 'ERROR: text' or 'ERROR@column: text'"
            ));
        }
        Some(p) => match p.split_once(':') {
            Some((l, c)) => (Some(number(l)?), Some(number(c)?)),
            None => (None, Some(number(p)?)),
        },
    };
    Ok(Some(Expected {
        severity,
        line,
        column,
        text: text.trim().to_string(),
    }))
}
