-- the classic trap: drop a column and add it back with a new type
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;

-- a harmless change in between
ALTER TABLE db.events ADD COLUMN note string COMMENT 'free text';
ALTER TABLE db.events ALTER COLUMN attrs.score TYPE bigint;
