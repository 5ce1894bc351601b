CREATE TABLE db.prefs (
  user_id bigint,
  theme   string,
  score   int
) USING iceberg;

INSERT INTO db.prefs VALUES (1, 'dark', 3), (2, 'light', 4);
