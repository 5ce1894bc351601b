-- every one rejected by Spark; the help backfills a new column with the values that convert unchanged
ALTER TABLE db.orders ALTER COLUMN quantity TYPE int;
ALTER TABLE db.orders ALTER COLUMN ratio TYPE float;
ALTER TABLE db.orders ALTER COLUMN price TYPE decimal(6, 2);
ALTER TABLE db.orders ALTER COLUMN code TYPE int;
ALTER TABLE db.orders ALTER COLUMN placed TYPE date;
