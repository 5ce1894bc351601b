ALTER TABLE db.events DROP COLUMN kind;
ALTER TABLE db.events ADD COLUMN region string;
ALTER TABLE db.events ALTER COLUMN attrs.score TYPE bigint;
UPDATE db.events SET region = 'EU' WHERE event_id = 1;
ALTER TABLE db.events RENAME COLUMN region TO area;
DELETE FROM db.events WHERE event_id = 99;
ALTER TABLE db.events ADD COLUMN kind string AFTER event_id;
ALTER TABLE db.events SET TBLPROPERTIES ('comment' = 'kind re-added');
