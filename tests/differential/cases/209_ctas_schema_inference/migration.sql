CREATE TABLE db.orders_copy USING iceberg PARTITIONED BY (bucket(8, order_id))
AS SELECT order_id, customer, amount, ts, items, shipping FROM db.orders;
CREATE TABLE db.order_flags USING iceberg
AS SELECT o.order_id AS id, CAST(o.amount AS double) AS amount_d, 'v1' AS source, true AS checked, 7 AS weight, CAST(NULL AS string) AS note
FROM db.orders o;
-- the inferred schemas are checked like any other
ALTER TABLE db.orders_copy ADD COLUMN Customer string;
ALTER TABLE db.orders_copy ALTER COLUMN amount TYPE decimal(8, 2);
ALTER TABLE db.order_flags ALTER COLUMN weight TYPE bigint;
ALTER TABLE db.order_flags DROP COLUMN note;
INSERT INTO db.order_flags VALUES (3, 1.5, 'v2', false);
INSERT INTO db.order_flags VALUES (3, 1.5, 'v2', false, 8);
UPDATE db.order_flags SET checked = false WHERE note IS NULL;
-- a projection whose type icelint does not infer: the column is created with an unknown type (ICE028 info), the table stays checkable
CREATE TABLE db.order_names USING iceberg AS SELECT order_id, upper(customer) AS customer_uc FROM db.orders;
