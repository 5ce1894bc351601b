CREATE TABLE db.codes (id bigint NOT NULL, code string) USING iceberg;
INSERT INTO db.codes VALUES (1, 'A');
