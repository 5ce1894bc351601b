ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '3');
INSERT INTO db.events VALUES (4, 'd');
DELETE FROM db.events WHERE id = 2;
