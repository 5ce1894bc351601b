ALTER TABLE db.events ADD COLUMN region string;
ALTER TABLE db.events ALTER COLUMN attrs.score TYPE bigint;
