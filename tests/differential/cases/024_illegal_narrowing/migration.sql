ALTER TABLE db.metrics ALTER COLUMN big_total TYPE int;
ALTER TABLE db.metrics ALTER COLUMN score TYPE float;
ALTER TABLE db.metrics ALTER COLUMN price TYPE decimal(8, 2);
ALTER TABLE db.metrics ALTER COLUMN price TYPE decimal(10, 3);
ALTER TABLE db.metrics ALTER COLUMN price TYPE decimal(12, 4);
ALTER TABLE db.metrics ALTER COLUMN small TYPE smallint;
ALTER TABLE db.metrics ALTER COLUMN small TYPE tinyint;
ALTER TABLE db.metrics ADD COLUMN still_works int;
