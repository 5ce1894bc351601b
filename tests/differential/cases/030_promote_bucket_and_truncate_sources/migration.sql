ALTER TABLE db.ledger ALTER COLUMN account TYPE bigint;
ALTER TABLE db.ledger ALTER COLUMN amount TYPE decimal(20, 2);
ALTER TABLE db.ledger ALTER COLUMN code TYPE bigint;
