ALTER TABLE db.orders DROP COLUMN note;
-- a backfill written before the column was dropped
UPDATE db.orders SET note = 'migrated' WHERE order_id = 1;
UPDATE db.orders SET status = 'closed' WHERE note = 'n2';
DELETE FROM db.orders WHERE note IS NULL;
DELETE FROM db.orders o WHERE o.note = 'n1';
-- names are resolved case-insensitively, as Spark does by default
UPDATE db.orders SET STATUS = 'shipped' WHERE Order_Id = 2;
DELETE FROM db.orders WHERE amount > 100 AND status = 'void';
UPDATE db.orders AS o SET o.amount = o.amount * 2 WHERE o.status = 'open';
