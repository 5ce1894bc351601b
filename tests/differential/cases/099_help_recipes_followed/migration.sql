-- The SQL icelint's help proposes, followed as written in real Spark (tests/rules/test_help_replay.py
-- pastes it into the replay; this case shows what Spark does with it).
-- ICE003 rename of an identity partition source: renaming the partition field along with it is
-- accepted, but does NOT free the old name: the older spec keeps `region`, so Spark still rejects a
-- new column `region` (Cannot create identity partition sourced from different field in schema).
ALTER TABLE db.clicks RENAME COLUMN region TO region_code;
ALTER TABLE db.clicks REPLACE PARTITION FIELD region WITH region_code AS region_code;
ALTER TABLE db.clicks ADD COLUMN region string;
-- ICE005 dropping a column of the write order: the order without it, then the drop.
ALTER TABLE db.tasks WRITE ORDERED BY due ASC NULLS FIRST;
ALTER TABLE db.tasks DROP COLUMN priority;
-- ICE005 dropping an identifier field: the identifier fields without it, then the drop.
ALTER TABLE db.accounts SET IDENTIFIER FIELDS account_id;
ALTER TABLE db.accounts DROP COLUMN legacy_key;
-- ICE004 DROP NOT NULL on an identifier field: drop it from the identifier fields first.
ALTER TABLE db.accounts DROP IDENTIFIER FIELDS account_id;
ALTER TABLE db.accounts ALTER COLUMN account_id DROP NOT NULL;
