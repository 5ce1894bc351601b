-- The table exists with another partitioning: Spark does nothing (ICE061), and new rows go into
-- the existing spec.
CREATE TABLE IF NOT EXISTS db.visits (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (hours(ts));
INSERT INTO db.visits VALUES (2, TIMESTAMP '2024-01-02 10:00:00', 'view');
CREATE TABLE IF NOT EXISTS db.visits (id bigint, ts timestamp, kind string, region string) USING iceberg PARTITIONED BY (days(ts), Region) CLUSTERED BY (id) INTO 4 BUCKETS;
INSERT INTO db.visits VALUES (3, TIMESTAMP '2024-01-03 10:00:00', 'view');
-- ICE061's help for each statement above, run in Spark on a table like the first one (the help
-- replay test pastes them in place of the statements themselves)
ALTER TABLE db.visits_b DROP PARTITION FIELD ts_day;
ALTER TABLE db.visits_b ADD PARTITION FIELD hours(ts);
INSERT INTO db.visits_b VALUES (4, TIMESTAMP '2024-01-04 10:00:00', 'view');
ALTER TABLE db.visits_c ADD COLUMN region string;
ALTER TABLE db.visits_c ADD PARTITION FIELD region;
ALTER TABLE db.visits_c ADD PARTITION FIELD bucket(4, id);
INSERT INTO db.visits_c VALUES (4, TIMESTAMP '2024-01-04 10:00:00', 'view', 'eu');
