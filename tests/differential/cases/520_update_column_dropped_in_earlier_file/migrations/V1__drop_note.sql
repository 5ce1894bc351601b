ALTER TABLE db.orders DROP COLUMN note;
ALTER TABLE db.orders RENAME COLUMN status TO order_status;
