CREATE TABLE db.p1 (id bigint, name string, tags array<string>, s struct<a: int, b: int>) USING iceberg
TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.p1 VALUES (1, 'a', array('t'), named_struct('a', 1, 'b', 2));
CREATE TABLE db.p2 (id bigint NOT NULL, name string) USING iceberg;
INSERT INTO db.p2 VALUES (1, 'a');
ALTER TABLE db.p2 SET IDENTIFIER FIELDS id;
CREATE TABLE db.p3 (id bigint, name string) USING iceberg;
INSERT INTO db.p3 VALUES (1, 'a');
ALTER TABLE db.p3 WRITE ORDERED BY name;
