CREATE TABLE db.events (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (days(ts)) TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.events VALUES (1, TIMESTAMP '2024-01-01 01:00:00', 'a'), (2, TIMESTAMP '2024-01-02 01:00:00', 'b');
