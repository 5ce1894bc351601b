CREATE TABLE db.events (id bigint NOT NULL, n int NOT NULL, tn timestamp_ntz) USING iceberg TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.events VALUES (1, 2, TIMESTAMP_NTZ '2024-01-01 01:00:00');
