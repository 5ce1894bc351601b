CREATE TABLE db.t (id bigint NOT NULL, kind string) USING iceberg TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.t VALUES (1, 'a'), (2, 'b');
