CREATE TABLE db.events (
  id      bigint NOT NULL,
  seen_at timestamp,
  kind    string,
  amount  int
) USING iceberg
PARTITIONED BY (seen_at)
TBLPROPERTIES ('format-version' = '2');

INSERT INTO db.events VALUES (1, TIMESTAMP '2023-01-01 10:00:00', 'a', 10), (2, TIMESTAMP '2023-01-02 10:00:00', 'b', 20);

ALTER TABLE db.events REPLACE PARTITION FIELD seen_at WITH bucket(4, id);
INSERT INTO db.events VALUES (3, TIMESTAMP '2023-02-01 10:00:00', 'a', 30);
