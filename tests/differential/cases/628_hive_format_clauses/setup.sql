CREATE TABLE db.base (id bigint) USING iceberg;
INSERT INTO db.base VALUES (1);
