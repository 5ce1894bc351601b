CREATE TABLE db.countries (id bigint NOT NULL, name string) USING iceberg;
INSERT INTO db.countries VALUES (1, 'France');
