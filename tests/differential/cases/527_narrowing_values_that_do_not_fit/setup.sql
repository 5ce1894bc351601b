-- rows whose values do not fit the narrower types (and rows whose values do): a backfill by a plain
-- CAST would wrap, round or null them (ANSI mode off, Spark's default)
CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  quantity bigint,
  ratio    double,
  price    decimal(12, 4),
  code     string,
  placed   timestamp
) USING iceberg;

INSERT INTO db.orders VALUES
  (1, 3000000000, 0.1, 12345678.1234, 'A1', TIMESTAMP '2024-01-02 03:04:05'),
  (2, 5, 1.5, 9.99, '42', TIMESTAMP '2024-01-03 00:00:00'),
  (3, -2147483649, 3.4028235e39, -0.0001, ' 7', TIMESTAMP '2024-01-04 12:00:00');
