-- A new column's position is no reorder: a positional INSERT of the old arity fails, as after a
-- plain ADD COLUMN at the end (INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS). Only moves of
-- existing columns (ALTER COLUMN ... FIRST/AFTER, CHANGE COLUMN ... FIRST/AFTER) shift them.
ALTER TABLE db.t ADD COLUMN code string AFTER id;
INSERT INTO db.t VALUES (2, 'b', named_struct('street', 's2', 'city', 'c2'));
INSERT INTO db.t SELECT 3, 'c', named_struct('street', 's3', 'city', 'c3');
ALTER TABLE db.t ADD COLUMN first_col int FIRST;
INSERT INTO db.t VALUES (4, 'x', 'd', named_struct('street', 's4', 'city', 'c4'));
ALTER TABLE db.t ADD COLUMN addr.zip string FIRST;
ALTER TABLE db.t ALTER COLUMN name FIRST;
ALTER TABLE db.t CHANGE COLUMN id id bigint AFTER code;
