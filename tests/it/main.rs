//! The one integration test binary. Each module tests one boundary through data:
//!
//! - `attacks`: the attack table (`tests/data/attacks/*.txt`): forged, flooding and hostile
//!   letters played against a fresh judge, each ending safely; each listed in `docs/security.md`.
//! - `crash`: the judge as a process killed with SIGKILL 60 times while letters arrive; poison
//!   letters that kill or stall it (injected faults) set aside after three starts.
//! - `datc`: every DATC v3.0 case (`tests/data/datc/cases.json`) under both rules editions.
//! - `diadochi`: Diadochi V rule by rule (`tests/data/diadochi/rules.json`).
//! - `diadochi_game`: three years of Diadochi V through the judge's mail handling.
//! - `game`: phases played one after another: skipped phases, ownership, builds.
//! - `rulebook`: the 2000 rulebook's diagrams 28 to 32 (`tests/data/rulebook/`) and our own
//!   cases beyond the DATC (`tests/data/cases/own.json`).
//! - `cli`: `strategos adjudicate` and `deliver` run as programs: output, errors, exit codes.
//! - `config`: `config.toml` is the defaults; bad values name their key; secrets from the environment.
//! - `variants`: shipped variant files load; bad files give every problem, never a panic.
//! - `classics`: each classic variant from its rules (`tests/data/classics/<id>.json`).
//! - `mila`: the classic variants against positions the MILA engine decided (`tests/data/mila/`).
//! - `godip`: Youngstown Redux against nine vDiplomacy games godip keeps (`tests/data/godip/`).
//! - `commands`: the letter-command table (`tests/data/text/commands.txt`) and property tests.
//! - `orders`: the order-parsing table (`tests/data/text/orders.txt`) and property tests.
//! - `his`: the Here I Stand referee: the map file, and land movement, interception, avoiding
//!   battle and field battle played from scripts (`tests/data/his/`) with fixed dice.
//! - `random`: random phases adjudicate without panics to legal boards.
//! - `mail_read`: raw messages read into letters (`tests/data/mail/*.eml` against `*.expect`),
//!   hostile mail read without panics, composed letters read back with no injected headers.
//! - `mail_transport`: Maildir, sendmail, SMTP and IMAP (IDLE too) against real servers.
//! - `mailserver`: the real test mail servers (`../shared/tools/mailserver`), or a SKIPPED line.
//! - `flow`: whole mail exchanges as data (`tests/data/flow/`): letters in, transcript out.
//! - `messages`: the message catalogs: Russian matches English key for key, every key the code
//!   uses exists with its values, report words in Russian, catalogs replaced from a folder.
//! - `judge`: the judge through a crash, broken and automatic mail, floods (and the seat
//!   passwords read past the limit), identical answers backing off, letters deduplicated by
//!   Message-ID, sender and body, raw letters redacted and purged, a failing outbox, a letter
//!   that panics the judge set aside after three attempts.
//! - `his_game`: a Here I Stand move played by mail, and its dice checked by `verify-dice`.
//! - `hostile`: hostile input (oversized parts, endless bodies, header injection) and bounded
//!   fuzzing of every reader from a corpus (`tests/data/fuzz/`, `STRATEGOS_FUZZ_ROUNDS`).
//! - `outage`: SMTP away, a recipient refused, IMAP cut mid-fetch, the judge killed between
//!   the steps of marking IMAP mail, the database locked or full.
//! - `postfix_pipe`: `deploy/postfix/` installed into the real Postfix of the tests pipes
//!   letters for the judge's address to `strategos deliver`, which answers them.
//! - `judge_harness`: a judge on temporary files with a settable clock, for those tests.
//! - `whole_game`: a standard game of two years through the real IMAP and SMTP servers.
//! - `archive`: a duel by mail written as a web site, summed up, and shown by `game`/`archive`.
//! - `archive_browser`: every page of an archive opened in headless Chromium (phone and
//!   desktop): no console error, every picture shown, nothing wider than the screen;
//!   screenshots kept in `target/archive-browser/`.
//! - `secrecy`: secrets kept, as attacks repelled: private games unseen by strangers, no
//!   address shown unless its player chose, anonymous games, grey press never signed
//!   (docs/security.md, "Secrecy").
//! - `vocabulary`: every row of `docs/commands.md` (the classic judges' commands and settings)
//!   tried by mail and answered as it says; HELP names every command and variant; every njudge
//!   file name GET asks for is answered; GET deadlines states the configured defaults.
//! - `maps`: every shipped map drawn true to its rules and a lie named; the SVG holds every
//!   province, unit and order with its outcome; a PNG with the font in the binary.
//! - `addresses`: an account's several addresses: how many, an address that only ever
//!   confirmed joining one, allow lists naming the account by any of them.
//! - `dice`: `strategos verify-dice` on archives made here: verified, tampered dice, purposes,
//!   roll numbers and seeds found, the seed not yet revealed, unreadable input.

mod addresses;
mod ahead;
mod archive;
mod archive_browser;
mod attacks;
mod busy;
mod case;
mod classics;
mod cli;
mod commands;
mod config;
mod crash;
mod datc;
mod deploy;
mod diadochi;
mod diadochi_game;
mod dice;
mod ending;
mod flow;
mod game;
mod godip;
mod his;
mod his_game;
mod hostile;
mod jdip;
mod judge;
mod judge_harness;
mod mail_read;
mod mail_transport;
mod mailserver;
mod maps;
mod messages;
mod mila;
mod orders;
mod outage;
mod pipe_failures;
mod postfix_pipe;
mod privacy;
mod promises;
mod random;
mod rulebook;
mod secrecy;
mod sending;
mod tidy;
mod upgrade;
mod variants;
mod vocabulary;
mod whois;
mod whole_game;

/// `text` with every run of whitespace (line ends among them) made one space: the judge wraps
/// its lines under 80 columns, so a sentence may be broken anywhere a space was.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `text` says `phrase`, wherever its lines are broken.
pub fn says(text: &str, phrase: &str) -> bool {
    flat(text).contains(&flat(phrase))
}
