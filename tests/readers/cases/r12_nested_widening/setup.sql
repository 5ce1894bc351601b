CREATE TABLE db.events (id bigint, s struct<x: int, f: float>, l array<int>, m map<string, int>, d decimal(10, 2)) USING iceberg;
INSERT INTO db.events VALUES (1, named_struct('x', 1, 'f', 1.5), array(1, 2), map('k', 1), 1.25);
