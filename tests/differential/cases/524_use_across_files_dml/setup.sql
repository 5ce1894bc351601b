CREATE TABLE db.events (
  id      bigint NOT NULL,
  payload string,
  kind    string
) USING iceberg;

INSERT INTO db.events VALUES (1, 'p1', 'click'), (2, 'p2', 'view');
