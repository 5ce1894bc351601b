CREATE TABLE db.events (id bigint, kind string, s struct<x: int>) USING iceberg TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.events VALUES (1, 'a', named_struct('x', 1));
