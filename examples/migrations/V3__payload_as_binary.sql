-- "Change payload to binary": the tempting way. Drop + re-add is NOT a type change.
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;

-- And a narrowing that Spark refuses.
ALTER TABLE db.events ALTER COLUMN account_id TYPE int;
