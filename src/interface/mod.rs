//! Interfaces to the outside world that are not mail: the JSON of `strategos adjudicate`.

pub mod adjudicate;
pub mod case;
mod reading;
pub(crate) mod result;
pub mod stream;
mod workers;
mod writing;
