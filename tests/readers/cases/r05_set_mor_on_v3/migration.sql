INSERT INTO db.events VALUES (3, 'c'), (4, 'd');
ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read');
DELETE FROM db.events WHERE id = 3;
