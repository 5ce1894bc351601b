CREATE TABLE db.visits (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (days(ts));
INSERT INTO db.visits VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'click');
CREATE TABLE db.visits_b (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (days(ts));
INSERT INTO db.visits_b VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'click');
CREATE TABLE db.visits_c (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (days(ts));
INSERT INTO db.visits_c VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'click');
