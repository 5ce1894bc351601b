CREATE TABLE db.t (id bigint, dt string, v int) USING iceberg PARTITIONED BY (dt);
INSERT INTO db.t VALUES (1, '2024-01-01', 5), (2, '2024-01-02', 6);
