CREATE TABLE db.stock (
  sku      string,
  qty      int,
  location string
) USING iceberg;

CREATE TABLE db.stock_updates (
  sku string,
  qty int
) USING iceberg;

INSERT INTO db.stock VALUES ('a', 1, 'w1'), ('b', 2, 'w2');
INSERT INTO db.stock_updates VALUES ('a', 5);
