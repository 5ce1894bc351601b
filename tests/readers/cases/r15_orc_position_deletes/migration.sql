DELETE FROM db.events WHERE id = 1;
ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read');
DELETE FROM db.events WHERE id = 2;
