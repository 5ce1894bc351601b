ALTER TABLE db.events DROP COLUMN props;
