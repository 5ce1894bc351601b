-- modes: state
-- the table was repartitioned before its first write: no snapshot has files written with spec 0
CREATE TABLE db.sales (
  id      bigint NOT NULL,
  region  string,
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (region)
TBLPROPERTIES ('format-version' = '2');

ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);

INSERT INTO db.sales VALUES (1, 'EU', 10, TIMESTAMP '2023-01-01 10:00:00'), (2, 'US', 20, TIMESTAMP '2023-01-02 10:00:00');
INSERT INTO db.sales VALUES (3, 'EU', 30, TIMESTAMP '2023-02-01 10:00:00');
