SET spark.sql.caseSensitive = true;
ALTER TABLE db.events ALTER COLUMN PAYLOAD COMMENT 'exact names only';
ALTER TABLE db.events DROP COLUMN KIND;
ALTER TABLE db.events RENAME COLUMN Payload TO body;
ALTER TABLE db.events ALTER COLUMN attrs.score TYPE bigint;
ALTER TABLE db.events RENAME COLUMN kind TO Kind;
SET spark.sql.caseSensitive = false;
ALTER TABLE db.events DROP COLUMN KIND;
