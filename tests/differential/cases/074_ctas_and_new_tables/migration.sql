CREATE TABLE db.kinds USING iceberg AS SELECT DISTINCT kind FROM db.events;
CREATE TABLE db.daily (day date, n bigint) USING iceberg PARTITIONED BY (day);
INSERT INTO db.daily VALUES (DATE '2024-01-01', 1);
ALTER TABLE db.daily ADD COLUMN note string;
ALTER TABLE db.daily DROP COLUMN day;
DROP TABLE db.daily;
