//! Mail at the edges: reading raw messages into letters, writing letters into raw
//! messages, and moving raw messages in and out (Maildir, IMAP, SMTP, sendmail).
//!
//! The only network code of the judge lives here; it knows nothing of games.

pub mod compose;
pub mod imap;
pub mod maildir;
pub mod read;
pub mod security;
pub mod send;
