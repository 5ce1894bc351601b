ALTER TABLE db.events ALTER COLUMN n TYPE bigint;
ALTER TABLE db.events RENAME COLUMN s.y TO yy;
INSERT INTO db.events VALUES (2, 2, named_struct('x', 2, 'yy', 'b'));
ALTER TABLE db.events DROP COLUMN s.x;
ALTER TABLE db.events ADD COLUMN s.x int;
