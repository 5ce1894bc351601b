ALTER TABLE db.orders DROP COLUMN customer_id;
ALTER TABLE db.orders DROP COLUMN status;
ALTER TABLE db.orders ALTER COLUMN customer_id TYPE bigint;
ALTER TABLE db.orders WRITE ORDERED BY total DESC;
ALTER TABLE db.orders DROP COLUMN customer_id;
