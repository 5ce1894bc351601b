CREATE TABLE db.events (
  event_id bigint,
  kind     string,
  payload  string
) USING iceberg
PARTITIONED BY (kind);

INSERT INTO db.events VALUES (1, 'click', 'p1'), (2, 'view', 'p2');
