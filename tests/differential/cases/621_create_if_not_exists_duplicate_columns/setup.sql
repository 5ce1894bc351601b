CREATE TABLE db.dupes (id bigint, name string) USING iceberg;
INSERT INTO db.dupes VALUES (1, 'a');
