//! What each command of a letter does, by family: seats (REGISTER, CREATE, SIGNON, OBSERVE,
//! RESIGN), information (LIST, HISTORY, SUMMARY, WHOIS, WHO GAME), play (orders, CREDIT,
//! orders for later phases), press, a player's settings, a master's commands and settings,
//! forming games, diaries, help, CONFIRM, an account's addresses and what the classic judges
//! offer that this one does not.

pub(crate) mod addresses;
pub(crate) mod confirm;
pub(crate) mod credit;
pub(crate) mod diary;
pub(crate) mod forming;
pub(crate) mod future;
pub(crate) mod help;
pub(crate) mod his;
pub(crate) mod info;
pub(crate) mod master;
pub(crate) mod master_settings;
pub(crate) mod play;
pub(crate) mod press;
pub(crate) mod roster;
pub(crate) mod seats;
pub(crate) mod unsupported;
pub(crate) mod wishes;
