-- `events` means other.events after USE other, db.events after USE db (Spark's session namespace)
CREATE NAMESPACE IF NOT EXISTS other;
DROP TABLE IF EXISTS other.events PURGE;
USE other;
CREATE TABLE events (id bigint, note string) USING iceberg;
ALTER TABLE events DROP COLUMN payload;
ALTER TABLE events ADD COLUMN extra int;
USE db;
