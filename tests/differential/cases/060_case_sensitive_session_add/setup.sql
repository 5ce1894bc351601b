CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  status   string,
  note     string
) USING iceberg;
INSERT INTO db.orders VALUES (1, 'NEW', 'n'), (2, 'OLD', 'm');
CREATE TABLE db.notes (id bigint, note string, s struct<a: int>) USING iceberg;
INSERT INTO db.notes VALUES (1, 'n', named_struct('a', 1));
