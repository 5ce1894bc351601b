CREATE TABLE db.r (id bigint NOT NULL, v string) USING iceberg;
INSERT INTO db.r VALUES (1, 'a');
CREATE TABLE db.s (id bigint, v string, n int) USING iceberg;
INSERT INTO db.s VALUES (2, 'b', 3);
