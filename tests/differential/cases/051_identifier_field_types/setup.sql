CREATE TABLE db.keys (
  k_int   int NOT NULL,
  k_float float NOT NULL,
  k_str   string NOT NULL,
  k_date  date NOT NULL,
  nested  struct<inner_id: bigint NOT NULL> NOT NULL,
  opt_nested struct<inner_id: bigint NOT NULL>,
  list_col array<int> NOT NULL,
  v       string
) USING iceberg;
INSERT INTO db.keys VALUES (1, 1.0, 'a', DATE '2024-01-01', named_struct('inner_id', 1), named_struct('inner_id', 1), array(1), 'v');
