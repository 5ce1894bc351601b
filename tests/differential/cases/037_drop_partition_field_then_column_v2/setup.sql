CREATE TABLE db.sales (
  id      bigint NOT NULL,
  region  string,
  shard   int,
  amount  int
) USING iceberg
PARTITIONED BY (region, bucket(2, shard));
INSERT INTO db.sales VALUES (1, 'EU', 1, 10), (2, 'US', 2, 20);
