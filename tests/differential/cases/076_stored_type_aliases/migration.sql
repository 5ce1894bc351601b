CREATE TABLE db.legacy (
  code  varchar(8),
  cc    char(2),
  small smallint,
  tiny  tinyint,
  r     real,
  d     dec(5, 1),
  n     numeric(6, 2),
  i     integer,
  l     long,
  s     short,
  b     byte
) USING iceberg;
ALTER TABLE db.legacy ADD COLUMN v2 varchar(20);
ALTER TABLE db.legacy ALTER COLUMN small TYPE int;
ALTER TABLE db.legacy ALTER COLUMN small TYPE bigint;
