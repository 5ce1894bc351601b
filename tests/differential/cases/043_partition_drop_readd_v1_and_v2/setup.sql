CREATE TABLE db.a1 (id bigint, region string) USING iceberg PARTITIONED BY (region) TBLPROPERTIES ('format-version' = '1');
INSERT INTO db.a1 VALUES (1, 'EU');
CREATE TABLE db.a2 (id bigint, region string) USING iceberg PARTITIONED BY (region);
INSERT INTO db.a2 VALUES (1, 'EU');
