-- The table exists, so each IF NOT EXISTS below would do nothing; but Spark's analyzer checks the
-- statement's own column list and partitioning first, whether or not the table exists.
CREATE TABLE IF NOT EXISTS db.dupes (id int, id int) USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, ID string) USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, s struct<a: int, a: int>) USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (id, id);
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (id, ID);
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, ts timestamp) USING iceberg PARTITIONED BY (days(ts), hours(ts));
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (bucket(4, id), id);
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (nope);
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string DEFAULT 'x') USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, m map<string, struct<b: int, B: int>>) USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING parquet;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg TBLPROPERTIES ('format-version'='9');
SET spark.sql.caseSensitive=true;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, ID string) USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (id, ID);
SET spark.sql.caseSensitive=false;
INSERT INTO db.dupes VALUES (2, 'b');
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, a array<struct<x: int, x: int>>) USING iceberg;
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (bucket(4, id), bucket(8, id));
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (truncate(2, name), truncate(4, name));
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, s struct<a: int>) USING iceberg PARTITIONED BY (s.b);
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, s struct<a: int>) USING iceberg PARTITIONED BY (s.a, s.a);
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, s struct<a: int>) USING iceberg PARTITIONED BY (days(nope));
CREATE TABLE IF NOT EXISTS db.dupes (id bigint, name string) USING iceberg PARTITIONED BY (Name);
ALTER TABLE db.dupes ADD COLUMN a array<struct<x: int, X: int>>;
-- CREATE TABLE IF NOT EXISTS ... AS SELECT: the query is analysed too
CREATE TABLE IF NOT EXISTS db.dupes USING iceberg AS SELECT nope FROM db.dupes;
CREATE TABLE IF NOT EXISTS db.dupes USING iceberg PARTITIONED BY (nope) AS SELECT 1 AS id;
CREATE TABLE IF NOT EXISTS db.dupes USING iceberg AS SELECT 1 AS id, 2 AS ID;
CREATE TABLE IF NOT EXISTS db.dupes USING iceberg PARTITIONED BY (id, id) AS SELECT 1 AS id;
CREATE TABLE IF NOT EXISTS db.dupes USING iceberg PARTITIONED BY (bucket(4, id)) AS SELECT id, name FROM db.dupes;
INSERT INTO db.dupes VALUES (3, 'c');
