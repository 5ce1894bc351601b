CREATE TABLE db.events (
  event_id bigint NOT NULL,
  payload  string,
  kind     string
) USING iceberg
PARTITIONED BY (kind);

INSERT INTO db.events VALUES (1, 'p1', 'click'), (2, 'p2', 'view');
