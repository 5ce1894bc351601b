-- Merge-on-read modes on a format v1 table are accepted; every row-level DELETE/UPDATE/MERGE then
-- fails. Upgrading to format v2 first (the help) makes them work; so does copy-on-write.
ALTER TABLE db.t SET TBLPROPERTIES ('write.merge.mode' = 'merge-on-read');
MERGE INTO db.t USING (SELECT CAST(1 AS bigint) AS id, 'z' AS kind) s ON db.t.id = s.id WHEN MATCHED THEN UPDATE SET kind = s.kind;
ALTER TABLE db.t SET TBLPROPERTIES ('format-version' = '2');
MERGE INTO db.t USING (SELECT CAST(1 AS bigint) AS id, 'z' AS kind) s ON db.t.id = s.id WHEN MATCHED THEN UPDATE SET kind = s.kind;
CREATE TABLE db.c (id bigint NOT NULL, kind string) USING iceberg TBLPROPERTIES ('format-version' = '1', 'write.update.mode' = 'merge-on-read');
INSERT INTO db.c VALUES (1, 'a'), (2, 'b');
UPDATE db.c SET kind = 'y' WHERE id = 1;
ALTER TABLE db.c SET TBLPROPERTIES ('write.update.mode' = 'copy-on-write');
UPDATE db.c SET kind = 'y' WHERE id = 1;
ALTER TABLE db.c SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'format-version' = '2');
DELETE FROM db.c WHERE id = 2;
