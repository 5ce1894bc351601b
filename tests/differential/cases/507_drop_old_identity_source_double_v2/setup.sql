CREATE TABLE db.sales (
  id      bigint NOT NULL,
  src     double,
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (src)
TBLPROPERTIES ('format-version' = '2');

INSERT INTO db.sales VALUES (1, 1.5D, 10, TIMESTAMP '2023-01-01 10:00:00'), (2, 2.5D, 20, TIMESTAMP '2023-01-02 10:00:00');

ALTER TABLE db.sales REPLACE PARTITION FIELD src WITH days(sold_at);
INSERT INTO db.sales VALUES (3, 1.5D, 30, TIMESTAMP '2023-02-01 10:00:00');
