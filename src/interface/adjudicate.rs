//! `strategos adjudicate`: cases in JSON (`docs/adjudicate-json.md`), results in JSON.
//!
//! A case that cannot be read gives an `error` entry for that case alone; orders that
//! cannot be read are player mistakes and come back `illegal` with a message.
//!
//! `run_stream` reads the cases one at a time from the input and writes each result as it
//! goes (`stream.rs`), each case read into typed fields (`case.rs`) rather than a tree of
//! values, on as many threads as the machine has cores (`workers.rs`); `run` does the same for a document already read into a `serde_json::Value`.

use std::io::{Read, Write};

use serde_json::Value;

use crate::text::order::OrderReader;
use crate::variant::Variants;

use super::case;

use super::result::{MOST_THREADS, run_case};
pub use super::result::{Options, StreamError, Summary};
use super::stream::{CaseReader, InputError, Next, ResultWriter};

/// Results of a whole input document, and whether any case had an error.
pub struct Report {
    pub results: Value,
    pub any_error: bool,
}

/// Adjudicates one case object or a list of them, already read.
pub fn run(input: &Value, variants: &(impl Variants + ?Sized), options: &Options) -> Report {
    let cases: Vec<&Value> = match input {
        Value::Array(list) => list.iter().collect(),
        other => vec![other],
    };
    let mut any_error = false;
    let mut reader = OrderReader::default();
    let results = cases
        .into_iter()
        .map(|value| {
            let case = case::from_value(value);
            let entry = run_case(&case, variants, options, &mut reader);
            any_error |= entry.outcome.is_err();
            serde_json::to_value(&entry).expect("results are JSON")
        })
        .collect();
    Report {
        results: Value::Array(results),
        any_error,
    }
}

