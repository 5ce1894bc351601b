CREATE TABLE db.devices (
  id   bigint NOT NULL,
  info struct<vendor: string, model: string>,
  seen timestamp
) USING iceberg
PARTITIONED BY (info.vendor);
INSERT INTO db.devices VALUES (1, named_struct('vendor', 'acme', 'model', 'x'), TIMESTAMP '2024-01-01 00:00:00');
