-- How the example table came to be (run by scripts/generate_example_snapshot.py in real Spark).
CREATE TABLE db.events (
  event_id bigint NOT NULL,
  account_id bigint NOT NULL,
  kind string,
  payload string,
  created_at timestamp
) USING iceberg
PARTITIONED BY (days(created_at));

INSERT INTO db.events VALUES
  (1, 10, 'signup', '{"plan":"free"}', TIMESTAMP '2024-03-01 10:00:00'),
  (2, 11, 'login',  '{"ip":"10.0.0.1"}', TIMESTAMP '2024-03-02 11:00:00');

ALTER TABLE db.events SET IDENTIFIER FIELDS event_id;
