-- Write-audit-publish: Iceberg's SparkCatalog reads `db.t.branch_<name>` (and `tag_<name>`,
-- `snapshot_id_<id>`, `at_timestamp_<ms>`) as a ref of the table `db.t`. A branch that exists takes
-- writes checked against the table's schema; a missing branch, a tag or a snapshot take none; DDL on
-- the name finds no table; DROP TABLE on it drops nothing (and fails for a branch that does not exist,
-- IF EXISTS or not). icelint took `db.t.branch_audit` for a
-- table `t.branch_audit` that no one created (a false ICE005 on every write to a branch).
INSERT INTO db.t.branch_audit VALUES (2, 'b');
INSERT INTO db.t.branch_audit VALUES (2, 'b', 3);
INSERT INTO local.db.t.branch_audit VALUES (3, 'c');
INSERT INTO db.t.branch_audit (data, id) VALUES ('d', 4);
UPDATE db.t.branch_audit SET data = 'e' WHERE id = 2;
DELETE FROM db.t.branch_audit WHERE nope = 1;
MERGE INTO db.t.branch_audit t USING (SELECT 9L AS id, 'z' AS data) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *;
INSERT INTO db.t SELECT * FROM db.t.branch_audit;
INSERT INTO db.t SELECT data, id FROM db.t.branch_audit;
INSERT INTO db.t.branch_gone VALUES (5, 'f');
INSERT INTO db.t.branch_Audit VALUES (5, 'f');
INSERT INTO db.t.branch_main VALUES (6, 'g');
CREATE TABLE db.e (id bigint) USING iceberg;
INSERT INTO db.e.branch_main VALUES (1);
INSERT INTO db.e.branch_new VALUES (1);
INSERT INTO db.t.tag_v1 VALUES (7, 'h');
DELETE FROM db.t.tag_v1 WHERE id = 1;
UPDATE db.t.tag_v1 SET data = 'i' WHERE id = 1;
MERGE INTO db.t.tag_v1 t USING (SELECT 9L AS id, 'z' AS data) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *;
INSERT INTO db.t.tag_nope VALUES (7, 'h');
INSERT INTO db.t.branch_v1 VALUES (7, 'h');
INSERT INTO db.t.snapshot_id_2 VALUES (7, 'h');
INSERT INTO db.t.at_timestamp_1 VALUES (7, 'h');
ALTER TABLE db.t.branch_audit ADD COLUMN z int;
ALTER TABLE db.t.tag_v1 SET TBLPROPERTIES ('k'='v');
ALTER TABLE db.t ADD COLUMN z int;
INSERT INTO db.t.branch_audit VALUES (8, 'j');
INSERT INTO db.t.branch_audit VALUES (8, 'j', 1);
DROP TABLE db.t.branch_audit;
DROP TABLE db.t.tag_v1;
DROP TABLE db.t.branch_gone;
DROP TABLE IF EXISTS db.t.branch_gone;
DROP TABLE db.t.tag_nope;
DROP TABLE IF EXISTS db.t.tag_nope;
TRUNCATE TABLE db.t.branch_audit;
DELETE FROM db.t.branch_audit;
ALTER TABLE db.t DROP BRANCH audit;
INSERT INTO db.t.branch_audit VALUES (10, 'k', 2);
ALTER TABLE db.t CREATE BRANCH audit;
INSERT INTO db.t.branch_audit VALUES (11, 'l', 3);
