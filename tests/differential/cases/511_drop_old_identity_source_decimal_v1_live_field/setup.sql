CREATE TABLE db.sales (
  id      bigint NOT NULL,
  src     decimal(9,2),
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (src)
TBLPROPERTIES ('format-version' = '1');

INSERT INTO db.sales VALUES (1, CAST(1.50 AS DECIMAL(9,2)), 10, TIMESTAMP '2023-01-01 10:00:00'), (2, CAST(2.50 AS DECIMAL(9,2)), 20, TIMESTAMP '2023-01-02 10:00:00');

ALTER TABLE db.sales REPLACE PARTITION FIELD src WITH days(sold_at);
INSERT INTO db.sales VALUES (3, CAST(1.50 AS DECIMAL(9,2)), 30, TIMESTAMP '2023-02-01 10:00:00');
