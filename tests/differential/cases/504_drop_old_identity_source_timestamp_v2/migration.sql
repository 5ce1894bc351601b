-- seen_at (timestamp) only feeds partition spec 0 of a v2 table: time travel and inserts keep working
ALTER TABLE db.events DROP COLUMN seen_at;
