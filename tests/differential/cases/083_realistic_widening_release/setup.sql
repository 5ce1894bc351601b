CREATE TABLE db.metrics (
  host     string NOT NULL,
  ts       timestamp NOT NULL,
  cpu      float,
  mem      int,
  disk     decimal(6, 2),
  labels   map<string, string>,
  samples  array<int>
) USING iceberg
PARTITIONED BY (days(ts), bucket(4, host));
INSERT INTO db.metrics VALUES
  ('h1', TIMESTAMP '2024-01-01 00:00:00', 0.5, 100, 10.25, map('env', 'prod'), array(1, 2)),
  ('h2', TIMESTAMP '2024-01-02 00:00:00', 0.7, 200, 20.50, map('env', 'dev'), array(3));
