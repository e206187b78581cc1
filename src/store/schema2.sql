-- Migration 2: game settings, members' preferences, and the history of positions.

-- A game's settings as JSON (see judge::settings::GameSettings); '{}' means the defaults.
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- A member's wishes as JSON (language, wait, absence, draw vote, preference...).
ALTER TABLE members ADD COLUMN wishes TEXT NOT NULL DEFAULT '{}';

-- Every position a game has been in, one per phase: for SUMMARY, ROLLBACK and the archive.
CREATE TABLE positions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    phase_serial INTEGER NOT NULL,
    -- the phase as players read it: `Spring 1901 movement`
    title TEXT NOT NULL,
    position TEXT NOT NULL,
    -- the players of each power then: JSON {power: email}
    players TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, phase_serial)
);

-- Orders of phases undone by a ROLLBACK, kept for inspection.
CREATE TABLE undone_orders (
    game_id INTEGER NOT NULL REFERENCES games(id),
    phase_serial INTEGER NOT NULL,
    power TEXT NOT NULL,
    lines TEXT NOT NULL,
    undone_at TEXT NOT NULL
);

-- The language a player reads letters in, when no game says otherwise: 'en', 'ru'.
ALTER TABLE players ADD COLUMN language TEXT;
