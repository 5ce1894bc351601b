-- a v3 table can hold column defaults, but Spark's DDL does not set them (1.10: rejected; 1.9: dropped)
ALTER TABLE db.t ADD COLUMN c int DEFAULT 5;
ALTER TABLE db.t ADD COLUMNS (d string DEFAULT 'x', e bigint);
INSERT INTO db.t (id, name) VALUES (3, 'c');
