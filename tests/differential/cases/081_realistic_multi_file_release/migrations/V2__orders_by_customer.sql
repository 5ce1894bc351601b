ALTER TABLE db.orders ADD PARTITION FIELD bucket(8, customer_id);
ALTER TABLE db.orders RENAME COLUMN total TO amount;
ALTER TABLE db.orders ALTER COLUMN amount TYPE decimal(12, 2);
