-- Migration 7: an attachment's body stored once however many letters carry it. A game's
-- picture goes with the results letter of each member who wants it: seven copies of a
-- quarter of a megabyte a phase in a standard game. A letter in the outbox marked `parts`
-- holds, in place of each such body, `NUL part:<id> NUL`, and is made whole again when it is
-- read; any other letter is read as it stands, whatever bytes it holds.
CREATE TABLE outbox_parts (
    id INTEGER PRIMARY KEY,
    bytes BLOB NOT NULL
);
ALTER TABLE outbox ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
