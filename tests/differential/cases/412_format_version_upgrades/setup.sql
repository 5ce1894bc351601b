CREATE TABLE db.a (id bigint NOT NULL) USING iceberg TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.a VALUES (1);
CREATE TABLE db.b (id bigint NOT NULL) USING iceberg TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.b VALUES (1);
