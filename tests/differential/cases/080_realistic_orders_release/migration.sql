/*
 * Release 2024.07: fulfilment tracking, money needs more room,
 * and the status column gets "cleaned up".
 */
-- fulfilment tracking
ALTER TABLE db.orders ADD COLUMNS (
  shipped_at timestamp COMMENT 'set by the warehouse service',
  carrier    string
);
UPDATE db.orders SET shipped_at = TIMESTAMP '2024-06-03 08:00:00', carrier = 'DHL' WHERE status = 'SHIPPED';

-- money needs more room
ALTER TABLE db.orders ALTER COLUMN total TYPE decimal(14, 2);

-- "status was free text; make it a clean column again"
ALTER TABLE db.orders DROP COLUMN status;
ALTER TABLE db.orders ADD COLUMN status string COMMENT 'NEW|SHIPPED|CANCELLED' AFTER customer_id;

DELETE FROM db.orders WHERE order_id = 999;
ALTER TABLE db.orders WRITE ORDERED BY customer_id, created_at DESC;
