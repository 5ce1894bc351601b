CREATE TABLE db.t (id bigint NOT NULL, name string) USING iceberg TBLPROPERTIES ('format-version' = '3');
INSERT INTO db.t VALUES (1, 'a'), (2, 'b');
CREATE TABLE db.r (id bigint NOT NULL, name string) USING iceberg;
INSERT INTO db.r VALUES (1, 'a');
