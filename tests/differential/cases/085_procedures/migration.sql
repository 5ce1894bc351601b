CALL local.system.rewrite_data_files(table => 'db.events');
CALL local.system.rollback_to_timestamp('db.events', TIMESTAMP '2000-01-01 00:00:00');
ALTER TABLE db.events ADD COLUMN note string;
-- expiring every snapshot but the newest breaks time travel to the first one
CALL local.system.expire_snapshots(table => 'db.events', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1);
ALTER TABLE db.events ADD COLUMN note2 string;
