CREATE TABLE db.e (id bigint NOT NULL, amount int, notes string, other string) USING iceberg;
INSERT INTO db.e VALUES (1, 10, 'n1', 'o1'), (2, 20, NULL, 'o2'), (3, 30, NULL, 'o3');
