ALTER TABLE db.no_such_table ADD COLUMN x int;
ALTER TABLE other.events ADD COLUMN x int;
ALTER TABLE db.events ADD COLUMN x int;
DROP TABLE db.no_such_table;
DROP TABLE IF EXISTS db.no_such_table;
