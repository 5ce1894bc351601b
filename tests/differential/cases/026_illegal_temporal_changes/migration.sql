ALTER TABLE db.metrics ALTER COLUMN day TYPE timestamp;
ALTER TABLE db.metrics ALTER COLUMN day TYPE timestamp_ntz;
ALTER TABLE db.metrics ALTER COLUMN ts TYPE timestamp_ntz;
ALTER TABLE db.metrics ALTER COLUMN ts_ntz TYPE timestamp;
ALTER TABLE db.metrics ALTER COLUMN ts TYPE date;
ALTER TABLE db.metrics ALTER COLUMN ts TYPE bigint;
ALTER TABLE db.metrics ALTER COLUMN day TYPE string;
ALTER TABLE db.metrics ALTER COLUMN ts TYPE timestamp;
