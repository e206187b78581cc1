//! Interfaces to the outside world that are not mail: the JSON of `strategos adjudicate`,
//! and its cases drawn (`picture`).

pub mod adjudicate;
pub mod case;
pub mod picture;
mod reading;
pub(crate) mod result;
pub mod stream;
mod workers;
mod writing;
