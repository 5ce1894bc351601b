CREATE TABLE db.sales (
  id      bigint NOT NULL,
  store   int,
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (store)
TBLPROPERTIES ('format-version' = '2');

INSERT INTO db.sales VALUES (1, 7, 10, TIMESTAMP '2023-01-01 10:00:00'), (2, 8, 20, TIMESTAMP '2023-01-02 10:00:00');

ALTER TABLE db.sales REPLACE PARTITION FIELD store WITH days(sold_at);
INSERT INTO db.sales VALUES (3, 7, 30, TIMESTAMP '2023-02-01 10:00:00');
