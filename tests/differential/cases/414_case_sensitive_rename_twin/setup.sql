CREATE TABLE db.orders (order_id bigint NOT NULL, status string, state string, meta struct<code: string, kind: string>) USING iceberg;
INSERT INTO db.orders VALUES (1, 'NEW', 'open', named_struct('code', 'c', 'kind', 'k'));
