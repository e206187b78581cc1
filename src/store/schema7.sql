-- Migration 7: an attachment's body stored once however many letters carry it. A game's
-- picture goes with the results letter of each member who wants it: seven copies of a
-- quarter of a megabyte a phase in a standard game. A letter in the outbox marked `parts`
-- holds, in place of each such body, `NUL part:<id> NUL`, and is made whole again when it is
-- read; any other letter is read as it stands, whatever bytes it holds. The letters sharing
-- a body were queued together, at `queued_at`; once every letter queued by then has been
-- sent (or given up) for `limits.keep_sent_attachments_days`, the body is removed (NULL) and
-- those letters read with an empty attachment.
CREATE TABLE outbox_parts (
    id INTEGER PRIMARY KEY,
    queued_at TEXT NOT NULL,
    bytes BLOB
);
CREATE INDEX outbox_parts_kept ON outbox_parts(queued_at) WHERE bytes IS NOT NULL;
ALTER TABLE outbox ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
