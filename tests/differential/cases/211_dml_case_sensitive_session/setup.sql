CREATE TABLE db.customers (
  customer_id bigint,
  Email       string,
  tier        string
) USING iceberg;

INSERT INTO db.customers VALUES (1, 'a@example.com', 'gold'), (2, 'b@example.com', 'silver');
