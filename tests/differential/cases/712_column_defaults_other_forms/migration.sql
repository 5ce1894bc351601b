ALTER TABLE db.t ALTER COLUMN name SET DEFAULT 'x';
ALTER TABLE db.t ALTER COLUMN name DROP DEFAULT;
CREATE TABLE db.n (id bigint, c int DEFAULT 5) USING iceberg TBLPROPERTIES ('format-version' = '3');
CREATE TABLE db.m (id bigint, c int DEFAULT 5) USING iceberg;
ALTER TABLE db.t ADD COLUMN s struct<a: int> DEFAULT named_struct('a', 1);
ALTER TABLE db.t ADD COLUMN r int NOT NULL DEFAULT 1;
ALTER TABLE db.r REPLACE COLUMNS (id bigint, label string DEFAULT 'x');
