CREATE TABLE db.events (id bigint, kind string, s struct<x: int>) USING iceberg TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.events VALUES (1, 'a', named_struct('x', 1)), (2, 'b', named_struct('x', 2)), (3, 'c', named_struct('x', 3));
