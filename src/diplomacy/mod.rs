//! The rules of Diplomacy, pure: no files, network, SQL, clock or randomness.
//!
//! `adjudicate` turns a `Position` and orders into a `Resolution` whose outcomes say why
//! each order did what it did. It never fails: illegal orders become outcomes.

pub mod adjudicate;
pub mod credit;
pub mod map;
pub mod order;
pub mod position;
pub mod power;
pub mod progress;
pub mod rules;
pub mod turn;
pub mod unit;
