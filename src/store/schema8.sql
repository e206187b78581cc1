-- Migration 8: the account an address move is for, so that one account's moves are bounded
-- (one a day), however many letters ask for them; and the requests mailed to an address by
-- when, so that no address gets more than one request a day from the judge.
ALTER TABLE requests ADD COLUMN account INTEGER;
CREATE INDEX requests_account ON requests(account, kind, created_at) WHERE account IS NOT NULL;
CREATE INDEX requests_mailed ON requests(address, kind, created_at);
