CREATE TABLE db.metrics (
  id         bigint NOT NULL,
  small      int,
  big_total  bigint,
  ratio      float,
  score      double,
  price      decimal(10, 2),
  label      string,
  flag       boolean,
  day        date,
  ts         timestamp,
  ts_ntz     timestamp_ntz,
  raw        binary
) USING iceberg TBLPROPERTIES ('format-version' = '1');

INSERT INTO db.metrics VALUES
  (1, 1, 100, 1.5, 2.5, 9.99, 'a', true, DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP_NTZ '2024-01-01 00:00:00', X'01'),
  (2, 2, 200, 2.5, 3.5, 19.99, 'b', false, DATE '2024-01-02', TIMESTAMP '2024-01-02 00:00:00', TIMESTAMP_NTZ '2024-01-02 00:00:00', X'02');

    CREATE TABLE db.v3 (id bigint, day date, n int) USING iceberg TBLPROPERTIES ('format-version' = '3');
    INSERT INTO db.v3 VALUES (1, DATE '2024-01-01', 1);
