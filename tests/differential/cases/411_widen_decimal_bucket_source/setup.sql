CREATE TABLE db.prices (id bigint NOT NULL, amount decimal(9, 2), qty int) USING iceberg PARTITIONED BY (bucket(4, amount), truncate(100, qty));
INSERT INTO db.prices VALUES (1, 12.50, 150), (2, 99.99, 7);
