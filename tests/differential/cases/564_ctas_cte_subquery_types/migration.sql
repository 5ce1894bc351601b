-- columns read through a CTE or a subquery: typed when what they read is (a column, a CAST), unknown
-- otherwise (`amount * 2` is decimal(12,2) in Spark, and icelint does not infer arithmetic)
CREATE TABLE db.order_totals USING iceberg AS
WITH c AS (SELECT order_id, amount * 2 AS a2, CAST(qty AS bigint) AS q, customer FROM db.orders)
SELECT c.order_id, c.a2, c.q, t.cu, c.customer FROM c JOIN (SELECT order_id, upper(customer) AS cu FROM db.orders) t ON c.order_id = t.order_id;
ALTER TABLE db.order_totals ALTER COLUMN q TYPE int;
ALTER TABLE db.order_totals ALTER COLUMN order_id TYPE int;
ALTER TABLE db.order_totals ALTER COLUMN customer TYPE int;
ALTER TABLE db.order_totals ALTER COLUMN a2 TYPE decimal(14, 2);
ALTER TABLE db.order_totals ADD COLUMN CU string;
ALTER TABLE db.order_totals RENAME COLUMN cu TO customer_uc;
INSERT INTO db.order_totals VALUES (3, 7.00, 4, 'CY', 'cy');
INSERT INTO db.order_totals VALUES (3, 7.00, true, 'CY', 'cy');
