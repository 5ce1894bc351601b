CREATE TABLE db.big_orders USING iceberg TBLPROPERTIES ('format-version' = '1')
AS SELECT order_id AS id, customer AS who, qty, ts FROM db.orders WHERE amount > 15;
CREATE TABLE db.order_days USING iceberg PARTITIONED BY (days(ts))
AS SELECT o.order_id, o.ts, CAST(o.qty AS bigint) AS qty_l FROM db.orders AS o;
-- CTAS from a CTAS: the schema inferred above is used
CREATE TABLE db.order_ids USING iceberg AS SELECT id FROM db.big_orders;
CREATE TABLE db.order_ids2 USING iceberg AS SELECT order_id FROM db.big_orders;
CREATE TABLE IF NOT EXISTS db.big_orders USING iceberg AS SELECT order_id FROM db.orders;
CREATE TABLE db.big_orders USING iceberg AS SELECT order_id FROM db.orders;
ALTER TABLE db.big_orders DROP COLUMN order_id;
ALTER TABLE db.big_orders RENAME COLUMN who TO customer;
ALTER TABLE db.order_days ALTER COLUMN qty_l TYPE int;
ALTER TABLE db.order_days DROP COLUMN ts;
INSERT INTO db.order_days VALUES (3, TIMESTAMP '2024-01-03 10:00:00', 5);
