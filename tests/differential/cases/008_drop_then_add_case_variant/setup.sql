CREATE TABLE db.docs (
  id      bigint NOT NULL,
  Payload string,
  title   string
) USING iceberg;
INSERT INTO db.docs VALUES (1, 'a', 't1'), (2, 'b', 't2');
