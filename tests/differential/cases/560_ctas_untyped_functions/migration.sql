-- Spark built-ins icelint does not type: the columns keep their names and field ids, their types are unknown (ICE028)
CREATE TABLE db.order_stats USING iceberg PARTITIONED BY (bucket(4, order_id))
AS SELECT order_id, upper(customer) AS customer_uc, amount * 2 AS amount2, qty, length(customer) AS name_len FROM db.orders;
-- typed columns: checked as usual
ALTER TABLE db.order_stats ALTER COLUMN order_id TYPE int;
ALTER TABLE db.order_stats ALTER COLUMN qty TYPE bigint;
ALTER TABLE db.order_stats ADD COLUMN Qty string;
-- untyped columns: what needs the type is not checked (Spark accepts these), the rest is
ALTER TABLE db.order_stats ALTER COLUMN name_len TYPE bigint;
ALTER TABLE db.order_stats ADD PARTITION FIELD truncate(2, customer_uc);
ALTER TABLE db.order_stats RENAME COLUMN amount2 TO amount_doubled;
ALTER TABLE db.order_stats ADD COLUMN customer_uc string;
ALTER TABLE db.order_stats ADD COLUMN AMOUNT_DOUBLED string;
ALTER TABLE db.order_stats ADD COLUMN note string AFTER amount_doubled;
-- the partition source `customer_uc` has no known type, but its field id is known: dropping it fails
ALTER TABLE db.order_stats DROP COLUMN customer_uc;
INSERT INTO db.order_stats VALUES (3, 'CY', 7.00, 'n', 4, 2);
INSERT INTO db.order_stats VALUES (3, 'CY', 7.00, 'n', true, 2);
INSERT INTO db.order_stats VALUES (3, 'CY', 7.00, 'n', 4);
