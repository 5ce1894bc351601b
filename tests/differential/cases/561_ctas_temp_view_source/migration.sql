-- a temporary view: Spark knows its columns, icelint does not (it holds no state for views)
CREATE OR REPLACE TEMPORARY VIEW recent_orders_561 AS SELECT order_id, customer, ts FROM db.orders WHERE qty > 1;
CREATE TABLE db.recent USING iceberg PARTITIONED BY (days(ts))
AS SELECT r.order_id, r.customer, r.ts, o.amount, o.qty FROM recent_orders_561 r JOIN db.orders o ON r.order_id = o.order_id;
-- the partition source `ts` has no known type, but its field id is known: dropping it fails
ALTER TABLE db.recent DROP COLUMN ts;
-- typed columns (from db.orders) are checked
ALTER TABLE db.recent ALTER COLUMN amount TYPE decimal(12, 2);
ALTER TABLE db.recent ALTER COLUMN amount TYPE decimal(14, 1);
ALTER TABLE db.recent ALTER COLUMN qty TYPE smallint;
-- names and ids of the view's columns are checked without their types
ALTER TABLE db.recent RENAME COLUMN customer TO who;
ALTER TABLE db.recent ADD COLUMN WHO string;
ALTER TABLE db.recent RENAME COLUMN order_id TO amount;
ALTER TABLE db.recent ADD PARTITION FIELD bucket(8, order_id);
ALTER TABLE db.recent ALTER COLUMN ts AFTER order_id;
INSERT INTO db.recent VALUES (3, TIMESTAMP '2024-01-03 10:00:00', 'cy', 5.00, 4);
INSERT INTO db.recent VALUES (3, 'cy');
UPDATE db.recent SET customer = 'x' WHERE order_id = 1;
DROP VIEW recent_orders_561;
