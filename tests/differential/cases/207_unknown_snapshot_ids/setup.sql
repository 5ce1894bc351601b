-- modes: state
-- snapshot ids: only a state source lists the snapshots Spark checks them against (tests/differential/modes.py)
CREATE TABLE db.ledger (
  entry_id bigint,
  amount   bigint
) USING iceberg;

INSERT INTO db.ledger VALUES (1, 100);
INSERT INTO db.ledger VALUES (2, 200);
