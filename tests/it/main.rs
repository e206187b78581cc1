//! The one integration test binary. Each module tests one boundary through data:
//!
//! - `datc`: every DATC v3.0 case (`tests/data/datc/cases.json`) under both rules editions.
//! - `game`: phases played one after another: skipped phases, ownership, builds.
//! - `rulebook`: the 2000 rulebook's diagrams 28 to 32 (`tests/data/rulebook/`) and our own
//!   cases beyond the DATC (`tests/data/cases/own.json`).
//! - `cli`: `strategos adjudicate` run as a program: its JSON, errors and exit codes.
//! - `variants`: shipped variant files load; bad files give every problem, never a panic.
//! - `orders`: the order-parsing table (`tests/data/text/orders.txt`) and property tests.
//! - `random`: random phases adjudicate without panics to legal boards.

mod case;
mod cli;
mod datc;
mod game;
mod orders;
mod random;
mod rulebook;
mod variants;
