CREATE TABLE db.staging (id bigint NOT NULL, payload string) USING iceberg;
INSERT INTO db.staging VALUES (1, 'a');
CREATE TABLE db.archive (id bigint NOT NULL, payload string) USING iceberg;
INSERT INTO db.archive VALUES (1, 'a');
