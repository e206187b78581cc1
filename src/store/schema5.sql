-- Migration 5: the classic judge's vocabulary (issue 14). Early processing after a short
-- delay, orders kept for later phases (PHASE), and players' diaries (DIARY).

-- When every order is in, the phase waits a short while (the phase's `delay`) before it is
-- processed, so a typo can still be fixed; the time it is due, or NULL.
ALTER TABLE games ADD COLUMN process_at TEXT;

-- Orders sent for a later phase (`PHASE Fall 1902 Movement`), kept as written (IF, ELSE and
-- ENDIF lines included) until that phase begins; then read against its board and put in force.
CREATE TABLE future_orders (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    power TEXT NOT NULL,
    -- the phase as njudge names it: S1902M, F1902R, W1902A (the year as the variant counts)
    phase TEXT NOT NULL,
    -- the calendar order of the phase (year step, season, kind), to tell later from earlier
    rank INTEGER NOT NULL,
    lines TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX future_orders_game ON future_orders(game_id, power);

-- A player's diary in a game (DIARY RECORD), published to the game when it ends.
CREATE TABLE diary (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    -- the power written for, as it was then
    power TEXT,
    number INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id, number)
);

-- The judge process sending a letter now (`<pid>-<start time>`), so that another process on
-- the database (`strategos deliver` beside `strategos run`) does not send it too; a claim of a
-- process that is gone counts for nothing. NULL: no one is sending it.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;

-- The judge process handling a stored letter now (`<pid>-<start time>`), so that another
-- process recovering stored letters leaves it alone while that process lives.
ALTER TABLE messages ADD COLUMN handled_by TEXT;
