SET spark.sql.caseSensitive=true;
ALTER TABLE db.orders RENAME COLUMN state TO STATUS;
ALTER TABLE db.orders RENAME COLUMN meta.kind TO CODE;
SET spark.sql.caseSensitive=false;
