-- Strategos database, migration 1. Times are UTC, RFC 3339 text.

-- Every message that came in, stored raw before anything else is done with it.
CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    received_at TEXT NOT NULL,
    source TEXT NOT NULL,
    raw BLOB NOT NULL,
    -- new, handled, quarantined, ignored
    state TEXT NOT NULL DEFAULT 'new',
    -- why a message was quarantined or ignored
    reason TEXT,
    sender TEXT,
    handled_at TEXT
);

-- Letters waiting to go out, and those sent or given up.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    recipients TEXT NOT NULL,
    raw BLOB NOT NULL,
    -- pending, sent, failed
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    sent_at TEXT,
    caused_by INTEGER REFERENCES messages(id)
);
CREATE INDEX outbox_due ON outbox(state, next_attempt_at);

CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT,
    password_hash TEXT,
    registered_at TEXT NOT NULL
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    -- forming, active, finished
    state TEXT NOT NULL,
    created_by INTEGER NOT NULL REFERENCES players(id),
    created_at TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    movement_hours INTEGER NOT NULL,
    retreat_hours INTEGER NOT NULL,
    adjustment_hours INTEGER NOT NULL,
    reminder_hours INTEGER NOT NULL,
    -- the current position as JSON; null while the game forms
    position TEXT,
    deadline_at TEXT,
    reminded INTEGER NOT NULL DEFAULT 0,
    -- phases adjudicated so far: a phase is processed only when this still matches
    phase_serial INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_due ON games(state, deadline_at);

-- Who plays or watches a game.
CREATE TABLE members (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    -- the power's id once assigned
    power TEXT,
    -- player, observer
    role TEXT NOT NULL,
    -- the member's password for this game (argon2id)
    password_hash TEXT NOT NULL,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

-- The orders in force for each power in a phase: canonical texts, one per line.
CREATE TABLE orders (
    game_id INTEGER NOT NULL REFERENCES games(id),
    phase_serial INTEGER NOT NULL,
    power TEXT NOT NULL,
    lines TEXT NOT NULL,
    -- the latest letter with orders for this power had errors
    error_flag INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (game_id, phase_serial, power)
);

-- The game's archive: every report and notice sent to the whole game.
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    phase_serial INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL
);

-- Letters answered per sender per hour, for the rate limit.
CREATE TABLE rate (
    sender TEXT NOT NULL,
    hour TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (sender, hour)
);
