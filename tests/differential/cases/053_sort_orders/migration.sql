ALTER TABLE db.orders WRITE ORDERED BY customer_id, created_at DESC NULLS LAST;
ALTER TABLE db.orders DROP COLUMN customer_id;
ALTER TABLE db.orders WRITE LOCALLY ORDERED BY status ASC NULLS FIRST, bucket(4, order_id);
ALTER TABLE db.orders DROP COLUMN customer_id;
ALTER TABLE db.orders WRITE DISTRIBUTED BY PARTITION;
ALTER TABLE db.orders WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY total;
ALTER TABLE db.orders WRITE UNORDERED;
-- status is only in older sort orders now
ALTER TABLE db.orders DROP COLUMN status;
ALTER TABLE db.orders WRITE ORDERED BY missing_col;
ALTER TABLE db.orders WRITE ORDERED BY days(created_at), truncate(2, order_id);
ALTER TABLE db.orders RENAME COLUMN total TO amount;
