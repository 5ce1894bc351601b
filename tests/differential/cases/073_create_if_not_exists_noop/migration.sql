-- a silent no-op: the table exists with other columns
CREATE TABLE IF NOT EXISTS db.prefs (user_id bigint NOT NULL, theme string, font string) USING iceberg;
INSERT INTO db.prefs VALUES (2, 'light', 'mono');
CREATE TABLE IF NOT EXISTS db.fresh (id bigint) USING iceberg;
