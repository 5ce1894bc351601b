ALTER TABLE db.a SET TBLPROPERTIES ('format-version' = '2');
ALTER TABLE db.b SET TBLPROPERTIES ('format-version' = '3');
