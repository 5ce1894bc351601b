ALTER TABLE db.events DROP COLUMN IF EXISTS no_such_column;
ALTER TABLE db.events DROP COLUMN IF EXISTS payload;
ALTER TABLE db.events DROP COLUMN IF EXISTS payload;
ALTER TABLE db.events ADD COLUMN payload string;
