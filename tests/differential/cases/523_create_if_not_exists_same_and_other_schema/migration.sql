-- the same schema: a no-op
CREATE TABLE IF NOT EXISTS db.prefs (user_id bigint NOT NULL, theme string, locale string) USING iceberg;
-- another schema: still a no-op, later statements see the existing table
CREATE TABLE IF NOT EXISTS db.prefs (user_id bigint, theme string, font_size int) USING iceberg;
ALTER TABLE db.prefs ALTER COLUMN font_size TYPE bigint;
ALTER TABLE db.prefs DROP COLUMN locale;
INSERT INTO db.prefs VALUES (3, 'dark');
-- a table that does not exist yet is created
CREATE TABLE IF NOT EXISTS db.prefs_v2 (user_id bigint, font_size int) USING iceberg;
CREATE TABLE IF NOT EXISTS db.prefs_v2 (user_id bigint) USING iceberg;
ALTER TABLE db.prefs_v2 ALTER COLUMN font_size TYPE bigint;
