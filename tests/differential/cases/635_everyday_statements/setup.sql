CREATE TABLE db.ev (id bigint, kind string, payload string, ts timestamp, attrs struct<a: int, b: string>, tags array<string>, m map<string, int>) USING iceberg PARTITIONED BY (days(ts));
INSERT INTO db.ev VALUES (1, 'k', 'p', TIMESTAMP '2024-01-01 00:00:00', named_struct('a', 1, 'b', 'x'), array('t'), map('k', 1));
CREATE TABLE db.src (id bigint, kind string) USING iceberg;
INSERT INTO db.src VALUES (2, 'q');
