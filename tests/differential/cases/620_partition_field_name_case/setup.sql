CREATE TABLE db.logs (id bigint NOT NULL, Level string, logged_at timestamp) USING iceberg
PARTITIONED BY (days(logged_at), bucket(4, id), Level);
INSERT INTO db.logs VALUES (1, 'INFO', TIMESTAMP '2024-01-01 10:00:00');
