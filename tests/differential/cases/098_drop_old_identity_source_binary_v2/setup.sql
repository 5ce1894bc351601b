CREATE TABLE db.sales (
  id      bigint NOT NULL,
  code    binary,
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (code);

INSERT INTO db.sales VALUES (1, X'01', 10, TIMESTAMP '2023-01-01 10:00:00'), (2, X'02', 20, TIMESTAMP '2023-01-02 10:00:00');

ALTER TABLE db.sales REPLACE PARTITION FIELD code WITH days(sold_at);
INSERT INTO db.sales VALUES (3, X'01', 30, TIMESTAMP '2023-02-01 10:00:00');
