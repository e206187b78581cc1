//! Strategos, a play-by-email judge for Diplomacy and its variants.
//!
//! - `diplomacy`: the rules core (map, orders, positions, adjudication); pure.
//! - `variant`: variant files (TOML) loaded and validated into a `Variant`.
//! - `text`: players' text read into orders, with diagnostics; never fails.
//! - `interface`: the JSON interface of `strategos adjudicate`.
//! - `game`: the game as the judge keeps it, typed: its kind and state, settings, wishes.
//! - `letter`: incoming and outgoing letters, plain data.
//! - `lang`: the languages the judge writes in (`Lang`), one type for every layer.
//! - `message`: a sentence not yet in any language (`Message`, `msg!`).
//! - `mail`: reading, writing, fetching and sending mail.
//! - `archive`: the archive as a static web site, and the SUMMARY of a game.
//! - `daemon`: the loop and the clock, with its watchdog (the time limit on one letter's
//!   handling) and the faults tests inject.
//! - `files`: files written whole and renamed into place, private unless meant public.
//! - `syslog`: the system log, where `strategos deliver` logs (never on its output).
//!
//! `ARCHITECTURE.md` at the top of the repository describes how these fit together.

pub mod archive;
pub mod atlas;
pub mod config;
pub mod daemon;
pub mod dice;
pub mod diplomacy;
pub mod drawing;
pub mod files;
pub mod game;
pub mod his;
pub mod interface;
pub mod judge;
pub mod lang;
pub mod letter;
pub mod mail;
pub mod message;
pub mod report;
pub mod store;
pub mod syslog;
pub mod text;
pub mod variant;
