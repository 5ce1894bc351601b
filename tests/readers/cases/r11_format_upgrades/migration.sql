ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.events VALUES (2, 'b', named_struct('x', 2));
ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '3');
INSERT INTO db.events VALUES (3, 'c', named_struct('x', 3));
ALTER TABLE db.events ADD COLUMN note string;
DELETE FROM db.events WHERE id = 1;
