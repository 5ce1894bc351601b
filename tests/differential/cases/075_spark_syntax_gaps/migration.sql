ALTER TABLE db.events ADD COLUMN IF NOT EXISTS priority int;
ALTER TABLE db.events ADD COLUMN priority int DEFAULT 0;
ALTER TABLE db.events ADD COLUMN priority int;
ALTER TABLE db.events ALTER COLUMN priority SET DEFAULT 1;
ALTER TABLE db.events ALTER COLUMN priority TYPE bigint COMMENT 'wider';
ALTER TABLE db.events DROP COLUMNS IF EXISTS (nope, priority);
