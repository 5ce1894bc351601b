-- the table exists: Spark does nothing, whatever the column list says
CREATE TABLE IF NOT EXISTS db.prefs (user_id bigint, theme string, score bigint, locale string) USING iceberg;
INSERT INTO db.prefs VALUES (3, 'dark', 5, 'nl');
UPDATE db.prefs SET locale = 'en' WHERE user_id = 1;
INSERT INTO db.prefs VALUES (3, 'dark', 5);
CREATE TABLE IF NOT EXISTS db.prefs (USER_ID bigint, Theme string, score int) USING iceberg;
ALTER TABLE db.prefs ADD COLUMN locale string;
INSERT INTO db.prefs VALUES (4, 'dark', 6, 'nl');
CREATE TABLE IF NOT EXISTS db.prefs_new (user_id bigint, theme string) USING iceberg;
INSERT INTO db.prefs_new VALUES (1, 'dark');
