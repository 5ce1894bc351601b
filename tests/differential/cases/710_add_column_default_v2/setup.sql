CREATE TABLE db.t (id bigint NOT NULL, name string) USING iceberg;
INSERT INTO db.t VALUES (1, 'a'), (2, 'b');
