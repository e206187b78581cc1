//! Strategos, a play-by-email judge for Diplomacy and its variants.
//!
//! - `diplomacy`: the rules core (map, orders, positions, adjudication); pure.
//! - `variant`: variant files (TOML) loaded and validated into a `Variant`.
//! - `text`: players' text read into orders, with diagnostics; never fails.
//! - `interface`: the JSON interface of `strategos adjudicate`.
//! - `letter`: incoming and outgoing letters, plain data.
//! - `mail`: reading, writing, fetching and sending mail.
//! - `archive`: the archive as a static web site, and the SUMMARY of a game.
//! - `watchdog`, `fault`: the time limit on one letter's handling, and faults injected by tests.
//! - `files`: files written whole and renamed into place, private unless meant public.
//! - `syslog`: the system log, where `strategos deliver` logs (never on its output).
//!
//! `ARCHITECTURE.md` at the top of the repository describes how these fit together.

pub mod archive;
pub mod config;
pub mod daemon;
pub mod dice;
pub mod diplomacy;
pub mod drawing;
pub mod fault;
pub mod files;
pub mod his;
pub mod interface;
pub mod judge;
pub mod letter;
pub mod mail;
pub mod report;
pub mod store;
pub mod syslog;
pub mod text;
pub mod variant;
pub mod watchdog;
