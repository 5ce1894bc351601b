-- forms other engines accept and Spark 3.5 + Iceberg 1.10 cannot parse
ALTER TABLE db.events ADD COLUMN IF NOT EXISTS priority int;
ALTER TABLE db.events ADD COLUMNS IF NOT EXISTS (priority int);
ALTER TABLE db.events ADD COLUMN priority int IF NOT EXISTS;
ALTER TABLE db.events ADD COLUMNS (priority int, IF NOT EXISTS score int);
ALTER TABLE db.events ADD IF NOT EXISTS COLUMN priority int;
ALTER TABLE db.events
  add column if not exists priority int;
ALTER TABLE db.events RENAME COLUMN IF EXISTS payload TO body;
ALTER TABLE db.events ALTER COLUMN IF EXISTS event_id COMMENT 'id';
ALTER TABLE db.events ADD PARTITION FIELD IF NOT EXISTS event_id;
ALTER TABLE db.events DROP PARTITION FIELD IF EXISTS kind;
-- what Spark 3.5 does have
ALTER TABLE db.events DROP COLUMN IF EXISTS nope;
ALTER TABLE db.events ADD COLUMN priority int;
