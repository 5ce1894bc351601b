ALTER TABLE db.events DROP COLUMNS (payload, kind);
ALTER TABLE db.events ADD COLUMNS (
  channel string COMMENT 'new',
  payload string COMMENT 'same name, same type'
);
