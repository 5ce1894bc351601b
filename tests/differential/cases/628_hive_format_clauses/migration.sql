-- Hive's format clauses on an Iceberg SparkCatalog: STORED AS and ROW FORMAT without USING are
-- accepted (an Iceberg table that writes Parquet whatever they name, with `hive.stored-as` and
-- `option.*` properties); with USING, or ROW FORMAT DELIMITED with a format other than textfile,
-- "Operation not allowed"; STORED BY is not allowed; USING after another clause does not parse.
CREATE TABLE db.s1 (id bigint) STORED AS PARQUET;
CREATE TABLE db.s2 (id bigint) stored as orc;
CREATE TABLE db.s3 (id bigint) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ESCAPED BY '\\' COLLECTION ITEMS TERMINATED BY '|' MAP KEYS TERMINATED BY ':' LINES TERMINATED BY '\n' NULL DEFINED AS 'NULL';
CREATE TABLE db.s4 (id bigint) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' WITH SERDEPROPERTIES ('k'='v') STORED AS TEXTFILE;
CREATE TABLE db.s5 (id bigint) STORED AS INPUTFORMAT 'a.b' OUTPUTFORMAT 'c.d';
CREATE TABLE db.s6 (id bigint, dt string) PARTITIONED BY (dt) STORED AS PARQUET TBLPROPERTIES ('a'='b');
CREATE TABLE db.s7 STORED AS PARQUET AS SELECT 1 AS id;
CREATE TABLE db.s8 (id bigint) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
CREATE TABLE db.f1 (id bigint) USING iceberg STORED AS PARQUET;
CREATE TABLE db.f2 (id bigint) USING iceberg ROW FORMAT DELIMITED FIELDS TERMINATED BY ',';
CREATE TABLE db.f3 (id bigint) USING iceberg ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe';
CREATE TABLE db.f4 (id bigint) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS PARQUET;
CREATE TABLE db.f5 (id bigint) STORED BY 'x.y';
CREATE TABLE db.f6 (id bigint) STORED AS PARQUET STORED AS ORC;
CREATE TABLE db.f7 (id bigint) STORED AS PARQUET USING iceberg;
CREATE TABLE db.f8 (id int, dt string) PARTITIONED BY (dt) USING iceberg;
CREATE TABLE db.f9 (id int) TBLPROPERTIES ('a'='b') USING iceberg;
CREATE TABLE db.f10 (id int) COMMENT 'x' USING iceberg;
INSERT INTO db.s1 VALUES (1);
INSERT INTO db.s3 VALUES (1);
INSERT INTO db.s6 VALUES (1, 'a');
