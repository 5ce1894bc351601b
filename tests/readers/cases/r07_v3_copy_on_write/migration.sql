DELETE FROM db.events WHERE id = 1;
UPDATE db.events SET kind = 'z' WHERE id = 2;
ALTER TABLE db.events ALTER COLUMN id FIRST;
