ALTER TABLE db.clicks RENAME COLUMN region TO region_code;
-- the partition field is still called `region`
ALTER TABLE db.clicks ADD COLUMN region string;
ALTER TABLE db.clicks ADD COLUMN region_name string;
