CREATE TABLE db.t (id bigint) USING iceberg;
INSERT INTO db.t VALUES (1);
