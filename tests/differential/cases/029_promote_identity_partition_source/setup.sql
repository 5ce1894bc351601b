CREATE TABLE db.readings (
  sensor_id int NOT NULL,
  value     double,
  taken_at  timestamp
) USING iceberg
PARTITIONED BY (sensor_id);
INSERT INTO db.readings VALUES (1, 1.0, TIMESTAMP '2024-01-01 00:00:00'), (2, 2.0, TIMESTAMP '2024-01-02 00:00:00');
