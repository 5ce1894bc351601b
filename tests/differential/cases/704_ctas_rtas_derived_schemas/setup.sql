CREATE TABLE db.src (
  id    bigint NOT NULL,
  name  string,
  qty   int,
  price decimal(10, 2),
  attrs struct<source: string, score: int>,
  tags  array<string>,
  props map<string, struct<v: int, w: string>>
) USING iceberg PARTITIONED BY (bucket(4, id));
INSERT INTO db.src VALUES (1, 'a', 2, 3.50, named_struct('source', 'web', 'score', 1), array('t'), map('k', named_struct('v', 1, 'w', 'x')));
CREATE TABLE db.lbl (id bigint NOT NULL, label string) USING iceberg;
INSERT INTO db.lbl VALUES (1, 'one');
CREATE TABLE db.old (id bigint, label string, extra int) USING iceberg;
INSERT INTO db.old VALUES (1, 'x', 3);
