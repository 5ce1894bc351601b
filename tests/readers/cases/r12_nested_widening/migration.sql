ALTER TABLE db.events ALTER COLUMN s.x TYPE bigint;
ALTER TABLE db.events ALTER COLUMN s.f TYPE double;
ALTER TABLE db.events ALTER COLUMN l.element TYPE bigint;
ALTER TABLE db.events ALTER COLUMN m.value TYPE bigint;
ALTER TABLE db.events ALTER COLUMN d TYPE decimal(20, 2);
INSERT INTO db.events VALUES (2, named_struct('x', 2L, 'f', 2.5D), array(3L), map('k', 2L), 2.5);
