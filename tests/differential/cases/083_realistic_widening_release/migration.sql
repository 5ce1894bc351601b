-- 64-bit counters everywhere
ALTER TABLE db.metrics ALTER COLUMN mem TYPE bigint;
ALTER TABLE db.metrics ALTER COLUMN cpu TYPE double;
ALTER TABLE db.metrics ALTER COLUMN disk TYPE decimal(10, 2);
ALTER TABLE db.metrics ALTER COLUMN samples.element TYPE bigint;
-- finer partitioning for the new volume
ALTER TABLE db.metrics REPLACE PARTITION FIELD ts_day WITH hours(ts);
ALTER TABLE db.metrics SET IDENTIFIER FIELDS host, ts;
ALTER TABLE db.metrics WRITE ORDERED BY host, ts;
INSERT INTO db.metrics VALUES ('h3', TIMESTAMP '2024-01-03 00:00:00', 0.9, 300, 30.75, map('env', 'qa'), array(4));
-- mistakes someone will try
ALTER TABLE db.metrics ALTER COLUMN labels.key TYPE binary;
ALTER TABLE db.metrics ALTER COLUMN mem TYPE int;
