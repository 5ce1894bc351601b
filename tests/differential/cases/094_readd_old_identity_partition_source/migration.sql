ALTER TABLE db.sales DROP COLUMN region;
-- spec 0 still has an identity partition field called `region`
ALTER TABLE db.sales ADD COLUMN region string;
ALTER TABLE db.sales ADD COLUMN region_code string;
