ALTER TABLE db.prices ALTER COLUMN amount TYPE decimal(18, 2);
ALTER TABLE db.prices ALTER COLUMN qty TYPE bigint;
