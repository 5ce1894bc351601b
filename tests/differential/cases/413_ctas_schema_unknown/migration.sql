CREATE TABLE db.event_copy USING iceberg AS SELECT * FROM db.events;
ALTER TABLE db.event_copy ADD COLUMN source string;
CREATE TABLE db.event_ids USING iceberg AS SELECT id FROM db.events WHERE kind = 'click';
