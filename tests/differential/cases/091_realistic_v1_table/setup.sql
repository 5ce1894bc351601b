CREATE TABLE db.visits (
  visit_id bigint NOT NULL,
  site     string,
  country  string,
  at       timestamp,
  duration int
) USING iceberg
PARTITIONED BY (country)
TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.visits VALUES (1, 's1', 'DE', TIMESTAMP '2024-01-01 00:00:00', 10), (2, 's2', 'FR', TIMESTAMP '2024-01-02 00:00:00', 20);
