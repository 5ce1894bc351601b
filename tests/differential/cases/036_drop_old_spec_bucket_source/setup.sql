CREATE TABLE db.users (
  id      bigint NOT NULL,
  email   string,
  country string,
  created date
) USING iceberg
PARTITIONED BY (bucket(4, email));
INSERT INTO db.users VALUES (1, 'a@x', 'DE', DATE '2024-01-01'), (2, 'b@x', 'FR', DATE '2024-01-02');
ALTER TABLE db.users REPLACE PARTITION FIELD email_bucket WITH months(created);
INSERT INTO db.users VALUES (3, 'c@x', 'IT', DATE '2024-02-01');
