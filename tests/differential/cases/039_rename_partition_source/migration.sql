ALTER TABLE db.orders RENAME COLUMN created_at TO created_ts;
ALTER TABLE db.clicks RENAME COLUMN region TO area;
INSERT INTO db.clicks VALUES (3, 'APAC', 3);
