CREATE TABLE db.events (id bigint, kind string) USING iceberg TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read');
INSERT INTO db.events VALUES (1, 'a'), (2, 'b'), (3, 'c');
DELETE FROM db.events WHERE id = 1;
