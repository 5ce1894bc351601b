-- RTAS with aggregates icelint does not type: ids of same-named columns are kept (customer 1, total 2, n 3),
-- new ones get fresh ids; the old `n` (int) is replaced by count(*) (bigint in Spark, unknown to icelint)
REPLACE TABLE db.summary USING iceberg
AS SELECT customer, sum(amount) AS total, count(*) AS n, max(order_id) AS last_order FROM db.orders GROUP BY customer;
ALTER TABLE db.summary RENAME COLUMN customer TO who;
ALTER TABLE db.summary ADD COLUMN N string;
ALTER TABLE db.summary ADD COLUMN Who int;
ALTER TABLE db.summary ALTER COLUMN total TYPE decimal(25, 2);
ALTER TABLE db.summary ADD COLUMN note string;
ALTER TABLE db.summary DROP COLUMN last_order;
CREATE TABLE db.summary_copy USING iceberg AS SELECT who, total, n FROM db.summary;
ALTER TABLE db.summary_copy ALTER COLUMN who TYPE int;
