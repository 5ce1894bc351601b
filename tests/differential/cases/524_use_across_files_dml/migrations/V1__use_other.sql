CREATE NAMESPACE IF NOT EXISTS other;
DROP TABLE IF EXISTS other.events PURGE;
DROP TABLE IF EXISTS other.kinds PURGE;
USE other;
CREATE TABLE events (id bigint, label string) USING iceberg;
CREATE TABLE kinds USING iceberg AS SELECT DISTINCT kind FROM db.events;
