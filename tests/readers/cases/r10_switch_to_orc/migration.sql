ALTER TABLE db.events SET TBLPROPERTIES ('write.format.default' = 'orc');
INSERT INTO db.events VALUES (2, 'b');
ALTER TABLE db.events ADD COLUMN note string;
INSERT INTO db.events VALUES (3, 'c', 'n');
