CREATE TABLE db.sample (id bigint, data string, category string, ts timestamp) USING iceberg PARTITIONED BY (days(ts), category);
INSERT INTO db.sample VALUES (1, 'a', 'c1', TIMESTAMP '2020-05-02 00:00:00');
