CREATE TABLE db.dup (a int, a string) USING iceberg;
CREATE TABLE db.dup2 (a int, A string) USING iceberg;
CREATE TABLE db.events (x int) USING iceberg;
CREATE TABLE db.ok (id bigint, s struct<a: int, b: int>) USING iceberg;
CREATE TABLE db.dup3 (s struct<a: int, a: int>) USING iceberg;
