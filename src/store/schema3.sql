-- Third migration: POSTAL PRESS held until the next results.

-- Each letter as it will go out (recipient empty: the copy for the game's archive).
CREATE TABLE held_press (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX held_press_game ON held_press(game_id);
