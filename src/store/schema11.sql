-- Migration 11: results pictures painted ahead of their deadline while the judge had nothing
-- else to do (daemon/ahead.rs). A game whose orders change is wanted again; its pictures, one
-- a language, are kept with the digest of all they show, and a deadline takes one only when
-- the phase it plays shows exactly that (judge/phases/pictures.rs). The triggers insert only
-- what is not there: an `OR IGNORE` inside a trigger would give way to the policy of the
-- statement that fired it (the orders' upsert), and fail.
CREATE TABLE pictures_ahead (
    game_id INTEGER NOT NULL REFERENCES games(id),
    language TEXT NOT NULL,
    key BLOB NOT NULL,
    png BLOB NOT NULL,
    PRIMARY KEY (game_id, language)
);

CREATE TABLE pictures_wanted (
    game_id INTEGER PRIMARY KEY REFERENCES games(id)
);

CREATE TRIGGER orders_insert_wants_picture AFTER INSERT ON orders
BEGIN
    INSERT INTO pictures_wanted (game_id) SELECT NEW.game_id
    WHERE NOT EXISTS (SELECT 1 FROM pictures_wanted WHERE game_id = NEW.game_id);
END;

CREATE TRIGGER orders_update_wants_picture AFTER UPDATE ON orders
BEGIN
    INSERT INTO pictures_wanted (game_id) SELECT NEW.game_id
    WHERE NOT EXISTS (SELECT 1 FROM pictures_wanted WHERE game_id = NEW.game_id);
END;

CREATE TRIGGER orders_delete_wants_picture AFTER DELETE ON orders
BEGIN
    INSERT INTO pictures_wanted (game_id) SELECT OLD.game_id
    WHERE NOT EXISTS (SELECT 1 FROM pictures_wanted WHERE game_id = OLD.game_id);
END;
