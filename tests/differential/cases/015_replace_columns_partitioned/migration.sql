ALTER TABLE db.orders REPLACE COLUMNS (order_id bigint, customer_id bigint, status string, total decimal(10, 2), created_at timestamp);
ALTER TABLE db.orders ADD COLUMN note string;
