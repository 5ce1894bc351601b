CREATE TABLE db.visits (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (days(ts));
INSERT INTO db.visits VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'click');
