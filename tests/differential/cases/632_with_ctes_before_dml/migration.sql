-- Spark 3.5 takes CTEs before INSERT, UPDATE, DELETE and MERGE (`ctes? dmlStatementNoWith`): the
-- statement writes the table after its WITH list, with the same checks as without it. icelint
-- passed every such statement silently (a `WITH` was a query).
WITH x AS (SELECT id, v FROM db.s WHERE id IS NOT NULL) INSERT INTO db.r SELECT v, id FROM x;
WITH x AS (SELECT id, v FROM db.s WHERE id IS NOT NULL) INSERT INTO db.r (v, id) SELECT v, id FROM x;
WITH x AS (SELECT id, v FROM db.s) INSERT INTO db.r SELECT id, v, v FROM x;
WITH x AS (SELECT id, v FROM db.s WHERE id IS NOT NULL), y AS (SELECT * FROM x) INSERT INTO db.r SELECT id, v FROM y;
WITH x AS (SELECT id FROM db.s) DELETE FROM db.r WHERE nope IN (SELECT id FROM x);
WITH x AS (SELECT id FROM db.s) DELETE FROM db.r WHERE id IN (SELECT id FROM x);
WITH x AS (SELECT id, v FROM db.s) UPDATE db.r SET w = 'z' WHERE id = 1;
WITH x AS (SELECT id, v FROM db.s) MERGE INTO db.r t USING x ON t.id = x.id WHEN MATCHED THEN UPDATE SET t.v = x.v;
WITH x AS (SELECT id, v FROM db.s) INSERT OVERWRITE db.r SELECT id, v FROM x WHERE id IS NOT NULL;
-- A nullable column into a NOT NULL one is not refused before the write: the job fails only when a
-- row holds a NULL (db.s holds none here), so no statement's verdict can depend on it without data.
INSERT INTO db.r SELECT id, v FROM db.s;
