CREATE TABLE db.trips (
  id       bigint NOT NULL,
  city     string,
  started  timestamp,
  ended    timestamp_ntz,
  day      date,
  fare     decimal(8, 2)
) USING iceberg
PARTITIONED BY (years(started), truncate(3, city));
INSERT INTO db.trips VALUES (1, 'Berlin', TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP_NTZ '2024-01-01 11:00:00', DATE '2024-01-01', 10.50);
