CREATE TABLE db.sales (
  id      bigint NOT NULL,
  region  string,
  amount  int
) USING iceberg
PARTITIONED BY (region)
TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.sales VALUES (1, 'EU', 10), (2, 'US', 20);
