CREATE TABLE db.events (id bigint, kind string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
