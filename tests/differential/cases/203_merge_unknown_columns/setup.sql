CREATE TABLE db.accounts (
  account_id bigint,
  balance    bigint,
  owner_name string,
  legacy_tag string
) USING iceberg;

INSERT INTO db.accounts VALUES (1, 100, 'ann', 't1'), (2, 200, 'bob', 't2');
