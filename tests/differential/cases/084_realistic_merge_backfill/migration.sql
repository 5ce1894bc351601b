ALTER TABLE db.events ADD COLUMN kind_label string;
MERGE INTO db.events t
USING db.kinds k
ON t.kind = k.kind
WHEN MATCHED THEN UPDATE SET t.kind_label = k.label;
-- the label replaces the code
ALTER TABLE db.events DROP COLUMN kind;
ALTER TABLE db.events RENAME COLUMN kind_label TO kind;
DROP TABLE db.kinds;
