CREATE TABLE db.prefs (
  user_id bigint NOT NULL,
  theme   string,
  locale  string
) USING iceberg;

INSERT INTO db.prefs VALUES (1, 'dark', 'en'), (2, 'light', 'de');
