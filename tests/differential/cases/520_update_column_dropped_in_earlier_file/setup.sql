CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  status   string,
  note     string,
  amount   decimal(10, 2)
) USING iceberg;

INSERT INTO db.orders VALUES
  (1, 'open', 'n1', CAST(10.50 AS DECIMAL(10, 2))),
  (2, 'paid', 'n2', CAST(20.00 AS DECIMAL(10, 2)));
