-- on v1 the current spec still holds void(region)
ALTER TABLE db.sales DROP COLUMN region;
