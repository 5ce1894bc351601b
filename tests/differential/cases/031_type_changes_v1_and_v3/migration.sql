ALTER TABLE db.metrics ALTER COLUMN small TYPE bigint;
ALTER TABLE db.metrics ALTER COLUMN big_total TYPE int;
ALTER TABLE db.metrics ALTER COLUMN day TYPE timestamp;
-- date -> timestamp is not allowed on format v3 either (Spark 3.5 has no v3 type support)
ALTER TABLE db.v3 ALTER COLUMN day TYPE timestamp_ntz;
ALTER TABLE db.v3 ALTER COLUMN n TYPE bigint;
