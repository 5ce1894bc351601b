-- store (int) only feeds partition spec 0 of a v2 table: accepted, time travel and later inserts work
-- in Spark 3.5.9 + Iceberg 1.10.2 (older Iceberg runtimes fail to load the table: a warning)
ALTER TABLE db.sales DROP COLUMN store;
