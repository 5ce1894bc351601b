-- snapshot ids that the table never had (a typo, or the id of another environment's table)
ALTER TABLE db.ledger CREATE BRANCH audit AS OF VERSION 1234567890123;
ALTER TABLE db.ledger CREATE TAG before_fix AS OF VERSION 1234567890123 RETAIN 30 DAYS;
CALL local.system.rollback_to_snapshot('db.ledger', 1234567890123);
CALL local.system.set_current_snapshot(table => 'db.ledger', snapshot_id => 1234567890123);
CALL local.system.cherrypick_snapshot('db.ledger', 1234567890123);
CALL local.system.set_current_snapshot(table => 'db.ledger', ref => 'no_such_branch');
ALTER TABLE db.ledger SET TBLPROPERTIES ('current-snapshot-id' = '1234567890123');
ALTER TABLE db.ledger CREATE BRANCH audit;
CALL local.system.set_current_snapshot(table => 'db.ledger', ref => 'audit');
