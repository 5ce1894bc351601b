ALTER TABLE db.orders DROP COLUMN status;
ALTER TABLE db.orders WRITE ORDERED BY customer_id;
ALTER TABLE db.orders DROP COLUMN status;
ALTER TABLE db.orders ADD COLUMN status string;
ALTER TABLE db.orders DROP COLUMN order_id;
