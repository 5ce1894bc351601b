CREATE TABLE db.r1 (sensor int NOT NULL, v int) USING iceberg PARTITIONED BY (sensor) TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.r1 VALUES (1, 1), (2, 2);
CREATE TABLE db.r2 (sensor int NOT NULL, v int) USING iceberg PARTITIONED BY (sensor);
INSERT INTO db.r2 VALUES (1, 1), (2, 2);
ALTER TABLE db.r2 REPLACE PARTITION FIELD sensor WITH bucket(2, v);
INSERT INTO db.r2 VALUES (3, 3);
