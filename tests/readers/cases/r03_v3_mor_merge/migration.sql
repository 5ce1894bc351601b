ALTER TABLE db.events SET TBLPROPERTIES ('write.merge.mode' = 'merge-on-read');
MERGE INTO db.events t USING (SELECT 2L AS id, 'z' AS kind) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.kind = s.kind;
