CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  customer string,
  amount   decimal(10, 2)
) USING iceberg;

CREATE TABLE db.summary (
  customer string,
  total    decimal(20, 2),
  n        int
) USING iceberg;

INSERT INTO db.orders VALUES (1, 'ann', 10.50), (2, 'bob', 20.00), (3, 'ann', 1.25);
INSERT INTO db.summary VALUES ('ann', 11.75, 2);
