CREATE TABLE db.events (
  event_id bigint,
  kind     string,
  payload  string,
  ts       timestamp
) USING iceberg
PARTITIONED BY (kind, days(ts));

INSERT INTO db.events VALUES (1, 'click', 'p1', TIMESTAMP '2024-01-01 10:00:00'), (2, 'view', 'p2', TIMESTAMP '2024-01-02 10:00:00');
