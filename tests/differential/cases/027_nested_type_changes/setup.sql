CREATE TABLE db.nested (
  id     bigint NOT NULL,
  point  struct<x: int, y: float, z: decimal(5, 2)>,
  counts array<int>,
  labels array<string>,
  scores map<string, int>,
  by_id  map<int, string>,
  deep   struct<inner: struct<n: int>, list: array<struct<m: int>>>
) USING iceberg;
INSERT INTO db.nested VALUES
  (1, named_struct('x', 1, 'y', 1.5, 'z', 1.25), array(1, 2), array('a'), map('a', 1), map(1, 'one'),
   named_struct('inner', named_struct('n', 1), 'list', array(named_struct('m', 1)))),
  (2, named_struct('x', 2, 'y', 2.5, 'z', 2.25), array(3), array('b'), map('b', 2), map(2, 'two'),
   named_struct('inner', named_struct('n', 2), 'list', array(named_struct('m', 2))));
