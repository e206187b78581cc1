//! Mail at the edges: reading raw messages into letters, writing letters into raw
//! messages, moving raw messages in and out (Maildir, IMAP, SMTP, sendmail), and what is
//! kept of a raw letter once it is settled (`redact`).
//!
//! The only network code of the judge lives here; it knows nothing of games.

pub mod compose;
pub mod imap;
pub mod maildir;
pub mod read;
pub mod redact;
pub mod security;
pub mod send;
