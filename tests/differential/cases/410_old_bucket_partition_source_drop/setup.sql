CREATE TABLE db.sales (id bigint NOT NULL, code int, sold_at timestamp) USING iceberg PARTITIONED BY (bucket(8, code));
INSERT INTO db.sales VALUES (1, 7, TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD code_bucket WITH days(sold_at);
INSERT INTO db.sales VALUES (2, 8, TIMESTAMP '2024-01-02 00:00:00');