/// Reads cases from `input` one at a time (a list of cases, or one case) and writes each
/// result to `output` as soon as it is known: memory holds one case and one result,
/// whatever the size of the input. The output is that of `run`, laid out by
/// `serde_json::to_string_pretty`, with a line end.
pub fn run_stream(
    input: impl Read,
    output: impl Write,
    variants: &(impl Variants + ?Sized),
    options: &Options,
) -> Result<Summary, StreamError> {
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(MOST_THREADS)),
        n => n.min(MOST_THREADS),
    };
    if threads > 1 {
        return super::workers::run_on_threads(input, output, variants, options, threads);
    }
    let mut reader = CaseReader::new(input);
    let mut writer = ResultWriter::new(output);
    let mut orders = OrderReader::default();
    let mut any_error = false;
    // One entry's text, laid out before it is written.
    let mut text = Vec::new();
    let problem = loop {
        let case_text = match reader.next_case() {
            Ok(Next::Case(text)) => text,
            Ok(Next::End) => break None,
            Err(InputError::Read(e)) => return Err(StreamError::Read(e)),
            Err(InputError::NotJson(message)) => break Some(message),
        };
        let case = match case::from_json(case_text) {
            Ok(case) => case,
            Err(e) => break Some(e.to_string()),
        };
        let entry = run_case(&case, variants, options, &mut orders);
        any_error |= entry.outcome.is_err();
        text.clear();
        super::writing::write_entry(&mut text, &entry);
        writer.entry_text(&text).map_err(StreamError::Write)?;
    };
    let cases = writer.entries();
    match problem {
        None => {
            writer.finish().map_err(StreamError::Write)?;
            Ok(Summary { cases, any_error })
        }
        Some(message) => {
            if cases > 0 {
                writer.finish().map_err(StreamError::Write)?;
            }
            Err(StreamError::NotJson { message, cases })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn variants() -> Vec<Variant> {
        crate::variant::embedded().expect("embedded variants load")
    }

    /// Runs `input` through `run_stream`, and checks it gives what `run` gives the same text.
    fn streamed(input: &str) -> (Result<Summary, StreamError>, String) {
        let variants = variants();
        let mut out = Vec::new();
        let result = run_stream(input.as_bytes(), &mut out, &variants, &threads(1));
        // On several threads, the same bytes and the same end.
        let mut on_threads = Vec::new();
        let parallel = run_stream(input.as_bytes(), &mut on_threads, &variants, &threads(3));
        assert_eq!(
            String::from_utf8_lossy(&on_threads),
            String::from_utf8_lossy(&out)
        );
        assert_eq!(format!("{parallel:?}"), format!("{result:?}"));
        (result, String::from_utf8(out).unwrap())
    }

    fn threads(threads: usize) -> Options {
        Options {
            threads,
            ..Options::default()
        }
    }

    /// A case that is not JSON deep in a long list: the cases before it are written, on one
    /// thread or several, and none after it.
    #[test]
    fn many_cases_on_threads_stop_at_the_first_that_is_not_json() {
        let case = |n: usize| {
            format!(
                r#"{{"id": {n}, "phase": {{"season": "spring", "year": 1901, "kind": "movement"}},
                "units": [{{"power": "france", "type": "army", "at": "par"}}],
                "orders": {{"france": ["A PAR - BUR"]}}}}"#
            )
        };
        let mut cases: Vec<String> = (0..300).map(case).collect();
        let (result, out) = streamed(&format!("[{}]", cases.join(",")));
        assert_eq!(result.unwrap().cases, 300);
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(results[299]["id"], 299, "in the input's order");
        cases[170] = "{\"id\": }".to_string();
        let (result, out) = streamed(&format!("[{}]", cases.join(",")));
        assert!(matches!(
            result,
            Err(StreamError::NotJson { cases: 170, .. })
        ));
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(results.as_array().map(Vec::len), Some(170));
    }

    #[test]
    fn a_region_stands_for_its_province_where_the_coast_does_not_matter() {
        let case = r#"{"id": "r", "phase": {"season": "spring", "year": 1901, "kind": "retreat"},
            "units": [{"power": "turkey", "type": "fleet", "at": "rum"}],
            "dislodged": [{"power": "russia", "type": "fleet", "at": "rum", "attacker_from": "BUL/EC"}],
            "contested": ["stp/nc"], "centers": {"russia": ["stp/sc"]},
            "orders": {"russia": ["F RUM R BUL"]}}"#;
        let (result, out) = streamed(case);
        let summary = result.unwrap();
        assert!(!summary.any_error, "{out}");
        let results: Value = serde_json::from_str(&out).unwrap();
        let order = &results[0]["result"]["orders"][0];
        assert_eq!(
            order["result"], "illegal",
            "no retreat to where the attacker came from"
        );
        let case = case.replace("BUL/EC", "bul/xx");
        let (result, out) = streamed(&case);
        assert!(result.unwrap().any_error);
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            results[0]["error"],
            "dislodged[0]: unknown province 'bul/xx'"
        );
    }

    #[test]
    fn the_stream_writes_what_run_gives_and_stops_where_the_json_does() {
        let input = r#"[{"id": 1, "phase": {"season": "fall", "kind": "movement"},
              "units": [{"power": "england", "type": "army", "at": "lon"}],
              "orders": {"england": ["A LON - WAL", "A LON - Lodnon"]}},
            {"id": [2], "variant": 7}, "three"]"#;
        let (result, out) = streamed(input);
        let summary = result.unwrap();
        assert_eq!((summary.cases, summary.any_error), (3, true));
        let whole: Value = serde_json::from_str(input).unwrap();
        let report = run(&whole, &variants(), &Options::default());
        assert!(report.any_error);
        assert_eq!(
            out,
            serde_json::to_string_pretty(&report.results).unwrap() + "\n"
        );
        let (result, out) = streamed(&input.replace("\"three\"]", "\"three\" {}]"));
        match result {
            Err(StreamError::NotJson { cases: 3, .. }) => {}
            other => panic!("{other:?}"),
        }
        let written: Value = serde_json::from_str(&out).expect("the list is closed");
        assert_eq!(written.as_array().map(Vec::len), Some(3));
        let (result, out) = streamed("[{\"id\": }]");
        assert!(matches!(result, Err(StreamError::NotJson { cases: 0, .. })));
        assert_eq!(
            out, "",
            "nothing is written when the first case is not JSON"
        );
    }
}
