-- the "safe" type change: new column, backfill, drop old, rename new into the old name
ALTER TABLE db.events ADD COLUMN payload_v2 binary;
UPDATE db.events SET payload_v2 = CAST(payload AS binary);
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events RENAME COLUMN payload_v2 TO payload;
