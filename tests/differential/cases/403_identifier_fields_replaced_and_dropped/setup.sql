CREATE TABLE db.orders (order_id bigint NOT NULL, tenant string NOT NULL, amount bigint) USING iceberg;
ALTER TABLE db.orders SET IDENTIFIER FIELDS order_id;
INSERT INTO db.orders VALUES (1, 't1', 10);
