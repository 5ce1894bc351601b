CREATE TABLE db.profiles (
  user_id bigint,
  name    string,
  email   string
) USING iceberg;
INSERT INTO db.profiles VALUES (1, 'ann', 'a@x'), (2, 'bob', 'b@x');
