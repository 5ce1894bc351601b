-- fast_forward(table, branch, to), the publish step of write-audit-publish: `to` must be a ref (a
-- branch or a tag), `branch` a branch, made when it does not exist (writes to it then work, and
-- CREATE BRANCH of it fails). icelint passed every call (whether `branch` is an ancestor of `to`
-- depends on snapshots no migration holds: not checked).
ALTER TABLE db.sample CREATE BRANCH b2;
ALTER TABLE db.sample CREATE TAG t1;
CALL system.fast_forward('db.sample', 'main', 'nope');
CALL system.fast_forward('db.sample', 'newb', 'main');
INSERT INTO db.sample.branch_newb VALUES (7, 'n', 'c1', TIMESTAMP '2020-05-02 00:00:00');
ALTER TABLE db.sample CREATE BRANCH newb;
CALL system.fast_forward('db.sample', 'b2', 't1');
CALL system.fast_forward('db.sample', 't1', 'b2');
CALL system.fast_forward(table => 'db.sample', branch => 'b2', to => 'main');
CALL system.fast_forward(table => 'db.sample', branch => 'b3', to => 'gone');
