CREATE TABLE db.order (
  id   bigint NOT NULL,
  note string
) USING iceberg;

INSERT INTO db.order VALUES (1, 'first'), (2, 'second');
