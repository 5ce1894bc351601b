CREATE TABLE db.accounts (
  account_id  bigint NOT NULL,
  external_id string,
  email       string NOT NULL,
  balance     double,
  region      string,
  profile     struct<tier: string NOT NULL, since: date>
) USING iceberg;
INSERT INTO db.accounts VALUES
  (1, 'e1', 'a@x', 1.0, 'EU', named_struct('tier', 'gold', 'since', DATE '2020-01-01')),
  (2, 'e2', 'b@x', 2.0, 'US', named_struct('tier', 'free', 'since', DATE '2021-01-01'));
