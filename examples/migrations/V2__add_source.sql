ALTER TABLE db.events ADD COLUMN source string COMMENT 'where the event came from' AFTER kind;
