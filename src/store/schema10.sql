-- Migration 10: an account's further addresses (I AM ALSO). `players.email` stays the
-- address the account chose, where game letters go; a letter from any of these acts for the
-- account as one from it does. Addresses are kept in lower case, and one address is one
-- account's: never in this table twice, nor here and in `players.email` at once.
CREATE TABLE addresses (
    address TEXT PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id),
    added_at TEXT NOT NULL
);
CREATE INDEX addresses_player ON addresses(player_id);

CREATE TRIGGER addresses_not_chosen BEFORE INSERT ON addresses
WHEN EXISTS (SELECT 1 FROM players WHERE email = NEW.address)
BEGIN
    SELECT RAISE(ABORT, 'the address is an account''s chosen address');
END;

CREATE TRIGGER players_new_address_free BEFORE INSERT ON players
WHEN EXISTS (SELECT 1 FROM addresses WHERE address = NEW.email)
BEGIN
    SELECT RAISE(ABORT, 'the address is an account''s further address');
END;

CREATE TRIGGER players_chosen_address_free BEFORE UPDATE OF email ON players
WHEN EXISTS (SELECT 1 FROM addresses WHERE address = NEW.email)
BEGIN
    SELECT RAISE(ABORT, 'the address is an account''s further address');
END;
