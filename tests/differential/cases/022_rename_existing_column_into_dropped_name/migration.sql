ALTER TABLE db.events DROP COLUMN payload;
-- kind holds values in every row, so `payload` still reads values (kind's)
ALTER TABLE db.events RENAME COLUMN kind TO payload;
