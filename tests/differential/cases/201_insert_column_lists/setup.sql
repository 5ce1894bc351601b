CREATE TABLE db.users (
  user_id bigint,
  email   string,
  country string,
  score   int
) USING iceberg;

INSERT INTO db.users VALUES (1, 'a@example.com', 'NL', 5), (2, 'b@example.com', 'DE', 7);
