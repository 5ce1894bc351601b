ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.format.default' = 'orc');
DELETE FROM db.events WHERE id = 2;
