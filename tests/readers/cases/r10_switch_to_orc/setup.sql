CREATE TABLE db.events (id bigint, kind string) USING iceberg TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.events VALUES (1, 'a');
