-- fields added inside map values and list elements (reported to fail on some runtimes)
ALTER TABLE db.t ADD COLUMN props.value.w string;
ALTER TABLE db.t ADD COLUMN items.element.b bigint;
ALTER TABLE db.t ADD COLUMN deep.element.value.y string;
ALTER TABLE db.t ADD COLUMN items.element.c int FIRST;
INSERT INTO db.t VALUES (3, map('k', named_struct('v', 3, 'w', 'z')), array(named_struct('c', 1, 'a', 3, 'b', 4L)), array(map('k', named_struct('x', 3, 'y', 'q'))));
ALTER TABLE db.t ALTER COLUMN items.element.a TYPE bigint;
ALTER TABLE db.t RENAME COLUMN props.value.v TO v2;
ALTER TABLE db.t DROP COLUMN items.element.b;
