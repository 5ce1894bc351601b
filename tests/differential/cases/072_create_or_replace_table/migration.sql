CREATE OR REPLACE TABLE db.prefs (
  user_id bigint NOT NULL,
  theme   string,
  font    string
) USING iceberg;
INSERT INTO db.prefs VALUES (3, 'dark', 'mono');
REPLACE TABLE db.prefs (user_id bigint NOT NULL, theme string) USING iceberg;
