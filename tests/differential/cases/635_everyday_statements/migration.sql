-- Statements teams put in migration files besides DDL (caching, inspection, temporary views, the
-- INSERT forms of Hive and of Spark's docs), and everyday DDL: Spark accepts every one of them, and
-- icelint reports none as an error, but ANALYZE TABLE, which Spark refuses on an Iceberg table (case 626).
CACHE TABLE db.ev;
UNCACHE TABLE db.ev;
REFRESH TABLE db.ev;
DESCRIBE TABLE EXTENDED db.ev;
SHOW CREATE TABLE db.ev;
SHOW TBLPROPERTIES db.ev;
CREATE TEMPORARY VIEW v_ev AS SELECT id, kind FROM db.ev;
CREATE OR REPLACE TEMPORARY VIEW v_ev AS SELECT id FROM db.ev;
DROP VIEW IF EXISTS v_ev;
INSERT INTO db.src TABLE db.src;
INSERT INTO db.src FROM db.ev SELECT id, kind;
FROM db.ev INSERT INTO db.src SELECT id, kind;
INSERT INTO db.src SELECT id, kind FROM db.ev UNION ALL SELECT id, kind FROM db.src;
INSERT INTO db.src VALUES (3, 'a') , (4, 'b');
INSERT INTO db.src SELECT * FROM VALUES (5L, 'c') AS t(id, kind);
ALTER TABLE db.ev ALTER COLUMN attrs.a TYPE bigint;
ALTER TABLE db.ev ALTER COLUMN m.value TYPE bigint;
ALTER TABLE db.ev RENAME COLUMN attrs.b TO bb;
ALTER TABLE db.ev ADD COLUMNS (extra int COMMENT 'x', nested struct<p: int, q: string>);
ALTER TABLE db.ev ADD COLUMN attrs.c double AFTER a;
ALTER TABLE db.ev ALTER COLUMN extra AFTER id;
ALTER TABLE db.ev SET TBLPROPERTIES ('write.format.default'='orc', 'comment'='events');
ALTER TABLE db.ev SET TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read');
ALTER TABLE db.ev UNSET TBLPROPERTIES IF EXISTS ('nope');
CREATE TABLE db.ctas USING iceberg PARTITIONED BY (kind) COMMENT 'c' TBLPROPERTIES ('k'='v') AS SELECT id, kind FROM db.src;
ANALYZE TABLE db.ev COMPUTE STATISTICS FOR ALL COLUMNS;
EXPLAIN SELECT * FROM db.ev;
SET spark.sql.shuffle.partitions = 8;
RESET spark.sql.shuffle.partitions;
USE db;
INSERT INTO src VALUES (6, 'd');
ALTER TABLE src ADD COLUMN z int;
