//! `strategos adjudicate` on several threads: the calling thread reads the cases and writes
//! the results, in the input's order; worker threads read each case's JSON, adjudicate it and
//! lay out its result. The output is byte for byte what one thread writes.
//!
//! The calling thread is one of the threads asked for: when the workers have enough batches
//! queued and no result waits to be written, it adjudicates the next batch itself. (With a
//! thread a core for the workers besides, the three threads of two cores left the workers
//! without batches whenever the reader waited for a core: 7 to 12% slower, measured A/B.)
//!
//! Cases go to the workers in batches (one lock and one message per batch, not per case; a
//! batch ends at 16 cases or 256 kB of them), and at most `IN_FLIGHT` batches a thread are
//! read and not yet written, so memory stays bounded whatever the size of the input and
//! however slow the output. A case that is not JSON stops the run
//! where one thread would stop it: the results before it are written, none after.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

use super::case;
use super::result::{Options, StreamError, Summary, run_case};
use super::stream::{CaseReader, InputError, Next, ResultWriter};
use super::writing::write_entry;
use crate::text::order::OrderReader;
use crate::variant::Variants;

/// Cases handed to a worker at a time.
const BATCH: usize = 16;
/// A batch closes early once its cases' text passes this size, so that a file of very large
/// cases holds no more in memory than one of ordinary ones (plus one case a batch).
const BATCH_BYTES: usize = 256 * 1024;
/// Batches read and not yet written, at most, for each thread.
const IN_FLIGHT: usize = 4;

/// Cases handed to a worker: their texts one after another, and where each ends.
#[derive(Default)]
struct Batch {
    text: Vec<u8>,
    ends: Vec<usize>,
}

impl Batch {
    fn cases(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(from, to)| &self.text[from..*to])
    }
}

/// A batch's results: their entries laid out one after another, and what became of each case.
struct Results {
    text: Vec<u8>,
    done: Vec<Done>,
}

/// What became of one case of a batch.
enum Done {
    /// Its entry (where it ends in the text) and whether it is an `error` entry.
    Entry(usize, bool),
    /// The case is not JSON: the run stops here.
    NotJson(String),
    /// The worker panicked on the batch (its message is printed already).
    Panicked,
}

/// Adjudicates the cases of `input` on `threads` worker threads; see `run_stream`.
pub(super) fn run_on_threads(
    input: impl Read,
    output: impl Write,
    variants: &(impl Variants + ?Sized),
    options: &Options,
    threads: usize,
) -> Result<Summary, StreamError> {
    let (to_workers, batches) = mpsc::channel::<(usize, Batch)>();
    let batches = Mutex::new(batches);
    let (to_writer, done) = mpsc::channel::<(usize, Results)>();
    // Set when the run stops early: the workers leave the batches still queued.
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // The calling thread adjudicates too, whenever the workers have enough batches queued
        // and no result is waiting to be written: so many threads as asked, no more.
        for _ in 1..threads {
            let to_writer = to_writer.clone();
            let (batches, stopped) = (&batches, &stopped);
            scope.spawn(move || {
                let mut orders = OrderReader::default();
                loop {
                    let next = batches.lock().map(|b| b.recv());
                    let Ok(Ok((serial, cases))) = next else {
                        return;
                    };
                    if stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    // A panic is told to the writer, which waits for this batch, and stops it.
                    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        adjudicate_batch(&cases, variants, options, &mut orders)
                    }));
                    let panicked = results.is_err();
                    let results = results.unwrap_or_else(|_| Results {
                        text: Vec::new(),
                        done: vec![Done::Panicked],
                    });
                    if to_writer.send((serial, results)).is_err() || panicked {
                        return;
                    }
                }
            });
        }
        drop(to_writer);
        let mut orders = OrderReader::default();
        let mut help = |cases: &Batch| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                adjudicate_batch(cases, variants, options, &mut orders)
            }))
            .unwrap_or_else(|_| Results {
                text: Vec::new(),
                done: vec![Done::Panicked],
            })
        };
        let result = read_and_write(
            input,
            output,
            &to_workers,
            &done,
            IN_FLIGHT * threads,
            &mut help,
        );
        stopped.store(true, Ordering::Relaxed);
        drop(to_workers);
        result
    })
}

