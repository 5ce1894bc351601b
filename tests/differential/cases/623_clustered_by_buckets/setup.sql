CREATE TABLE db.clicks (id bigint, user_id bigint, ts timestamp) USING iceberg CLUSTERED BY (user_id) INTO 16 BUCKETS;
INSERT INTO db.clicks VALUES (1, 10, TIMESTAMP '2024-01-01 10:00:00');
