ALTER TABLE db.metrics ALTER COLUMN small TYPE bigint;
ALTER TABLE db.metrics ALTER COLUMN ratio TYPE double;
ALTER TABLE db.metrics ALTER COLUMN price TYPE decimal(12, 2);
ALTER TABLE db.metrics ALTER COLUMN price TYPE decimal(38, 2);
-- same type again: a no-op
ALTER TABLE db.metrics ALTER COLUMN label TYPE string;
ALTER TABLE db.metrics ALTER COLUMN big_total TYPE bigint;
ALTER TABLE db.metrics ALTER COLUMN small COMMENT 'was int';
