CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  customer string,
  amount   decimal(10, 2),
  ts       timestamp,
  items    array<string>,
  shipping struct<city: string, zip: string>
) USING iceberg
PARTITIONED BY (days(ts));

INSERT INTO db.orders VALUES
  (1, 'ann', 10.50, TIMESTAMP '2024-01-01 10:00:00', array('a'), named_struct('city', 'Oslo', 'zip', '0150')),
  (2, 'bob', 20.00, TIMESTAMP '2024-01-02 10:00:00', array('b'), named_struct('city', 'Bergen', 'zip', '5003'));
