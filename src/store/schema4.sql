-- Migration 4: trust. Letters deduplicated by sender and body as well as Message-ID, raw
-- letters no longer kept in clear once handled, addresses proven by tokens, requests waiting
-- for their token, password failures and the seats they lock, and the back-off of identical
-- answers.

-- `messages.message_id` is now the key letters are deduplicated by: the Message-ID, then `#`
-- and 16 hex digits of a SHA-256 over the sender and the body, so that a letter reusing
-- another's Message-ID is a letter of its own (older rows keep the bare Message-ID). The
-- Message-ID as the letter gave it:
ALTER TABLE messages ADD COLUMN header_message_id TEXT;
-- What is left of the raw letter: whole (as it came), redacted (handled: the body, which may
-- hold passwords, replaced by its commands with passwords hidden), purged (past retention).
ALTER TABLE messages ADD COLUMN raw_state TEXT NOT NULL DEFAULT 'whole';

-- Answers sent to an address, by a digest of their text, so that a robot answering every
-- letter cannot keep the judge answering it: identical answers back off (1, 2, 4... days).
CREATE TABLE answers (
    recipient TEXT NOT NULL,
    digest TEXT NOT NULL,
    count INTEGER NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (recipient, digest)
);

-- When the player's address proved it wants the judge's letters (a token mailed there came
-- back from it). Players known before this migration have been receiving letters all along.
ALTER TABLE players ADD COLUMN confirmed_at TEXT;
UPDATE players SET confirmed_at = registered_at;
-- The player lets other players see their address (SET SHOW ADDRESS); masters always can.
ALTER TABLE players ADD COLUMN show_address INTEGER NOT NULL DEFAULT 0;

-- Things asked for that wait until a token mailed to `address` comes back from it
-- (CONFIRM <token>): joining, observing, registering, creating from an address not yet
-- proven; moving an account to a new address; a letter held for a locked seat.
CREATE TABLE requests (
    id INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    address TEXT NOT NULL,
    -- commands (held commands of one letter), address (an account's move), held (a whole
    -- letter held for a locked seat)
    kind TEXT NOT NULL,
    -- what to do, as JSON (judge::confirm::Request)
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    -- pending, done, expired
    state TEXT NOT NULL DEFAULT 'pending',
    -- the game a held letter is for (its deadline waits for it, within reason)
    game_id INTEGER,
    -- the letter that asked
    message INTEGER REFERENCES messages(id)
);
CREATE INDEX requests_address ON requests(address, state);
CREATE INDEX requests_game ON requests(game_id, state);

-- Every wrong password, by the seat it was for (`game:<id>:power:<power>`,
-- `game:<id>:member:<player id>`, `account:<player id>`) and the account that owns the seat.
CREATE TABLE password_failures (
    seat TEXT NOT NULL,
    account INTEGER,
    sender TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX password_failures_seat ON password_failures(seat, at);
CREATE INDEX password_failures_account ON password_failures(account, at);

-- Seats (or whole accounts: `account:<player id>`) locked after too many wrong passwords:
-- until `until` no password is checked for them.
CREATE TABLE locks (
    seat TEXT PRIMARY KEY,
    until TEXT NOT NULL,
    failures INTEGER NOT NULL
);

-- The judge's own secrets (the key tokens are made with), drawn on first use.
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

-- Letters that kill or stall the judge. Each attempt to handle a stored letter is counted, and
-- committed, before the handling begins; a letter still `new` after `limits.handling_attempts`
-- attempts (the judge killed, stopped by its watchdog or panicking each time) is quarantined
-- with its reason, so that the letters behind it are handled. `reason` holds why the last
-- attempt failed while the letter is still `new`. The size the letter came with, as its raw
-- copy may be cut at `limits.max_message_bytes` (NULL for letters stored before this column).
ALTER TABLE messages ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN size INTEGER;
