CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  customer string,
  amount   decimal(10, 2),
  qty      int,
  ts       timestamp
) USING iceberg;

INSERT INTO db.orders VALUES
  (1, 'ann', 10.50, 2, TIMESTAMP '2024-01-01 10:00:00'),
  (2, 'bob', 20.00, 3, TIMESTAMP '2024-01-02 10:00:00');
