//! A game's phases: starting a game and processing a phase (`process.rs`), the results
//! letter as njudge writes it (`results.rs`, its blocks of centres and adjustments in
//! `reckoning.rs`), the subjects of every letter about a game (`subjects.rs`),
//! reminders, late notices and grace (`deadlines.rs`), njudge's date settings and early
//! processing (`timing.rs`), and the picture letters carry (`pictures.rs`).

pub(crate) mod deadlines;
pub(crate) mod pictures;
pub(crate) mod process;
pub(crate) mod reckoning;
pub(crate) mod results;
pub(crate) mod subjects;
pub(crate) mod timing;
