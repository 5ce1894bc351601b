CREATE TABLE db.events (
  event_id bigint NOT NULL,
  payload  string,
  kind     string,
  attrs    struct<source: string, score: int>,
  items    array<struct<name: string, qty: int>>,
  props    map<string, struct<v: int, w: string>>
) USING iceberg;

INSERT INTO db.events VALUES
  (1, 'p1', 'click', named_struct('source', 'web', 'score', 1), array(named_struct('name', 'a', 'qty', 1)), map('k', named_struct('v', 1, 'w', 'x'))),
  (2, 'p2', 'view',  named_struct('source', 'app', 'score', 2), array(named_struct('name', 'b', 'qty', 2)), map('k', named_struct('v', 2, 'w', 'y')));

    ALTER TABLE db.events RENAME COLUMN kind TO category;
    INSERT INTO db.events VALUES
      (3, 'p3', 'click', named_struct('source', 'web', 'score', 3), array(named_struct('name', 'c', 'qty', 3)), map('k', named_struct('v', 3, 'w', 'z')));
