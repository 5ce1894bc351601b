CREATE TABLE db.metrics (
  id    bigint NOT NULL,
  extra struct<a: int, b: int>,
  items array<struct<x: int>>
) USING iceberg;
INSERT INTO db.metrics VALUES (1, named_struct('a', 1, 'b', 2), array(named_struct('x', 1)));
