-- a backfill written against the schema before V1: every old name is gone
UPDATE db.orders SET note = 'migrated' WHERE order_id = 1;
UPDATE db.orders SET status = 'closed' WHERE order_id = 2;
UPDATE db.orders SET order_status = 'closed' WHERE status = 'paid';
DELETE FROM db.orders WHERE note = 'n1';
MERGE INTO db.orders t USING (SELECT 1 AS order_id, 'x' AS note) s ON t.order_id = s.order_id
  WHEN MATCHED THEN UPDATE SET t.note = s.note;
-- the same written against the new schema
UPDATE db.orders SET order_status = 'closed' WHERE order_id = 2;
DELETE FROM db.orders WHERE order_status = 'void';
