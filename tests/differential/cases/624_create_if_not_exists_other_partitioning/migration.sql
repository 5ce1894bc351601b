-- The table exists with another partitioning: Spark does nothing (ICE061), and new rows go into
-- the existing spec. Then ICE061's help, pasted: the statements that give the table the
-- partitioning written (a column added first where the partitioning needs it).
CREATE TABLE IF NOT EXISTS db.visits (id bigint, ts timestamp, kind string) USING iceberg PARTITIONED BY (hours(ts));
INSERT INTO db.visits VALUES (2, TIMESTAMP '2024-01-02 10:00:00', 'view');
ALTER TABLE db.visits DROP PARTITION FIELD ts_day;
ALTER TABLE db.visits ADD PARTITION FIELD hours(ts);
INSERT INTO db.visits VALUES (3, TIMESTAMP '2024-01-03 10:00:00', 'view');
CREATE TABLE IF NOT EXISTS db.visits (id bigint, ts timestamp, kind string, region string) USING iceberg PARTITIONED BY (hours(ts), region) CLUSTERED BY (id) INTO 4 BUCKETS;
ALTER TABLE db.visits ADD COLUMN region string;
ALTER TABLE db.visits ADD PARTITION FIELD region;
ALTER TABLE db.visits ADD PARTITION FIELD bucket(4, id);
INSERT INTO db.visits VALUES (4, TIMESTAMP '2024-01-04 10:00:00', 'view', 'eu');
