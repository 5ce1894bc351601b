UPDATE db.events SET kind = 'c' WHERE id = 1;
ALTER TABLE db.events SET TBLPROPERTIES ('write.update.mode' = 'merge-on-read');
UPDATE db.events SET kind = 'd' WHERE id = 2;
