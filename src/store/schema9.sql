-- Migration 9: players found by their registered name (WHOIS by name) through an index,
-- rather than by reading every player.
CREATE INDEX players_name ON players(lower(name));
