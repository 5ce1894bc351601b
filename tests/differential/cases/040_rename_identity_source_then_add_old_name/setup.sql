CREATE TABLE db.clicks (id bigint, region string, n int) USING iceberg PARTITIONED BY (region);
INSERT INTO db.clicks VALUES (1, 'EU', 1), (2, 'US', 2);
