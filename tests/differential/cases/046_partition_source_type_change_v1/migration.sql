ALTER TABLE db.r1 ALTER COLUMN v TYPE bigint;
ALTER TABLE db.r1 ALTER COLUMN sensor TYPE bigint;
-- r2: sensor only feeds the old spec 0
ALTER TABLE db.r2 ALTER COLUMN sensor TYPE bigint;
ALTER TABLE db.r2 ALTER COLUMN v TYPE bigint;
