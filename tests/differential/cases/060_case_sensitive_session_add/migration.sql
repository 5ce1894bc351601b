SET spark.sql.caseSensitive=true;
ALTER TABLE db.orders ADD COLUMN Status string;
ALTER TABLE db.notes ADD COLUMN NOTE string;
ALTER TABLE db.notes ADD COLUMN s.A int;
SET spark.sql.caseSensitive=false;
ALTER TABLE db.notes ADD COLUMN extra int;
