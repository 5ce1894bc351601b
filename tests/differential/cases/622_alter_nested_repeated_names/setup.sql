CREATE TABLE db.nested (id bigint) USING iceberg;
INSERT INTO db.nested VALUES (1);
