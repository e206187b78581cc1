-- Migration 6: indexes for what the judge asks for every letter and every round (issue 16),
-- so that handling a letter does not cost more as the judge's history grows. Without them
-- each letter scanned every message stored so far (the count of a Message-ID), every
-- membership of every game (a player's games), and sorted a game's members anew.

-- The letters carrying a Message-ID (`messages_with_id`, `stored_messages`).
CREATE INDEX messages_header_id ON messages(header_message_id);
-- The letters still to handle, in order (`state = 'new' ORDER BY id`), and quarantined ones.
CREATE INDEX messages_state ON messages(state, id);
-- A game's members in the order they joined (`members`).
CREATE INDEX members_in_order ON members(game_id, joined_at, player_id);
-- A player's games in the order joined (`memberships`).
CREATE INDEX members_by_player ON members(player_id, joined_at);
-- A game's reports and undone orders (HISTORY, ROLLBACK).
CREATE INDEX reports_game ON reports(game_id, id);
CREATE INDEX undone_orders_game ON undone_orders(game_id);
-- Games an address created lately (the daily limit on CREATE).
CREATE INDEX games_created_by ON games(created_by, created_at);
-- Requests past their time, and old password failures, cleared every round.
CREATE INDEX requests_expiry ON requests(state, expires_at);
CREATE INDEX password_failures_at ON password_failures(at);
-- The outbox's pending letters in queue order.
CREATE INDEX outbox_pending ON outbox(state, id);
