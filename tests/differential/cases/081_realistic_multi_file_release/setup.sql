CREATE TABLE db.orders (
  order_id    bigint NOT NULL,
  customer_id bigint NOT NULL,
  status      string,
  total       decimal(10, 2),
  created_at  timestamp
) USING iceberg
PARTITIONED BY (days(created_at));

INSERT INTO db.orders VALUES
  (1, 10, 'NEW', 12.50, TIMESTAMP '2024-06-01 10:00:00'),
  (2, 11, 'SHIPPED', 99.99, TIMESTAMP '2024-06-02 11:30:00');

    CREATE TABLE db.customers (
      customer_id bigint NOT NULL,
      name        string,
      email       string,
      address     struct<street: string, city: string, zip: string>
    ) USING iceberg;
    INSERT INTO db.customers VALUES
      (10, 'Ann', 'ann@x', named_struct('street', 'Main 1', 'city', 'Berlin', 'zip', '10115')),
      (11, 'Bob', 'bob@x', named_struct('street', 'High 2', 'city', 'Paris', 'zip', '75001'));
