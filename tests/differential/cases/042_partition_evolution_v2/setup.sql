CREATE TABLE db.logs (
  id     bigint NOT NULL,
  level  string,
  host   string,
  at     timestamp
) USING iceberg
PARTITIONED BY (days(at));
INSERT INTO db.logs VALUES (1, 'INFO', 'h1', TIMESTAMP '2024-01-01 00:00:00'), (2, 'WARN', 'h2', TIMESTAMP '2024-01-02 00:00:00');
