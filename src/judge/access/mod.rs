//! Who a letter may act as: passwords (argon2id), wrong passwords counted and seats locked,
//! proof past the hourly limit, tokens mailed and sent back (CONFIRM), letters held for a
//! locked seat, who may see a game, and robots the headers do not give away.

pub(crate) mod confirm;
pub(crate) mod held;
pub(crate) mod lockout;
pub(crate) mod password;
pub(crate) mod proof;
pub(crate) mod robots;
pub(crate) mod seat;
pub(crate) mod secrecy;
