-- the table is emptied first: re-adding the name hides nothing the current snapshot still has
TRUNCATE TABLE db.events;
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload string;
