CREATE TABLE db.sales (
  id      bigint NOT NULL,
  shop_id bigint,
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (shop_id)
TBLPROPERTIES ('format-version' = '1');

INSERT INTO db.sales VALUES (1, 100, 10, TIMESTAMP '2023-01-01 10:00:00'), (2, 200, 20, TIMESTAMP '2023-01-02 10:00:00');

ALTER TABLE db.sales REPLACE PARTITION FIELD shop_id WITH days(sold_at);
INSERT INTO db.sales VALUES (3, 100, 30, TIMESTAMP '2023-02-01 10:00:00');
