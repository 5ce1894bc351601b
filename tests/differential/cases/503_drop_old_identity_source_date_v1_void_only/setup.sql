CREATE TABLE db.sales (
  id      bigint NOT NULL,
  sale_day date,
  amount  int
) USING iceberg
PARTITIONED BY (sale_day)
TBLPROPERTIES ('format-version' = '1');

INSERT INTO db.sales VALUES (1, DATE '2023-01-01', 10), (2, DATE '2023-01-02', 20);

ALTER TABLE db.sales DROP PARTITION FIELD sale_day;
INSERT INTO db.sales VALUES (3, DATE '2023-02-01', 30);
