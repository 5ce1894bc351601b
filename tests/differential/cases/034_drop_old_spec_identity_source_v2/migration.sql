-- region only feeds partition spec 0, which is no longer current: accepted
ALTER TABLE db.sales DROP COLUMN region;
ALTER TABLE db.sales ADD COLUMN channel string;
