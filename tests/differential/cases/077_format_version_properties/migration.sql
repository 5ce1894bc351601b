ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '2');
ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '1');
ALTER TABLE db.v2t SET TBLPROPERTIES ('format-version' = '1');
ALTER TABLE db.v2t UNSET TBLPROPERTIES ('format-version');
ALTER TABLE db.v2t SET TBLPROPERTIES ('format-version' = '3');
ALTER TABLE db.v2t SET TBLPROPERTIES ('format-version' = '2');
ALTER TABLE db.v2t SET TBLPROPERTIES ('format-version' = 'x');
