ALTER TABLE db.events ADD COLUMNS (
  c_bool boolean, c_int int, c_long bigint, c_float float, c_double double,
  c_dec decimal(38, 10), c_date date, c_ts timestamp, c_ntz timestamp_ntz,
  c_str string, c_bin binary,
  c_struct struct<a: int, b: struct<c: string>>,
  c_list array<map<string, int>>,
  c_map map<bigint, array<string>>
);
INSERT INTO db.events SELECT event_id + 10, payload, kind, attrs, items, props,
  true, 1, 2, 1.5, 2.5, 3.25, DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP_NTZ '2024-01-01 00:00:00',
  's', X'01', named_struct('a', 1, 'b', named_struct('c', 'x')), array(map('k', 1)), map(1L, array('v'))
FROM db.events WHERE event_id = 1;
ALTER TABLE db.events ALTER COLUMN c_struct.a TYPE bigint;
ALTER TABLE db.events ALTER COLUMN c_list.element.value TYPE bigint;
ALTER TABLE db.events ALTER COLUMN c_map.key TYPE bigint;
ALTER TABLE db.events DROP COLUMN c_struct.b.c;
