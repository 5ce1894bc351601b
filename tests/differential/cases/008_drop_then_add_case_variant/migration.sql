-- case-only renames are impossible in Spark, so someone drops and re-adds
ALTER TABLE db.docs RENAME COLUMN Payload TO payload;
ALTER TABLE db.docs DROP COLUMN Payload;
ALTER TABLE db.docs ADD COLUMN payload string;
ALTER TABLE db.docs DROP COLUMN TITLE;
ALTER TABLE db.docs ADD COLUMN Title string;
