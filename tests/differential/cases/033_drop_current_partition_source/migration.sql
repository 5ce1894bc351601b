ALTER TABLE db.orders DROP COLUMN created_at;
ALTER TABLE db.clicks DROP COLUMN region;
ALTER TABLE db.clicks DROP COLUMN id;
ALTER TABLE db.clicks DROP COLUMNS (n, region);
ALTER TABLE db.clicks DROP COLUMN n;
