CREATE TABLE db.seed (
  id bigint
) USING iceberg;

INSERT INTO db.seed VALUES (1);