/// Each case of a batch read, adjudicated and laid out, up to the first that is not JSON.
fn adjudicate_batch(
    batch: &Batch,
    variants: &(impl Variants + ?Sized),
    options: &Options,
    orders: &mut OrderReader,
) -> Results {
    let mut results = Results {
        text: Vec::with_capacity(batch.ends.len() * 8 * 1024),
        done: Vec::with_capacity(batch.ends.len()),
    };
    for text in batch.cases() {
        let case = match case::from_json(text) {
            Ok(case) => case,
            Err(e) => {
                results.done.push(Done::NotJson(e.to_string()));
                break;
            }
        };
        let entry = run_case(&case, variants, options, orders);
        write_entry(&mut results.text, &entry);
        results
            .done
            .push(Done::Entry(results.text.len(), entry.is_error()));
    }
    results
}

/// The calling thread's part: reads batches of cases and hands them out while fewer than
/// `most` are unwritten, adjudicates the next batch itself (`help`) while the workers have
/// enough and no result waits, and writes the results in the input's order.
fn read_and_write(
    input: impl Read,
    output: impl Write,
    to_workers: &mpsc::Sender<(usize, Batch)>,
    done: &mpsc::Receiver<(usize, Results)>,
    most: usize,
    help: &mut dyn FnMut(&Batch) -> Results,
) -> Result<Summary, StreamError> {
    let mut reader = CaseReader::new(input);
    let mut writer = ResultWriter::new(output);
    let mut any_error = false;
    // Batches handed out (or adjudicated here), and written.
    let (mut sent, mut written) = (0usize, 0usize);
    let mut waiting: BTreeMap<usize, Results> = BTreeMap::new();
    let mut input = Input {
        reader: &mut reader,
        over: false,
        problem: None,
    };
    let mut problem: Option<String> = None;
    loop {
        while !input.over && sent - written < most {
            let Some(cases) = input.batch()? else {
                break;
            };
            if to_workers.send((sent, cases)).is_err() {
                break;
            }
            sent += 1;
        }
        if written == sent {
            break;
        }
        let received = match done.try_recv() {
            Ok(results) => Some(results),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => break,
        };
        let (serial, results) = match received {
            Some(results) => results,
            None if !input.over => match input.batch()? {
                Some(cases) => {
                    sent += 1;
                    (sent - 1, help(&cases))
                }
                None => continue,
            },
            // Every worker gone with batches unwritten: one of them panicked (the scope says
            // so).
            None => match done.recv() {
                Ok(results) => results,
                Err(_) => break,
            },
        };
        waiting.insert(serial, results);
        while let Some(results) = waiting.remove(&written) {
            written += 1;
            let mut from = 0;
            for result in results.done {
                match result {
                    Done::Entry(to, is_error) => {
                        any_error |= is_error;
                        writer
                            .entry_text(&results.text[from..to])
                            .map_err(StreamError::Write)?;
                        from = to;
                    }
                    Done::NotJson(message) => problem = Some(message),
                    Done::Panicked => panic!("adjudicating a case panicked"),
                }
            }
            if problem.is_some() {
                break;
            }
        }
        if problem.is_some() {
            break;
        }
    }
    let input_problem = input.problem;
    let cases = writer.entries();
    match problem.or(input_problem) {
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

/// The input as the calling thread reads it, a batch at a time.
struct Input<'r, R> {
    reader: &'r mut CaseReader<R>,
    /// No more cases will come.
    over: bool,
    /// Why the input stopped short (reported once every case before it is written).
    problem: Option<String>,
}

impl<R: Read> Input<'_, R> {
    /// The next batch of cases; `None` once the input is over.
    fn batch(&mut self) -> Result<Option<Batch>, StreamError> {
        let mut cases = Batch::default();
        while !self.over && cases.ends.len() < BATCH && cases.text.len() < BATCH_BYTES {
            match self.reader.next_case() {
                Ok(Next::Case(text)) => {
                    cases.text.extend_from_slice(text);
                    cases.ends.push(cases.text.len());
                }
                Ok(Next::End) => self.over = true,
                Err(InputError::Read(e)) => return Err(StreamError::Read(e)),
                Err(InputError::NotJson(message)) => {
                    self.over = true;
                    self.problem = Some(message);
                }
            }
        }
        Ok((!cases.ends.is_empty()).then_some(cases))
    }
}
