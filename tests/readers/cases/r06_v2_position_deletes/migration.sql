ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read');
DELETE FROM db.events WHERE id = 1;
UPDATE db.events SET kind = 'z' WHERE id = 2;
ALTER TABLE db.events ADD COLUMN note string;
MERGE INTO db.events t USING (SELECT 3L AS id, 'm' AS note) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.note = s.note;
