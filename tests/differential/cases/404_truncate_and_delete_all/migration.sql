DELETE FROM db.events WHERE id = 1;
DELETE FROM db.events;
TRUNCATE TABLE db.logs;
