ALTER TABLE db.sales RENAME COLUMN region TO sales_region;
ALTER TABLE db.sales ADD PARTITION FIELD bucket(4, sales_region);
ALTER TABLE db.sales DROP PARTITION FIELD sales_region_bucket;
ALTER TABLE db.sales RENAME COLUMN sold_at TO sold_ts;
ALTER TABLE db.sales ALTER COLUMN amount TYPE bigint;
