CREATE TABLE db.events (id bigint, n int, s struct<x: int, y: string>) USING iceberg TBLPROPERTIES ('write.format.default' = 'orc');
INSERT INTO db.events VALUES (1, 1, named_struct('x', 1, 'y', 'a'));
