CREATE TABLE db.customers (
  id      bigint,
  name    string,
  address struct<city: string, zip: string>
) USING iceberg;

INSERT INTO db.customers VALUES
  (1, 'ann', named_struct('city', 'Oslo', 'zip', '0150')),
  (2, 'bob', named_struct('city', 'Bergen', 'zip', '5003'));
