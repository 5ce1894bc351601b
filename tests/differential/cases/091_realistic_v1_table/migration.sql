ALTER TABLE db.visits REPLACE PARTITION FIELD country WITH days(at);
INSERT INTO db.visits VALUES (3, 's3', 'IT', TIMESTAMP '2024-01-03 00:00:00', 30);
ALTER TABLE db.visits ALTER COLUMN duration TYPE bigint;
ALTER TABLE db.visits DROP COLUMN site;
ALTER TABLE db.visits ADD COLUMN site string;
ALTER TABLE db.visits ADD PARTITION FIELD country;
ALTER TABLE db.visits SET TBLPROPERTIES ('format-version' = '2');
