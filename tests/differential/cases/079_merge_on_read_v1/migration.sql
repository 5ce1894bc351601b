ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read');
DELETE FROM db.events WHERE event_id = 1;
UPDATE db.events SET kind = 'x' WHERE event_id = 2;
ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '2');
DELETE FROM db.events WHERE event_id = 1;
