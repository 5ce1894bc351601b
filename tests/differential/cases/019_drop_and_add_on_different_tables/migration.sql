-- payload moves from events to archive: no re-add on the same table
ALTER TABLE db.archive ADD COLUMN payload string;
INSERT INTO db.archive SELECT event_id, 'moved', payload FROM db.events;
ALTER TABLE db.events DROP COLUMN payload;
