CREATE TABLE db.ledger (
  entry_id bigint,
  amount   bigint
) USING iceberg;

INSERT INTO db.ledger VALUES (1, 100);
INSERT INTO db.ledger VALUES (2, 200);
