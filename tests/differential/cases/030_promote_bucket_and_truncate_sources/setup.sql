CREATE TABLE db.ledger (
  account int NOT NULL,
  amount  decimal(10, 2),
  note    string,
  code    int
) USING iceberg
PARTITIONED BY (bucket(4, account), truncate(10, amount), truncate(2, code));
INSERT INTO db.ledger VALUES (1, 10.00, 'a', 11), (2, 20.00, 'b', 22);
