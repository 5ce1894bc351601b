ALTER TABLE db.events CREATE TAG release_1;
ALTER TABLE db.events CREATE BRANCH audit;
ALTER TABLE db.events CREATE BRANCH IF NOT EXISTS audit;
ALTER TABLE db.events CREATE TAG release_1;
ALTER TABLE db.events ADD COLUMN note string;
ALTER TABLE db.events DROP BRANCH audit;
ALTER TABLE db.events DROP TAG IF EXISTS nope;
ALTER TABLE db.events REPLACE TAG release_1;
