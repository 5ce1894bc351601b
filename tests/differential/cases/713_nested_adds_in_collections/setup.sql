CREATE TABLE db.t (
  id bigint NOT NULL,
  props map<string, struct<v: int>>,
  items array<struct<a: int>>,
  deep array<map<string, struct<x: int>>>
) USING iceberg;
INSERT INTO db.t VALUES
  (1, map('k', named_struct('v', 1)), array(named_struct('a', 1)), array(map('k', named_struct('x', 1)))),
  (2, map('k', named_struct('v', 2)), array(named_struct('a', 2)), array(map('k', named_struct('x', 2))));
