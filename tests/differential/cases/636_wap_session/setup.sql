CREATE TABLE db.t (id bigint, data string) USING iceberg TBLPROPERTIES ('write.wap.enabled'='true');
INSERT INTO db.t VALUES (1, 'a');
CREATE TABLE db.u (id bigint) USING iceberg;
INSERT INTO db.u VALUES (1);
ALTER TABLE db.u CREATE BRANCH side;
