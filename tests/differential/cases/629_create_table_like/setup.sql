CREATE TABLE db.t (id bigint NOT NULL COMMENT 'the id', ts timestamp, s struct<a: int>, dt string) USING iceberg PARTITIONED BY (days(ts), bucket(4, id), dt);
INSERT INTO db.t VALUES (1, TIMESTAMP '2024-01-01 10:00:00', named_struct('a', 1), 'x');
