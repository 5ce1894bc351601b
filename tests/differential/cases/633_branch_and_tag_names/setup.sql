CREATE TABLE db.t (id bigint, data string) USING iceberg;
INSERT INTO db.t VALUES (1, 'a');
ALTER TABLE db.t CREATE BRANCH audit;
ALTER TABLE db.t CREATE TAG v1;
