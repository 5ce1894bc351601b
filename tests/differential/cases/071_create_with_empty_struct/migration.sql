CREATE TABLE db.shapes (id bigint, s struct<>) USING iceberg;
ALTER TABLE db.shapes ADD COLUMN s.a int;
