CREATE TABLE db.t (id bigint, name string, addr struct<street: string, city: string>) USING iceberg;
INSERT INTO db.t VALUES (1, 'a', named_struct('street', 's1', 'city', 'c1'));
