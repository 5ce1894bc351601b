-- verdicts that hold whether the types are known (state) or not (pre-commit, folder)
ALTER TABLE db.order_names ALTER COLUMN name_len TYPE bigint;
ALTER TABLE db.order_names ALTER COLUMN amount2 TYPE decimal(20, 2);
ALTER TABLE db.order_names ADD COLUMN Customer_UC string;
ALTER TABLE db.order_names ADD PARTITION FIELD truncate(4, customer_uc);
ALTER TABLE db.order_names DROP COLUMN customer_uc;
ALTER TABLE db.order_names DROP COLUMN name_len;
ALTER TABLE db.order_names ADD COLUMN name_len bigint;
INSERT INTO db.order_names VALUES (3, 'CY', 7.00, 2);
CREATE TABLE db.name_copy USING iceberg AS SELECT customer_uc, order_id, amount2 FROM db.order_names;
ALTER TABLE db.name_copy RENAME COLUMN customer_uc TO who;
ALTER TABLE db.name_copy ALTER COLUMN order_id TYPE int;
