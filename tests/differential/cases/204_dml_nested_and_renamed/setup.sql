CREATE TABLE db.profiles (
  id      bigint,
  name    string,
  address struct<city: string, zip: string>,
  tags    array<string>
) USING iceberg;

INSERT INTO db.profiles VALUES
  (1, 'ann', named_struct('city', 'Oslo', 'zip', '0150'), array('a')),
  (2, 'bob', named_struct('city', 'Bergen', 'zip', '5003'), array('b'));
