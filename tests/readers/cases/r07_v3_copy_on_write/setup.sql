CREATE TABLE db.events (id bigint, kind string) USING iceberg TBLPROPERTIES ('format-version' = '3');
INSERT INTO db.events VALUES (1, 'a'), (2, 'b'), (3, 'c');
