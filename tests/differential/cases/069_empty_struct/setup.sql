CREATE TABLE db.metrics (
  id      bigint NOT NULL,
  metrics struct<cpu: double>,
  extra   struct<a: int, b: int>
) USING iceberg;
INSERT INTO db.metrics VALUES (1, named_struct('cpu', 0.5), named_struct('a', 1, 'b', 2));
