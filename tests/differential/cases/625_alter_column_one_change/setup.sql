CREATE TABLE db.sample (id bigint NOT NULL, measurement float, d decimal(10,2), note string) USING iceberg;
INSERT INTO db.sample VALUES (1, 1.5, 2.25, 'a');
