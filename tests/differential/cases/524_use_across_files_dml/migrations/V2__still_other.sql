-- still in namespace other: events is other.events
UPDATE events SET payload = 'x' WHERE id = 1;
UPDATE events SET label = 'x' WHERE id = 1;
INSERT INTO events VALUES (1, 'a', 'b');
INSERT INTO events VALUES (1, 'a');
DELETE FROM kinds WHERE kind = 'view';
DELETE FROM kinds WHERE label = 'view';
USE db;
UPDATE events SET payload = 'x' WHERE id = 1;
UPDATE events SET label = 'x' WHERE id = 1;
DROP TABLE other.events PURGE;
DROP TABLE other.kinds PURGE;
