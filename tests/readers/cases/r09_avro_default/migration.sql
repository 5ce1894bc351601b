ALTER TABLE db.events SET TBLPROPERTIES ('write.format.default' = 'avro');
INSERT INTO db.events VALUES (2, 'b');
