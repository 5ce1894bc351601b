-- Write-audit-publish as Iceberg's branching page writes it: with `spark.wap.branch` set, a write to
-- a table with `write.wap.enabled=true` goes to that branch, made by the first write (CREATE BRANCH
-- of it then fails), which `fast_forward` publishes; while it is set, a write to a branch by name of
-- such a table fails. On a table without the property the write goes to main. RESET ends it, and
-- RESET of `spark.sql.caseSensitive` makes names case-insensitive again. icelint knew none of this.
SET spark.wap.branch = audit;
INSERT INTO db.u VALUES (2);
INSERT INTO db.u.branch_side VALUES (2);
INSERT INTO db.t VALUES (3, 'c');
INSERT INTO db.t VALUES (4, 'd', 5);
INSERT INTO db.t.branch_audit VALUES (5, 'e');
RESET spark.wap.branch;
ALTER TABLE db.t CREATE BRANCH audit;
CALL system.fast_forward('db.t', 'main', 'audit');
CALL system.fast_forward('db.u', 'main', 'audit');
INSERT INTO db.t.branch_audit VALUES (6, 'f');
SET spark.wap.branch = review;
RESET;
INSERT INTO db.t VALUES (7, 'g');
CALL system.fast_forward('db.t', 'main', 'review');
SET spark.sql.caseSensitive = true;
RESET spark.sql.caseSensitive;
ALTER TABLE db.t ADD COLUMN DATA2 string;
ALTER TABLE db.t ADD COLUMN data2 string;
