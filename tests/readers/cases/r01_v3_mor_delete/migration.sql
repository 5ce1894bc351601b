ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '3', 'write.delete.mode' = 'merge-on-read');
DELETE FROM db.events WHERE id = 1;
